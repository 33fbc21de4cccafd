import type {
  CancelPaymentInput,
  CancelPaymentOutput,
  DeletePaymentInput,
  DeletePaymentOutput,
} from "@medusajs/framework/types";
import { sessionCanceled, sessionDeleted } from "../../../internal/settlement/end-session";
import { providerError } from "./errors";
import type { ProviderDoor } from "./door";

/** `deletePayment`: the session is replaced; its code is no longer offered. */
export async function remove(
  door: ProviderDoor,
  input: DeletePaymentInput,
): Promise<DeletePaymentOutput> {
  const sessionId = ownSession(input.data);
  if (sessionId) {
    await sessionDeleted(door.core, sessionId).catch((error: unknown) => {
      throw providerError(error, door.core.logger, "after_code");
    });
  }
  return { data: input.data ?? {} };
}

/** `cancelPayment`: the session's payment is undone; its charge's record becomes canceled. */
export async function cancel(
  door: ProviderDoor,
  input: CancelPaymentInput,
): Promise<CancelPaymentOutput> {
  const sessionId = ownSession(input.data);
  if (sessionId) {
    await sessionCanceled(door.core, sessionId).catch((error: unknown) => {
      throw providerError(error, door.core.logger, "after_code");
    });
  }
  return { data: { ...(input.data ?? {}), status: "canceled" } };
}

/**
 * The session a delete or cancel is about: the `session_id` the provider wrote into the
 * session's data (Medusa passes no context here). Data without one names nothing to end.
 */
function ownSession(data: Record<string, unknown> | undefined): string | undefined {
  const id = data?.session_id;
  return typeof id === "string" && /^[A-Za-z0-9_-]{1,100}$/.test(id) ? id : undefined;
}
