import { createOrderPaymentCollectionWorkflow } from "@medusajs/medusa/core-flows";
import type { ConfigModule, MedusaContainer } from "@medusajs/framework/types";
import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import { PixCheckoutError } from "../platform/errors";
import { fromCents } from "../platform/money";
import { withCollectionLock } from "../records/collection-locks";
import {
  collectionPurpose,
  orderMoney,
  type CollectionPurpose,
  type OrderMoney,
} from "../medusa/order-collections";
import { collectionPageUrl } from "../storefront/collection-link";
import { readMedusaSide } from "../medusa/collection-snapshot";
import { recordsOf } from "../records/records";
import { collectionStanding } from "../settlement/snapshot";
import { sessionMustStay } from "../settlement/paid-collection-guard";

/*
 * What an order still owes after the sale, for the admin's order widget: the collection an
 * order edit, exchange, claim or return left unpaid (with the link Medusa's "Copy payment link"
 * copies), or, for an order with none (a converted draft order), the amount "Cobrar por Pix"
 * would ask. The amount is always Medusa's: a collection's, or the order's pending difference.
 */

/** Collection statuses that can still be paid (Medusa's "Copy payment link" shows `not_paid`). */
const OPEN = new Set(["not_paid", "awaiting"]);
/** Statuses of a collection that waits on a payment already begun: nothing new is asked. */
const BUSY = new Set(["not_paid", "awaiting", "authorized", "partially_authorized"]);

/** What the widget shows about an order's outstanding amount. */
export interface Outstanding {
  /** The unpaid order collection; null when there is none and "Cobrar por Pix" makes one. */
  payment_collection_id: string | null;
  /** Integer cents: the collection's amount, or the order's pending difference. */
  amount: number;
  currency: string;
  purpose: CollectionPurpose;
  display_id: number | null;
  /** The link Medusa's button copies (`admin.storefrontUrl`), when the store set one. */
  link: string | null;
  /** The plugin's own page for it, from the backend's root (the widget's fallback). */
  page_path: string | null;
  /** The order's phone in international digits (`5511987654321`), for `wa.me`. */
  whatsapp: string | null;
  email: string | null;
}

/** A Brazilian phone as `wa.me` takes it: country code and digits; null when it is not one. */
export function whatsappNumber(phone: string | null): string | null {
  const digits = (phone ?? "").replace(/\D/g, "");
  if (digits.length === 10 || digits.length === 11) return `55${digits}`;
  if ((digits.length === 12 || digits.length === 13) && digits.startsWith("55")) return digits;
  return null;
}

/**
 * What order `orderId` owes that a Pix link can collect, or null: nothing owed (beyond what
 * the MED returned, which no one collects anew), the order canceled, not in reais, or its money already on its way through its cart's collection (an
 * order-first boleto waiting to be paid), which its own checkout collects. A cart's collection
 * with no code on its way is collected by its link: one its code paid only part of (the order
 * was edited up under the code, and Medusa raised that collection in place) for the rest, and
 * one whose code could never be made (the merchant kept the order) for all of it.
 */
export async function orderOutstanding(
  container: MedusaContainer,
  db: Knex,
  config: ConfigModule,
  orderId: string,
): Promise<Outstanding | null> {
  const order = await orderMoney(container, orderId);
  if (!order || order.canceled || order.currencyCode.toLowerCase() !== "brl") return null;
  if (order.pendingCents <= 0) return null;
  // What the MED returned is a refund on Medusa's order, which then owes it again; the shopper's
  // bank took it back from a dispute, so it is never asked of the shopper anew.
  const medReturned = await recordsOf(db).ledger.medReturnedInMedusa(
    order.collections.map((c) => c.id),
  );
  const owedCents = order.pendingCents - medReturned;
  if (owedCents <= 0) return null;
  const open =
    order.collections.find((c) => !c.ofCart && OPEN.has(c.status)) ??
    (await cartCollectionToCollect(db, config, order));
  if (open) {
    const pagePath = `/pix-checkout/payment-collection/${encodeURIComponent(open.id)}?order_id=${encodeURIComponent(order.id)}`;
    return {
      ...common(order),
      payment_collection_id: open.id,
      amount: open.amountCents,
      purpose: (await collectionPurpose(db, open.id)) ?? "order",
      link: collectionPageUrl(config, open.id, order.id),
      page_path: pagePath,
    };
  }
  if (order.collections.some((c) => BUSY.has(c.status))) return null;
  return {
    ...common(order),
    payment_collection_id: null,
    amount: owedCents,
    purpose: "order",
    link: null,
    page_path: null,
  };
}

/**
 * The order's cart collection, for what it still asks, when no code of it is on its way (no
 * charge pending or holding money for the capture) and nothing else paid it.
 */
async function cartCollectionToCollect(
  db: Knex,
  config: ConfigModule,
  order: OrderMoney,
): Promise<OrderMoney["collections"][number] | undefined> {
  const cart = order.collections.find((c) => c.ofCart && BUSY.has(c.status));
  if (!cart) return undefined;
  const records = recordsOf(db);
  const standing = await collectionStanding(
    records,
    config,
    cart.id,
    await readMedusaSide(db, cart.id),
  );
  if (standing.paid || standing.heldForMerchant || !standing.remainingCents) return undefined;
  for (const row of await records.charges.ofCollection(cart.id)) {
    if (row.status === "pending" && !row.superseded_at) return undefined;
    // Paid money Medusa has not captured yet (settlement retries a refused capture): its
    // link would be refused `payment_capture_pending`, so none is offered until it lands.
    if (await sessionMustStay(db, row)) return undefined;
  }
  return { ...cart, amountCents: standing.remainingCents };
}

function common(order: OrderMoney) {
  return {
    currency: order.currencyCode.toUpperCase(),
    display_id: order.displayId,
    whatsapp: whatsappNumber(order.phone),
    email: order.email,
  };
}

/**
 * "Cobrar por Pix": gives order `orderId`, which owes money and has no collection to pay it
 * (a converted draft order), one for what it owes, through Medusa's own workflow (as
 * `POST /admin/payment-collections` does), the amount read from Medusa, never sent by the
 * admin. One at a time per order, on every instance: a double click makes one collection.
 * Refused with 409 `collection_exists` when the order has one to pay already, `nothing_owed`
 * when it owes nothing.
 */
export async function chargeOrderByPix(
  container: MedusaContainer,
  db: Knex,
  config: ConfigModule,
  orderId: string,
): Promise<Outstanding> {
  return withCollectionLock(db, `order-charge:${orderId}`, async () => {
    const order = await orderMoney(container, orderId);
    if (!order) throw new PixCheckoutError("order_not_found", `No order ${orderId} exists.`);
    const outstanding = await orderOutstanding(container, db, config, orderId);
    if (outstanding?.payment_collection_id) {
      throw new PixCheckoutError(
        "collection_exists",
        `Order #${order.displayId ?? order.id} already has a payment collection to pay (${outstanding.payment_collection_id}); send its link.`,
      );
    }
    if (!outstanding) {
      throw new PixCheckoutError(
        "nothing_owed",
        `Order #${order.displayId ?? order.id} owes nothing a Pix link can collect (paid, canceled, not in reais, or its checkout's payment is still open).`,
      );
    }
    await createOrderPaymentCollectionWorkflow(container).run({
      // The workflow takes a number of reais, as Medusa's own route hands it from JSON: made
      // from the cents' decimal text, never by a float division.
      input: { order_id: orderId, amount: Number(fromCents(outstanding.amount).toString()) },
    });
    const made = await orderOutstanding(container, db, config, orderId);
    if (!made?.payment_collection_id) {
      throw new PixCheckoutError(
        "store_unavailable",
        "Medusa did not show the new payment collection; reload the order.",
      );
    }
    return made;
  });
}
