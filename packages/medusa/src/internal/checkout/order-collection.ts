import type { PixCheckoutErrorCode } from "../platform/errors";
import type { OwnedCollection } from "../medusa/order-collections";

/** Why an order's own collection takes no Pix code or boleto now. */
export interface NotPayable {
  code: Extract<
    PixCheckoutErrorCode,
    | "collection_already_paid"
    | "collection_canceled"
    | "order_canceled"
    | "nothing_owed"
    | "order_email_missing"
  >;
  message: string;
}

/**
 * Whether an order's own collection (an order edit's, exchange's or claim's difference, a
 * converted draft's total), or the collection of a cart that became an order (an order-first
 * order, edited or not), may take a Pix code or boleto, from what Medusa holds of it: the
 * one rule the session gate (create-line/session-gate.ts) and the payment page
 * (storefront/collection-page.ts) both ask, so the page never offers what the store route
 * refuses. Null when it may. A collection Medusa completed (the merchant marked it paid, or a
 * payment was captured) is paid; whether a Pix or boleto of the plugin paid it is the plugin's
 * records' word, asked separately (settlement/paid-collection-guard.ts).
 *
 * An order whose pending difference is zero or less owes nothing, whatever its collection still
 * says: Medusa leaves an open collection at its old amount when a later change turns the
 * difference into a refund, and a code for it would ask the customer for money they do not owe.
 */
export function whyNotPayable(collection: OwnedCollection): NotPayable | null {
  const order = collection.order ?? collection.cartOrder;
  if (!order) return null;
  if (collection.status === "completed") {
    return {
      code: "collection_already_paid",
      message: `This payment collection of order #${order.displayId ?? order.id} is already paid; nothing more can be paid for it.`,
    };
  }
  // Canceling an order cancels its collections too: the order's word comes first.
  if (order.canceled) {
    return {
      code: "order_canceled",
      message: `Order #${order.displayId ?? order.id} is canceled; nothing can be paid for it.`,
    };
  }
  if (collection.status === "canceled") {
    return {
      code: "collection_canceled",
      message:
        "This payment collection was canceled in Medusa (an order change replaced it); nothing can be paid for it. Send the customer the order's current payment link.",
    };
  }
  if (order.pendingCents !== null && order.pendingCents <= 0) {
    return {
      code: "nothing_owed",
      message: `Order #${order.displayId ?? order.id} owes nothing now (Medusa's pending difference is zero or less); no code is made for its collection.`,
    };
  }
  if (!order.email) {
    return {
      code: "order_email_missing",
      message:
        "The order has no e-mail; set the customer's e-mail on the order before asking for a Pix code or boleto.",
    };
  }
  return null;
}
