// What the plugin says of an order's payment, for the confirmation page: whether Medusa's order
// is paid, and money an older code of its cart brought, which the store gives back. Apart from
// store-api.ts so a test can hand it a client of its own.
import type { Client } from "@medusajs/js-sdk";

/**
 * Money an older code of the order's cart brought (an old Pix paid after the cart changed, or a
 * Pix paid after another provider paid the order): `amount` in integer cents, owed back or
 * already returned, and whether the order is paid.
 */
export interface EarlierPayment {
  amount: number;
  order_paid: boolean;
}

/** Money the store gives back: integer cents, and the plugin's reason word. */
export interface RefundOwed {
  amount: number;
  reason: string;
}

/**
 * Medusa's order as the plugin reads it: `paid` when nothing is left to pay, `canceled`, else
 * `awaiting`. The page may say "está pago" only for `paid`.
 */
export type OrderPaymentStatus = "paid" | "awaiting" | "canceled";

/** The plugin's `GET /store/pix-checkout/orders/:order_id`, as the page uses it. */
export interface OrderPayment {
  /** Null when the answer names no state this page knows: the page then claims none. */
  payment: OrderPaymentStatus | null;
  earlier_payment: EarlierPayment | null;
}

const statuses: readonly string[] = ["paid", "awaiting", "canceled"];

/**
 * The order's payment as the plugin tells it, or null when the store cannot say (network, 404,
 * an answer of another shape): the page then shows the order without claiming it paid, and
 * never loses its confirmation over it.
 */
export async function readOrderPayment(
  client: Pick<Client, "fetch">,
  orderId: string,
): Promise<OrderPayment | null> {
  try {
    const body = await client.fetch<{ payment?: unknown; earlier_payment?: unknown }>(
      `/store/pix-checkout/orders/${encodeURIComponent(orderId)}`,
    );
    if (typeof body !== "object" || body === null) return null;
    const payment =
      typeof body.payment === "string" && statuses.includes(body.payment)
        ? (body.payment as OrderPaymentStatus)
        : null;
    return { payment, earlier_payment: earlierPaymentOf(body.earlier_payment) };
  } catch {
    return null;
  }
}

/** `earlier_payment` as the route answers it, when it is one: a positive whole number of cents. */
function earlierPaymentOf(value: unknown): EarlierPayment | null {
  if (typeof value !== "object" || value === null) return null;
  const { amount, order_paid } = value as Record<string, unknown>;
  if (typeof amount !== "number" || !Number.isSafeInteger(amount) || amount <= 0) return null;
  if (typeof order_paid !== "boolean") return null;
  return { amount, order_paid };
}
