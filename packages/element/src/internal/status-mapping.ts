import type { CheckoutSession, SessionStatus } from "../session.js";

/**
 * The element's decisions about a status answer, apart from Lit and the DOM: which view shows,
 * under which title, whether its words come in the notice chunk, which event the status brings,
 * where the countdown aims, whether a new code is offered, and when the listening ends. The
 * element (pix-checkout.component.ts) and its status controller call these; their unit tests
 * (status-mapping.test.ts) run in Node, and `npm run mutation` mutates this file.
 */

/**
 * What the element shows: the session's status, or `loading` / `error` before one
 * arrives. The `base` part carries it as a class.
 */
export type PixCheckoutView = "loading" | "error" | SessionStatus;

/**
 * Statuses after which the code's own news is over. `preparing`, `superseded`, `held` and
 * `confirming` are not ones, and a `paid` code's order still has news: the element listens on until its order is paid
 * or canceled (`isFinal`).
 */
export const FINAL_STATUSES: readonly SessionStatus[] = [
  "paid",
  "expired",
  "failed",
  "canceled",
  "refund_due",
];

/**
 * Whether the session's news is over, and the element stops listening. A paid code's is once
 * its order is paid or canceled: the order's news (confirmed, still owing what an edit added,
 * canceled) follows the payment. Money owed back (`refund_due`) and a code that ended
 * (`expired`, `failed`, `canceled`) have none to follow.
 */
export const isFinal = (s: CheckoutSession): boolean =>
  s.status == "paid"
    ? /^(paid|canceled)$/.test(s.order?.payment as string)
    : FINAL_STATUSES.includes(s.status);

/**
 * The view for what the element last heard: the session's status (a pending code the
 * skew-corrected clock ran out is `expired` before the backend says so), else `error`, or
 * `loading` while none has come. A store asking for patience (a 503 or 429 with Retry-After)
 * is waited for, never an error view.
 */
export const viewOf = ({
  session,
  error,
  clockExpired,
}: {
  session: CheckoutSession | null;
  error?: { retryAfter?: number } | null;
  clockExpired?: boolean;
}): PixCheckoutView =>
  !session
    ? error && !error.retryAfter
      ? "error"
      : "loading"
    : session.status == "pending" && clockExpired
      ? "expired"
      : session.status;

/** The views whose words (under the title) come in the notice chunk: few shoppers see them. */
export const isNotice = (
  status: string,
): status is "preparing" | "superseded" | "held" | "confirming" | "refund_due" =>
  /^(preparing|superseded|held|confirming|refund_due)$/.test(status);

/**
 * Whether `session` needs the notice chunk: every view past the code takes its words from it (a
 * paid code's: its order and what comes back, under the element's own title), and so does the
 * rare line about an older code of the cart whose money the store returns.
 */
export const wantsNotices = (s: CheckoutSession): unknown =>
  s.earlier_payment || s.status != "pending";

/**
 * The words for `session`'s status (announced, and its view's title), by their key: the
 * status, but a boleto being prepared has its own (`preparingBoleto`).
 */
export const titleOf = (session: CheckoutSession): string =>
  session.status == "preparing" && session.method == "boleto" ? "preparingBoleto" : session.status;

/**
 * The event a new status brings besides `pix-status-change` (and `pix-expired`, which the element
 * fires once per session, by the backend's word or its clock's): `pix-paid`, the one a storefront
 * completes its cart on, or `pix-refund-due`, money that pays for no order; else none.
 */
export const eventOf = (status: SessionStatus): "pix-paid" | "pix-refund-due" | undefined =>
  status == "paid" ? "pix-paid" : status == "refund_due" ? "pix-refund-due" : undefined;

/**
 * Where the countdown aims, by the backend's clock: while the code is prepared, when it should
 * exist (shown as an estimate, never as an expiry); a pending Pix, its expiry; without either,
 * the backend's now (at once). `""`: no countdown (a boleto, or a code past pending).
 */
export const countdownTo = (s: CheckoutSession): string =>
  (s.status == "preparing"
    ? s.ready_at
    : s.status == "pending" && s.method == "pix"
      ? s.expires_at
      : "") ?? s.server_time;

/**
 * Whether the expired view offers "Gerar novo código": only once the backend says the code can
 * no longer be paid (the device's clock may be early) and names where a new one comes from,
 * and only when the page did not take the expiry on itself (`preventDefault()` on `pix-expired`).
 */
export const offersRenewal = (s: CheckoutSession, renewByHost: boolean): boolean =>
  s.status == "expired" && !!s.renew && !renewByHost;
