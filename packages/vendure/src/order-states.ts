/**
 * What a Vendure order's state says of its payment, in one place: the plugin's verdict, the
 * shopper's page and the reminders read it alike.
 */

/** The order states in which nothing is left to pay. */
export const PAID_ORDER: ReadonlySet<string> = new Set([
  "PaymentSettled",
  "PartiallyShipped",
  "Shipped",
  "PartiallyDelivered",
  "Delivered",
]);

/**
 * The order states in which Vendure waits for a payment: before it is placed, placed with a
 * boleto (`PaymentAuthorized`) still to be paid, and modified to cost more.
 */
export const WAITING_FOR_PAYMENT: ReadonlySet<string> = new Set([
  "ArrangingPayment",
  "ArrangingAdditionalPayment",
  "PaymentAuthorized",
]);
