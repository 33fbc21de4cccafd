import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import type { MedusaContainer } from "@medusajs/framework/types";
import { ContainerRegistrationKeys } from "@medusajs/framework/utils";
import { sessionCentsOf, toSignedCents } from "../platform/money";
import type { ChargePurpose } from "../records/charges";

/*
 * Money a customer owes an order after the sale: the payment collection Medusa puts on the
 * order for what an order edit, exchange, claim or return leaves owed
 * (`createOrUpdateOrderPaymentCollectionWorkflow`), or that the merchant makes for a converted
 * draft order (`POST /admin/payment-collections`). There is no cart: the buyer, the amount and
 * the sales channel are the order's. Read with Query for the routes and middlewares, and in one
 * raw statement for what a charge records when it is made (`collectionPurpose`), where the
 * provider's container has no Query.
 */

/**
 * What a payment collection is for, as the plugin labels its charges: a storefront's cart
 * (`cart`), an order's own total nothing had paid yet (`order`: a converted draft order, or a
 * collection the merchant made), or the difference a confirmed change of a paid order left
 * owed (`order_edit`, `exchange`, `claim`, `return`).
 */
export type CollectionPurpose = ChargePurpose;

/** Every purpose, for the admin's words and the books. */
export const COLLECTION_PURPOSES: readonly CollectionPurpose[] = [
  "cart",
  "order",
  "order_edit",
  "exchange",
  "claim",
  "return",
];

/** Medusa's order change types that leave a difference owed, by purpose. */
const CHANGE_PURPOSE: Record<string, CollectionPurpose> = {
  edit: "order_edit",
  exchange: "exchange",
  claim: "claim",
  return_request: "return",
  return_receive: "return",
};

/** What `purposeOf` reads of a collection. */
export interface PurposeFacts {
  /** The collection pays for a cart (Medusa's checkout). */
  ofCart: boolean;
  /** The collection is an order's own. */
  ofOrder: boolean;
  /** Another collection of the order holds captured money: this one is a difference. */
  paidBefore: boolean;
  /** The order's latest confirmed change that can leave money owed (`edit`, `exchange`...). */
  latestChange: string | null;
  /**
   * The exchange or claim that change belongs to, if any: receiving an exchange's or a claim's
   * returned item is a `return_receive` change of that exchange's or claim's return, and the
   * difference it leaves is still the exchange's or the claim's.
   */
  latestChangeOf?: "exchange" | "claim" | null;
}

/**
 * What a collection is for. An order nothing had paid yet is paid as a whole (`order`), even
 * when the merchant edited it before (a draft's edits are `edit` changes too); an order paid
 * before owes the difference its latest confirmed change left.
 */
export function purposeOf(facts: PurposeFacts): CollectionPurpose | null {
  if (facts.ofCart) return "cart";
  if (!facts.ofOrder) return null;
  if (!facts.paidBefore) return "order";
  const purpose = (facts.latestChange && CHANGE_PURPOSE[facts.latestChange]) || "order";
  return purpose === "return" && facts.latestChangeOf ? facts.latestChangeOf : purpose;
}

interface PurposeRow {
  of_cart: boolean;
  order_id: string | null;
  paid_before: boolean;
  latest_change: string | null;
  latest_change_of: "exchange" | "claim" | null;
}

/**
 * What collection `paymentCollectionId` is for (`purposeOf`), read in one statement: its links,
 * the order's other collections' captures, and the order's latest confirmed change. Raw, as
 * `collection-snapshot` reads Medusa's tables: the provider records a charge from the payment
 * module's container, where Query cannot reach carts and orders. Null for a collection nothing
 * owns.
 */
export async function collectionPurpose(
  db: Knex,
  paymentCollectionId: string,
): Promise<CollectionPurpose | null> {
  const result = await db.raw<{ rows: PurposeRow[] }>(
    `select
       exists (select 1 from cart_payment_collection cpc
                where cpc.payment_collection_id = :pc and cpc.deleted_at is null) as of_cart,
       opc.order_id,
       coalesce((select true
          from payment_collection other
         where other.deleted_at is null and other.id <> :pc and other.captured_amount > 0
           and other.id in (
             select o.payment_collection_id from order_payment_collection o
              where o.order_id = opc.order_id and o.deleted_at is null
             union
             select cpc.payment_collection_id from order_cart oc
               join cart_payment_collection cpc
                 on cpc.cart_id = oc.cart_id and cpc.deleted_at is null
              where oc.order_id = opc.order_id and oc.deleted_at is null)
         limit 1), false) as paid_before,
       latest.change_type as latest_change,
       latest.change_of as latest_change_of
     from (select 1) one
     left join order_payment_collection opc
       on opc.payment_collection_id = :pc and opc.deleted_at is null
     left join lateral (
       select ch.change_type,
              case when coalesce(ch.exchange_id, r.exchange_id) is not null then 'exchange'
                   when coalesce(ch.claim_id, r.claim_id) is not null then 'claim' end as change_of
         from order_change ch
         left join "return" r on r.id = ch.return_id
        where ch.order_id = opc.order_id and ch.deleted_at is null and ch.status = 'confirmed'
          and ch.change_type in ('edit', 'exchange', 'claim', 'return_request', 'return_receive')
        order by ch.confirmed_at desc nulls last limit 1) latest on true`,
    { pc: paymentCollectionId },
  );
  const row = result.rows[0];
  if (!row) return null;
  return purposeOf({
    ofCart: row.of_cart,
    ofOrder: row.order_id !== null,
    paidBefore: row.paid_before,
    latestChange: row.latest_change,
    latestChangeOf: row.latest_change_of,
  });
}

/** An address as Medusa stores it, the fields a payer or a message uses. */
export interface OrderAddress {
  first_name?: string | null;
  last_name?: string | null;
  address_1?: string | null;
  address_2?: string | null;
  city?: string | null;
  province?: string | null;
  postal_code?: string | null;
  country_code?: string | null;
  phone?: string | null;
}

/** The order a collection is the order's own collection of, as the plugin reads it. */
export interface CollectionOrder {
  id: string;
  displayId: number | null;
  email: string | null;
  status: string;
  canceled: boolean;
  salesChannelId: string | null;
  regionId: string | null;
  currencyCode: string;
  /** What the order still owes, in cents (Medusa's pending difference; negative: owed back). */
  pendingCents: number | null;
  customer: { firstName: string | null; lastName: string | null; phone: string | null } | null;
  billingAddress: OrderAddress | null;
  shippingAddress: OrderAddress | null;
}

/** A payment collection with its owner: a cart (`cartId`) or an order (`order`). */
export interface OwnedCollection {
  id: string;
  /** What Medusa asks, in cents (rounded half-up, as charges are). */
  amountCents: number;
  currencyCode: string;
  /** Medusa's status: `not_paid`, `awaiting`, `authorized`, `completed`, `canceled`... */
  status: string;
  cartId: string | null;
  /** The order the collection is the order's own collection of (not a cart's order). */
  order: CollectionOrder | null;
  /**
   * The order a cart's collection became (order-first, or pay-first once completed): Medusa
   * changes its unpaid collection in place when the order is edited, and "Copy payment link"
   * names it too.
   */
  cartOrder: CollectionOrder | null;
}

const ADDRESS = [
  "first_name",
  "last_name",
  "address_1",
  "address_2",
  "city",
  "province",
  "postal_code",
  "country_code",
  "phone",
];

type Raw = { value?: string } | null | undefined;

interface CollectionGraph {
  id: string;
  amount: unknown;
  raw_amount?: Raw;
  currency_code: string;
  status: string;
  cart?: { id: string } | null;
  order?: {
    id: string;
    display_id?: number | null;
    email?: string | null;
    status: string;
    canceled_at?: string | null;
    sales_channel_id?: string | null;
    region_id?: string | null;
    currency_code: string;
    summary?: { raw_pending_difference?: Raw; pending_difference?: unknown } | null;
    customer?: {
      first_name?: string | null;
      last_name?: string | null;
      phone?: string | null;
    } | null;
    billing_address?: OrderAddress | null;
    shipping_address?: OrderAddress | null;
  } | null;
}

const centsOf = (raw: Raw, plain: unknown): number | null => {
  const value = raw?.value ?? (plain === null || plain === undefined ? undefined : String(plain));
  return value === undefined ? null : (toSignedCents(value) ?? null);
};

/**
 * Payment collection `paymentCollectionId` and what owns it, read with Query; undefined when
 * Medusa holds no such collection. `order` is set only for an order's own collection; a cart's
 * collection whose order was placed has it as `cartOrder`.
 */
export async function ownedCollection(
  container: MedusaContainer,
  paymentCollectionId: string,
): Promise<OwnedCollection | undefined> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY);
  const { data } = await query.graph({
    entity: "payment_collection",
    fields: [
      "id",
      "amount",
      "raw_amount",
      "currency_code",
      "status",
      "cart.id",
      "order.id",
      "order.display_id",
      "order.email",
      "order.status",
      "order.canceled_at",
      "order.sales_channel_id",
      "order.region_id",
      "order.currency_code",
      "order.summary.*",
      "order.customer.first_name",
      "order.customer.last_name",
      "order.customer.phone",
      ...ADDRESS.map((field) => `order.billing_address.${field}`),
      ...ADDRESS.map((field) => `order.shipping_address.${field}`),
    ],
    filters: { id: paymentCollectionId },
  });
  const found = data[0] as CollectionGraph | undefined;
  if (!found) return undefined;
  const cartId = found.cart?.id ?? null;
  const orderOf = (order: NonNullable<CollectionGraph["order"]>): CollectionOrder => ({
    id: order.id,
    displayId: order.display_id ?? null,
    email: order.email?.trim() || null,
    status: order.status,
    canceled: order.status === "canceled" || Boolean(order.canceled_at),
    salesChannelId: order.sales_channel_id ?? null,
    regionId: order.region_id ?? null,
    currencyCode: order.currency_code,
    pendingCents: centsOf(order.summary?.raw_pending_difference, order.summary?.pending_difference),
    customer: order.customer
      ? {
          firstName: order.customer.first_name ?? null,
          lastName: order.customer.last_name ?? null,
          phone: order.customer.phone ?? null,
        }
      : null,
    billingAddress: order.billing_address ?? null,
    shippingAddress: order.shipping_address ?? null,
  });
  return {
    id: found.id,
    // As a session of it asks (sessionCentsOf): the page shows what the code will charge.
    amountCents: sessionCentsOf(found.raw_amount?.value ?? String(found.amount)) ?? 0,
    currencyCode: found.currency_code,
    status: found.status,
    cartId,
    order: !cartId && found.order ? orderOf(found.order) : null,
    cartOrder: cartId && found.order ? orderOf(found.order) : null,
  };
}

/**
 * A publishable key of the store's that serves `salesChannelId` (not revoked), for a page the
 * plugin serves itself that calls Medusa's store routes: publishable keys are public, and the
 * key must cover the order's sales channel for the store routes to serve its session.
 * Undefined when the store has none: the page then says what the merchant must do.
 */
export async function publishableKeyFor(
  container: MedusaContainer,
  salesChannelId: string | null,
): Promise<string | undefined> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY);
  const { data } = await query.graph({
    entity: "api_key",
    fields: ["id", "token", "revoked_at", "created_at", "sales_channels.id"],
    filters: { type: "publishable" },
  });
  const usable = (
    data as {
      token: string;
      revoked_at?: string | null;
      created_at?: string;
      sales_channels?: { id: string }[] | null;
    }[]
  )
    .filter((key) => !key.revoked_at || new Date(key.revoked_at) > new Date())
    .filter((key) =>
      salesChannelId
        ? (key.sales_channels ?? []).some((channel) => channel.id === salesChannelId)
        : true,
    )
    // The oldest first: the store's own storefront key, not one made for a test yesterday.
    .sort((a, b) => String(a.created_at).localeCompare(String(b.created_at)));
  return usable[0]?.token;
}

/** The store's name, as Medusa's settings hold it (the first store); null when it has none. */
export async function storeName(container: MedusaContainer): Promise<string | null> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY);
  const { data } = await query.graph({ entity: "store", fields: ["id", "name", "created_at"] });
  const stores = (data as { name?: string | null; created_at?: string }[]).sort((a, b) =>
    String(a.created_at).localeCompare(String(b.created_at)),
  );
  return stores[0]?.name?.trim() || null;
}

/** What the admin's order widget reads of an order's money (operations/order-outstanding.ts). */
export interface OrderMoney {
  id: string;
  displayId: number | null;
  email: string | null;
  currencyCode: string;
  canceled: boolean;
  /** What the order still owes, in cents (Medusa's pending difference; negative: owed back). */
  pendingCents: number;
  /** The order's phone: its billing address's, else its shipping address's, else the customer's. */
  phone: string | null;
  /** The order's payment collections, each with whether it is its cart's. */
  collections: { id: string; status: string; amountCents: number; ofCart: boolean }[];
}

/** Order `orderId`'s money as the admin's widget reads it; undefined when there is none. */
export async function orderMoney(
  container: MedusaContainer,
  orderId: string,
): Promise<OrderMoney | undefined> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY);
  const { data } = await query.graph({
    entity: "order",
    fields: [
      "id",
      "display_id",
      "email",
      "status",
      "canceled_at",
      "currency_code",
      "summary.*",
      "customer.phone",
      "billing_address.phone",
      "shipping_address.phone",
      "payment_collections.id",
      "payment_collections.status",
      "payment_collections.amount",
      "payment_collections.raw_amount",
      "cart.payment_collection.id",
    ],
    filters: { id: orderId },
  });
  const order = data[0] as
    | {
        id: string;
        display_id?: number | null;
        email?: string | null;
        status: string;
        canceled_at?: string | null;
        currency_code: string;
        summary?: { raw_pending_difference?: Raw; pending_difference?: unknown } | null;
        customer?: { phone?: string | null } | null;
        billing_address?: { phone?: string | null } | null;
        shipping_address?: { phone?: string | null } | null;
        payment_collections?:
          { id: string; status: string; amount: unknown; raw_amount?: Raw }[] | null;
        cart?: { payment_collection?: { id: string } | null } | null;
      }
    | undefined;
  if (!order) return undefined;
  const cartCollection = order.cart?.payment_collection?.id ?? null;
  return {
    id: order.id,
    displayId: order.display_id ?? null,
    email: order.email?.trim() || null,
    currencyCode: order.currency_code,
    canceled: order.status === "canceled" || Boolean(order.canceled_at),
    pendingCents:
      centsOf(order.summary?.raw_pending_difference, order.summary?.pending_difference) ?? 0,
    phone:
      order.billing_address?.phone?.trim() ||
      order.shipping_address?.phone?.trim() ||
      order.customer?.phone?.trim() ||
      null,
    collections: (order.payment_collections ?? []).map((collection) => ({
      id: collection.id,
      status: collection.status,
      amountCents: sessionCentsOf(collection.raw_amount?.value ?? String(collection.amount)) ?? 0,
      ofCart: collection.id === cartCollection,
    })),
  };
}
