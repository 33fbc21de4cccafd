import type { CheckoutSession, SessionStatus } from "./session.js";

/**
 * Detail of `pix-paid`: the session as the backend reported it paid. Fired only when this
 * session's money pays the cart (status `paid`), the one event a storefront completes its
 * cart on.
 */
export interface PixPaidDetail {
  session: CheckoutSession;
}

/**
 * Detail of `pix-refund-due`: the session's payment arrived but pays for no order (a replaced
 * code paid from the clipboard, a payment after the order was canceled): the store returns
 * `session.refund.amount`. Never complete a cart on it.
 */
export interface PixRefundDueDetail {
  session: CheckoutSession;
}

/** Detail of `pix-expired`. `source` says whether the backend or the skew-corrected clock said so. */
export interface PixExpiredDetail {
  session: CheckoutSession;
  source: "server" | "clock";
}

/** Detail of `pix-status-change`: fired on every status change, including the first load. */
export interface PixStatusChangeDetail {
  status: SessionStatus;
  previous: SessionStatus | null;
  session: CheckoutSession;
}

/** Detail of `pix-copy`: fired only after a copy succeeded. */
export interface PixCopyDetail {
  /** What was copied: the Pix code or the boleto's digitable line. */
  kind: "pix" | "boleto";
  text: string;
  /** Which route worked: the Clipboard API or selection plus `execCommand('copy')`. */
  via: "clipboard" | "exec-command";
}

/** Stable error codes of `pix-error`; branch on these, never on `message`. */
export type PixErrorCode =
  | "network"
  /**
   * The store answered, but its CORS rules do not list the page's origin, so the browser hid
   * the answer: add the storefront's origin to the store's `STORE_CORS`. The console says which.
   */
  | "blocked"
  | "not_found"
  | "unauthorized"
  | "rate_limited"
  | "bad_response"
  | "server_error"
  /**
   * A 503 with `Retry-After` (`store_unavailable`, `stream_limit_reached`): the store is briefly
   * unable to answer. The element waits that long and asks again by itself, keeping the code on
   * screen; it never shows its error view for it.
   */
  | "unavailable";

/** Detail of `pix-error`. */
export interface PixErrorDetail {
  code: PixErrorCode;
  message: string;
  /** HTTP status, when the backend answered. */
  status?: number;
}

/** Every event the element fires, by name, with its detail type. */
/**
 * Detail of `pix-renewed`: the element now shows another session of the cart, `sessionId` (also
 * its `session-id` property): a new code after the old one expired, or the cart's current code
 * ("Gerar novo código" on a code the cart replaced since, "Ver o código atual").
 */
export interface PixRenewedDetail {
  previous: string;
  sessionId: string;
}

export interface PixCheckoutEventMap {
  "pix-paid": CustomEvent<PixPaidDetail>;
  "pix-refund-due": CustomEvent<PixRefundDueDetail>;
  "pix-expired": CustomEvent<PixExpiredDetail>;
  "pix-status-change": CustomEvent<PixStatusChangeDetail>;
  "pix-copy": CustomEvent<PixCopyDetail>;
  "pix-error": CustomEvent<PixErrorDetail>;
  "pix-renewed": CustomEvent<PixRenewedDetail>;
}

declare global {
  // Declaration merging: every addEventListener on the page learns the detail types.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface GlobalEventHandlersEventMap extends PixCheckoutEventMap {}
}
