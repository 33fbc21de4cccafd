import type { MedusaContainer } from "@medusajs/framework/types";
import { ContainerRegistrationKeys } from "@medusajs/framework/utils";
import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import { toSignedCents } from "../platform/money";
import { ORDER_ID_OF_COLLECTION } from "./collection-snapshot";

/*
 * Whether Medusa's order is paid, as the shopper is told: "está pago" is said from here only.
 * Medusa's own word for it is the order's summary, which nets every capture and refund of all
 * the order's collections (an edit's difference included) against what the order costs now.
 */

/** What a shopper is told of an order's payment. */
export type OrderPayment = "paid" | "awaiting" | "canceled";

/**
 * The order a shopper's page names: its number, whether it is paid, and with `awaiting`, what
 * Medusa's order still asks (`owes`, integer cents, its summary's pending difference) when the
 * summary says. The store view drops `owes` while a paid code's own money is on its way to the
 * order (storefront/store-session.ts): that amount is being paid, not owed.
 */
export interface ShopperOrderState {
  display_id: number;
  payment: OrderPayment;
  owes?: number;
}

type Raw = { value?: string } | null | undefined;

/** The fields of Medusa's order `orderPaymentOf` reads. */
export interface OrderPaymentFacts {
  status: string;
  canceled_at?: string | Date | null;
  summary?: { raw_pending_difference?: Raw; pending_difference?: unknown } | null;
}

/**
 * `paid` when Medusa's order has nothing pending (its summary's pending difference is zero or
 * less), `canceled` when Medusa canceled it, `awaiting` otherwise, and when the summary cannot
 * say: the shopper is never told "pago" on a doubt.
 */
export function orderPaymentOf(order: OrderPaymentFacts): OrderPayment {
  if (order.status === "canceled" || order.canceled_at) return "canceled";
  const pending = pendingCentsOf(order);
  return pending !== undefined && pending <= 0 ? "paid" : "awaiting";
}

/** Medusa's order summary's pending difference in integer cents; undefined when it cannot say. */
function pendingCentsOf(order: OrderPaymentFacts): number | undefined {
  const raw =
    order.summary?.raw_pending_difference?.value ??
    (order.summary?.pending_difference == null
      ? undefined
      : String(order.summary.pending_difference));
  return raw === undefined ? undefined : toSignedCents(raw);
}

/** What the shopper is told of `order`: its number, its payment, and what it still owes. */
export function shopperOrderStateOf(
  order: OrderPaymentFacts & { display_id: number },
): ShopperOrderState {
  const payment = orderPaymentOf(order);
  const pending = pendingCentsOf(order);
  // `awaiting` with a pending difference it can read is more than 0 (0 or less is `paid`).
  return payment === "awaiting" && pending !== undefined
    ? { display_id: order.display_id, payment, owes: pending }
    : { display_id: order.display_id, payment };
}

const ORDER_FIELDS = ["id", "display_id", "status", "canceled_at", "summary.*"];

type OrderRow = OrderPaymentFacts & { id: string; display_id?: number | null };

const stateOf = (order: OrderRow | undefined): ShopperOrderState | undefined =>
  order && order.display_id != null
    ? shopperOrderStateOf({ ...order, display_id: order.display_id })
    : undefined;

/** Order `orderId`'s number and payment; undefined when Medusa has no such order. */
export async function orderPaymentState(
  container: MedusaContainer,
  orderId: string,
): Promise<ShopperOrderState | undefined> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY);
  const { data } = await query.graph({
    entity: "order",
    fields: ORDER_FIELDS,
    filters: { id: orderId },
  });
  return stateOf(data[0] as OrderRow | undefined);
}

/**
 * The order a payment collection pays for (Medusa links a cart's collection to the order its
 * cart became, and an order's own collection to that order), with whether it is paid; undefined
 * while the cart is no order yet. The order is found in one statement on Medusa's link tables
 * (`ORDER_ID_OF_COLLECTION`, as the money path's snapshot finds it): every paid code's first
 * event asks this before its cart is an order, and three Query reads there stood between the
 * ledger's commit and the shopper's "paid" (bench/live-status.mjs). Its payment is Medusa's own
 * summary, read through Query.
 */
export async function orderPaymentOfCollection(
  container: MedusaContainer,
  paymentCollectionId: string,
): Promise<ShopperOrderState | undefined> {
  const db = container.resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION);
  const { rows } = await db.raw<{ rows: { order_id: string | null }[] }>(
    `select ${ORDER_ID_OF_COLLECTION} as order_id`,
    { pc: paymentCollectionId },
  );
  const orderId = rows[0]?.order_id;
  return orderId ? orderPaymentState(container, orderId) : undefined;
}
