import type { RefundReason } from "../session.js";

/** Every UI string of the element; one object per language. Status keys (`pending`,
 * `paid`, ...) are the words announced when the session reaches that status. */
export interface Strings {
  loading: string;
  payWithPix: string;
  steps: [string, string, string];
  qrLabel: (amount: string) => string;
  /** Under the amount when the store's Pix discount applies: what paying by Pix saves. */
  saved: (amount: string) => string;
  pixCode: string;
  copyCode: string;
  /** The large copy button of the copy-first (phone) order. */
  copyPixCode: string;
  /** The one line under it: what to do with the copied code. */
  afterCopy: string;
  /** The button that shows the QR in the copy-first order (for paying with another device). */
  showQr: string;
  /** The same button once the QR is open. */
  hideQr: string;
  /** The QR could not be drawn: say so, and point to the code. */
  qrUnavailable: string;
  /** The warning at 5 and at 1 minute left. */
  expiresSoon: (minutes: number) => string;
  /**
   * The expired view's button while a new code is being made, and the announcement (the button's
   * own word, `renew`, comes with the notice chunk).
   */
  renewing: string;
  copied: string;
  copyManual: string;
  share: string;
  expiresIn: string;
  alreadyPaid: string;
  checking: string;
  pending: string;
  paid: string;
  paidBody: string;
  expired: string;
  failed: string;
  canceled: string;
  errorTitle: string;
  errorBody: string;
  notFound: string;
  retry: string;
  /**
   * Under the code (or the spinner, while the store asks for patience) when a call failed: the
   * connection dropped, or the store answered a 5xx or a 503 with Retry-After. The element asks
   * again by itself.
   */
  reconnecting: string;
}

/** The boleto view's strings; they ship in the boleto chunk, not the main file. */
export interface BoletoStrings {
  title: string;
  digitableLine: string;
  copyLine: string;
  barcodeLabel: string;
  openBoleto: string;
  dueDate: (date: string) => string;
  steps: string;
}

/**
 * The words of the preparing, superseded and refund views under their titles; they ship in
 * the notice chunk, which loads only when a session reaches one of those statuses.
 */
export interface NoticeStrings {
  /** When the code should be ready: `when` is `about(n)`, `aboutMinutes(n)` or `soon`. */
  readyIn: (when: string) => string;
  /** An estimate in seconds: "cerca de 40 s". */
  about: (seconds: number) => string;
  /** An estimate in minutes, from a minute up: "cerca de 2 min". */
  aboutMinutes: (minutes: number) => string;
  /** Where the estimate stops counting: never "0 s", nor a time already past. */
  soon: string;
  /** That the code (the QR code, the boleto) will show by itself, without a reload. */
  willShow: Record<"pix" | "boleto", string>;
  supersededBody: string;
  /** The button that switches to the cart's current session. */
  showCurrent: string;
  /**
   * The expired, failed and canceled views' line under their titles (the titles, announced,
   * are in `Strings`).
   */
  closed: Record<"expired" | "failed" | "canceled", string>;
  /** The expired view's button for a new code (`Strings.renewing` while it works). */
  renew: string;
  /**
   * The titles of the preparing (a Pix's, a boleto's), superseded, held, confirming and refund
   * views (and what is announced when a session reaches them): with their words, in this chunk,
   * since few shoppers ever see them; until it is here, the element shows its spinner.
   */
  titles: Record<
    "preparing" | "preparingBoleto" | "superseded" | "held" | "confirming" | "refund_due",
    string
  >;
  /** The refund view's main line, with the amount to refund, formatted. */
  refundBody: (amount: string) => string;
  /**
   * The refund view's main line for a code that was replaced (or paid twice, or for an older
   * amount): the money came for a code that no longer pays the cart.
   */
  refundReplacedBody: (amount: string) => string;
  /**
   * The refund view's main line when the order's charge this code paid was canceled (the order
   * changed): the money came for a code that no longer pays the order.
   */
  refundOrderChangedBody: (amount: string) => string;
  /** A replaced code paid anyway, while the store decides what the money becomes. */
  receivedReplaced: (amount: string) => string;
  /**
   * A payment short of the code (`received` of `asked`, formatted; `received` empty when the
   * store did not say how much), and what happens next.
   */
  heldBody: (received: string, asked: string) => string;
  heldNext: string;
  /**
   * A payment the store took for the cart, whose cart could not become an order yet (an item may
   * have sold out): what arrived (formatted), and what happens next.
   */
  confirmingBody: (received: string) => string;
  confirmingNext: string;
  /**
   * The order the cart became, and whether it is paid: "Seu pedido #12 está pago", "... aguarda
   * o pagamento do código atual", "... foi cancelado".
   */
  orderState: (displayId: number, payment: "paid" | "awaiting" | "canceled") => string;
  /**
   * Beside a paid code: the order it pays and what Medusa's order says of it. `owes` (formatted)
   * when the order still asks more than this code paid (edited up); without it, the store is
   * still confirming the order with this code's money.
   */
  paidOrder: (displayId: number, payment: "paid" | "awaiting" | "canceled", owes: string) => string;
  /**
   * Beside a paid code whose cart is no order yet: the store is making the order with this
   * code's money (or finds it cannot: then the code reads `refund_due`).
   */
  paidConfirming: string;
  /** Beside a paid code: the part of its money the store returns (`amount`, formatted). */
  paidRefund: (amount: string) => string;
  /** No order yet, and the cart has a current code: that code still pays it. */
  payCurrent: string;
  /**
   * An older code of the cart was paid: the store received `amount` and returns it; whether the
   * order is paid says whether this code still needs paying.
   */
  earlierPayment: (amount: string, orderPaid: boolean) => string;
  /** One short line per refund reason, under the main line. */
  refundReasons: Record<RefundReason, string>;
}
