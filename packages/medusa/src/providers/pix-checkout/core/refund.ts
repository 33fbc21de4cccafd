import type { RefundPaymentInput, RefundPaymentOutput } from "@medusajs/framework/types";
import { sessionRefund } from "../../../internal/settlement/end-session";
import { toCents } from "../../../internal/platform/money";
import { providerError } from "./errors";
import { sessionOf } from "./authorize";
import type { ProviderDoor } from "./door";

/**
 * `refundPayment`: only what the merchant declared returned in the service's dashboard is
 * recorded (settlement/end-session.ts `sessionRefund`); anything else is refused.
 */
export async function refund(
  door: ProviderDoor,
  input: RefundPaymentInput,
): Promise<RefundPaymentOutput> {
  const amountCents = toCents(input.amount);
  // Medusa's context here carries the refund's own id, not the session's.
  const sessionId = sessionOf({ data: input.data });
  const chargeId = await sessionRefund(door.core, sessionId, amountCents).catch(
    (error: unknown) => {
      throw providerError(error, door.core.logger, "after_code");
    },
  );
  door.core.logger.info(
    `recorded a refund of ${amountCents} cents for charge ${chargeId} the merchant returned`,
  );
  return { data: input.data ?? {} };
}
