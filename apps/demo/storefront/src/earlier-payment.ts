// Money the store received for an older code of the order's cart and gives back, for the
// confirmation page. Apart from store-api.ts so a test can hand it a client of its own.
import type { Client } from "@medusajs/js-sdk";

/**
 * What the plugin's `GET /store/pix-checkout/orders/:order_id` says of money an older code of
 * the order's cart brought (an old Pix paid after the cart changed, or a Pix paid after another
 * provider paid the order): `amount` in integer cents, owed back or already returned, and
 * whether the order is paid.
 */
export interface EarlierPayment {
  amount: number;
  order_paid: boolean;
}

/**
 * The order's earlier payment, or null when there is none. Also null when the store cannot say
 * (network, 404, an answer of another shape): this line is extra, and must never cost the
 * shopper their confirmation page.
 */
export async function readEarlierPayment(
  client: Pick<Client, "fetch">,
  orderId: string,
): Promise<EarlierPayment | null> {
  try {
    const body = await client.fetch<{ earlier_payment?: unknown }>(
      `/store/pix-checkout/orders/${encodeURIComponent(orderId)}`,
    );
    return earlierPaymentOf(body?.earlier_payment);
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
