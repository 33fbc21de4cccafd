import { PaymentSessionStatus } from "@medusajs/framework/utils";
import type {
  InitiatePaymentInput,
  InitiatePaymentOutput,
  UpdatePaymentInput,
  UpdatePaymentOutput,
} from "@medusajs/framework/types";
import type { ContextCustomer } from "../../../internal/checkout/boleto-payer";
import { parseSessionInput, sessionData } from "../../../internal/checkout/session-data";
import { PixCheckoutError } from "../../../internal/platform/errors";
import { toCents } from "../../../internal/platform/money";
import {
  openSession,
  updateSession,
  type OpenSessionRequest,
} from "../../../internal/settlement/open-session";
import { providerError } from "./errors";
import type { ProviderDoor } from "./door";

/** `initiatePayment`: the session asks for a code (settlement/open-session.ts). */
export async function initiate(
  door: ProviderDoor,
  input: InitiatePaymentInput,
): Promise<InitiatePaymentOutput> {
  const request = openRequest(door, input);
  const owned = await openSession(door.core, request).catch((error: unknown) => {
    throw providerError(error, door.core.logger, "before_code");
  });
  return {
    id: owned.charge_id ?? `${request.sessionId}:preparing`,
    data: sessionData(input.data, owned),
    status: PaymentSessionStatus.PENDING,
  };
}

/** `updatePayment`: the same amount keeps the session's money; another asks for a new code. */
export async function update(
  door: ProviderDoor,
  input: UpdatePaymentInput,
): Promise<UpdatePaymentOutput> {
  const request = openRequest(door, input);
  const { owned, changed } = await updateSession(door.core, request).catch((error: unknown) => {
    throw providerError(error, door.core.logger, "before_code");
  });
  return {
    data: sessionData(input.data, owned),
    ...(changed ? { status: PaymentSessionStatus.PENDING } : {}),
  };
}

/**
 * What a session asks for, parsed from what Medusa hands the provider. The session is Medusa's
 * own (`data.session_id`, which Medusa writes over the storefront's, else the idempotency key it
 * passes at creation); of the storefront's `data`, only the payer's details are read.
 */
function openRequest(
  door: ProviderDoor,
  input: InitiatePaymentInput | UpdatePaymentInput,
): OpenSessionRequest {
  if (input.currency_code.toLowerCase() !== "brl") {
    throw new PixCheckoutError(
      "unsupported_currency",
      `Pix Checkout charges only BRL; this payment is in ${input.currency_code.toUpperCase()}.`,
    );
  }
  const data = (input.data ?? {}) as Record<string, unknown>;
  const context = input.context as { idempotency_key?: string; customer?: unknown } | undefined;
  const sessionId =
    typeof data.session_id === "string" && data.session_id !== ""
      ? data.session_id
      : (context?.idempotency_key ?? "");
  if (!sessionId) {
    // A code with no session behind it could never be matched to a cart or order.
    throw new PixCheckoutError(
      "session_not_found",
      "This payment has no Medusa payment session; create it through a payment collection's payment-sessions route.",
    );
  }
  return {
    sessionId,
    method: door.method,
    amountCents: toCents(input.amount),
    input: parseSessionInput(data),
    customer: context?.customer as ContextCustomer | undefined,
    options: door.options,
    client: door.client,
    line: door.line,
  };
}
