import type {
  AuthorizePaymentInput,
  AuthorizePaymentOutput,
  CapturePaymentInput,
  CapturePaymentOutput,
  GetPaymentStatusInput,
  GetPaymentStatusOutput,
  RetrievePaymentInput,
  RetrievePaymentOutput,
} from "@medusajs/framework/types";
import { sessionData } from "../../../internal/checkout/session-data";
import { ownedOf } from "../../../internal/settlement/open-session";
import { sessionMoney } from "../../../internal/settlement/session-money";
import { captureStartedBySettlement } from "../../../internal/settlement/capture-door";
import { noMoneyOnSession, sessionVerdict } from "../../../internal/settlement/session-verdict";
import { PixCheckoutError } from "../../../internal/platform/errors";
import { providerError } from "./errors";
import type { ProviderDoor } from "./door";

/** How long `authorizePayment` waits for a collection another door is deciding about. */
const AUTHORIZE_LOCK_WAIT_MS = 3_000;

/**
 * `authorizePayment` (cart completion) and `getPaymentStatus`: the session's money as the
 * collection's one decision has it (settlement/session-verdict.ts).
 */
export async function authorize(
  door: ProviderDoor,
  input: AuthorizePaymentInput | GetPaymentStatusInput,
  authorizing: boolean,
): Promise<AuthorizePaymentOutput & GetPaymentStatusOutput> {
  const sessionId = sessionOf(input);
  const verdict = await sessionVerdict(door.core, sessionId, {
    authorizing,
    waitMs: AUTHORIZE_LOCK_WAIT_MS,
  }).catch((error: unknown) => {
    throw providerError(error, door.core.logger, "after_code");
  });
  return { status: verdict.status, data: sessionData(input.data, verdict.owned) };
}

/**
 * `capturePayment`: a paid charge is already money received, and settlement captures it for
 * what arrived (settlement/capture.ts); Medusa's capture goes through only when settlement
 * started it (settlement/capture-door.ts), never from the admin's Capture button or the API.
 */
export async function capture(
  door: ProviderDoor,
  input: CapturePaymentInput,
): Promise<CapturePaymentOutput> {
  const sessionId = sessionOf({ data: input.data });
  const key = (input.context as { idempotency_key?: unknown } | undefined)?.idempotency_key;
  await captureStartedBySettlement(
    door.core,
    sessionId,
    typeof key === "string" ? key : undefined,
  ).catch((error: unknown) => {
    throw providerError(error, door.core.logger, "after_code");
  });
  return { data: input.data ?? {} };
}

/** `retrievePayment`: the session's money as the plugin recorded it. */
export async function retrieve(
  door: ProviderDoor,
  input: RetrievePaymentInput,
): Promise<RetrievePaymentOutput> {
  const sessionId = sessionOf(input);
  const money = await sessionMoney(door.core, sessionId).catch((error: unknown) => {
    throw providerError(error, door.core.logger, "after_code");
  });
  if (!money) throw noMoneyOnSession(sessionId);
  return { data: sessionData(input.data, ownedOf(money, sessionId)) };
}

/**
 * The Medusa session a call is about: the idempotency key Medusa passes when it authorizes (the
 * session's id), else the `session_id` of the data, which the provider itself wrote (Medusa
 * stores the provider's answer over the storefront's data, and the answer always sets it).
 */
export function sessionOf(input: {
  data?: Record<string, unknown> | undefined;
  context?: unknown;
}): string {
  const key = (input.context as { idempotency_key?: unknown } | undefined)?.idempotency_key;
  const own = input.data?.session_id;
  const sessionId =
    typeof key === "string" && key.startsWith("payses_")
      ? key
      : typeof own === "string"
        ? own
        : undefined;
  if (!sessionId || !/^[A-Za-z0-9_-]{1,100}$/.test(sessionId)) {
    throw new PixCheckoutError(
      "session_not_found",
      "This payment names no Medusa payment session; create it through a payment collection's payment-sessions route.",
    );
  }
  return sessionId;
}
