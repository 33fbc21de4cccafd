import type { BigNumberInput, MedusaContainer } from "@medusajs/framework/types";
import { ContainerRegistrationKeys, MathBN } from "@medusajs/framework/utils";
import { toSignedCents } from "../platform/money";
import type { OrderAddress } from "./order-collections";
import {
  currentAdjustments,
  isPixAdjustment,
  pixDiscountCentsOfLines,
  type AdjustedLine,
} from "./pix-discount";

/*
 * What an order holds, as a message to its shopper lists it: the items, where and how it is
 * delivered, the Pix discount and the total, read from Medusa's order with Query, in integer
 * cents. A list a person reads must add up to the total it ends in, to the cent: when Medusa's
 * order does not (a credit line, a case this reading does not know), there is no list, and
 * the message says the total alone.
 */

type Raw = { value?: string } | null | undefined;

/** One item of the order, as the shopper ordered it. */
export interface OrderItemLine {
  /** The product's name (the line's title when the product is gone). */
  name: string;
  /** The variant's name (`Azul / M`), when the product has more than one. */
  variant: string | null;
  quantity: number;
  unit_price_cents: number;
  /** `unit_price_cents` × `quantity`, before discounts. */
  total_cents: number;
}

/** A delivery option the shopper chose, and what it costs. */
export interface OrderShippingLine {
  /** The option's name, as the storefront showed it (`PAC`, `Sedex`). */
  option: string;
  amount_cents: number;
}

/** Where the order is delivered (the order's shipping address). */
export interface DeliveryAddress {
  name: string | null;
  address_1: string | null;
  address_2: string | null;
  city: string | null;
  /** The state (`SP`). */
  province: string | null;
  postal_code: string | null;
  country_code: string | null;
}

/**
 * An order's contents in cents. They add up:
 * Σ items.total_cents + Σ shipping.amount_cents − pix_discount_cents − other_discounts_cents
 * + taxes_cents = total_cents.
 */
export interface OrderDetails {
  items: OrderItemLine[];
  shipping: OrderShippingLine[];
  shipping_address: DeliveryAddress | null;
  /** The Pix discount of the order's current version (0 without it). */
  pix_discount_cents: number;
  /** Every other promotion's discount (a coupon), 0 without one. */
  other_discounts_cents: number;
  /** Taxes added on top of the prices; 0 when there are none or prices include them. */
  taxes_cents: number;
  /** Medusa's order total: what the order costs. */
  total_cents: number;
}

interface PricedLine extends AdjustedLine {
  is_tax_inclusive?: boolean | null;
}

interface ItemRow extends PricedLine {
  id?: string;
  created_at?: string | Date | null;
  title?: string | null;
  product_title?: string | null;
  variant_title?: string | null;
  quantity?: unknown;
  unit_price?: unknown;
  raw_unit_price?: Raw;
}

interface ShippingRow extends PricedLine {
  name?: string | null;
  amount?: unknown;
  raw_amount?: Raw;
}

/** The fields of Medusa's order `orderDetailsOf` reads. */
export interface OrderDetailsRow {
  id: string;
  version?: number | null;
  total?: unknown;
  raw_total?: Raw;
  tax_total?: unknown;
  raw_tax_total?: Raw;
  items?: ItemRow[] | null;
  shipping_methods?: ShippingRow[] | null;
  shipping_address?: OrderAddress | null;
}

const cents = (raw: Raw, plain: unknown): number | undefined => {
  const value = raw?.value ?? (plain === null || plain === undefined ? undefined : String(plain));
  return value === undefined ? undefined : toSignedCents(value);
};

const text = (value: string | null | undefined): string | null => value?.trim() || null;

/** Medusa names a product's only variant `Default variant`: not worth a line of its own. */
const variantName = (title: string | null | undefined): string | null => {
  const name = text(title);
  return name && !/^default( variant)?$/i.test(name) ? name : null;
};

function addressOf(row: OrderAddress | null | undefined): DeliveryAddress | null {
  if (!row || !text(row.address_1)) return null;
  return {
    name: [row.first_name, row.last_name].map(text).filter(Boolean).join(" ") || null,
    address_1: text(row.address_1),
    address_2: text(row.address_2),
    city: text(row.city),
    province: text(row.province),
    postal_code: text(row.postal_code),
    country_code: text(row.country_code)?.toUpperCase() ?? null,
  };
}

/**
 * An order's contents in cents, from Medusa's order read with its totals; undefined when a
 * figure is missing or the lines do not add up to Medusa's total (the message then says the
 * total alone). Pure.
 */
export function orderDetailsOf(order: OrderDetailsRow): OrderDetails | undefined {
  const total = cents(order.raw_total, order.total);
  if (total === undefined) return undefined;
  const items: OrderItemLine[] = [];
  // In the order the shopper added them: Query hands them back in no set order.
  const addedAt = (item: ItemRow) => new Date(item.created_at ?? 0).getTime() || 0;
  const inOrder = [...(order.items ?? [])].sort(
    (a, b) => addedAt(a) - addedAt(b) || (a.id ?? "").localeCompare(b.id ?? ""),
  );
  for (const item of inOrder) {
    const unit = cents(item.raw_unit_price, item.unit_price);
    const quantity = Number(item.quantity);
    if (unit === undefined || !Number.isSafeInteger(quantity) || quantity <= 0) return undefined;
    items.push({
      name: text(item.product_title) ?? text(item.title) ?? "Item",
      variant: variantName(item.variant_title),
      quantity,
      unit_price_cents: unit,
      total_cents: unit * quantity,
    });
  }
  const shipping: OrderShippingLine[] = [];
  for (const method of order.shipping_methods ?? []) {
    const amount = cents(method.raw_amount, method.amount);
    if (amount === undefined) return undefined;
    shipping.push({ option: text(method.name) ?? "Entrega", amount_cents: amount });
  }
  const lines: PricedLine[] = [...(order.items ?? []), ...(order.shipping_methods ?? [])];
  const pix = pixDiscountCentsOfLines(lines, order.version);
  const others = lines
    .flatMap((line) => currentAdjustments(line, order.version))
    .filter((adjustment) => !isPixAdjustment(adjustment))
    .reduce<BigNumberInput>(
      (sum, adjustment) => MathBN.add(sum, adjustment.amount as BigNumberInput),
      MathBN.convert(0),
    );
  const otherDiscounts = cents(undefined, MathBN.convert(others).toString());
  // Prices that include their taxes already carry them; taxes on top are their own line.
  const taxesOnTop = lines.some((line) => line.is_tax_inclusive)
    ? 0
    : cents(order.raw_tax_total, order.tax_total ?? 0);
  if (otherDiscounts === undefined || taxesOnTop === undefined) return undefined;
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  const listed =
    sum(items.map((item) => item.total_cents)) +
    sum(shipping.map((line) => line.amount_cents)) -
    pix -
    otherDiscounts +
    taxesOnTop;
  if (listed !== total) return undefined;
  return {
    items,
    shipping,
    shipping_address: addressOf(order.shipping_address),
    pix_discount_cents: pix,
    other_discounts_cents: otherDiscounts,
    taxes_cents: taxesOnTop,
    total_cents: total,
  };
}

const ADDRESS_FIELDS = [
  "first_name",
  "last_name",
  "address_1",
  "address_2",
  "city",
  "province",
  "postal_code",
  "country_code",
];

/** What `readOrderDetails` asks Query for (a total field makes Medusa compute the totals). */
const ORDER_DETAIL_FIELDS = [
  "id",
  "version",
  "total",
  "tax_total",
  "items.*",
  "items.detail.version",
  "items.adjustments.*",
  "shipping_methods.*",
  "shipping_methods.detail.version",
  "shipping_methods.adjustments.*",
  ...ADDRESS_FIELDS.map((field) => `shipping_address.${field}`),
];

/**
 * Order `orderId`'s contents for a message to its shopper; undefined when Medusa has no such
 * order or its lines do not add up to its total.
 */
export async function readOrderDetails(
  container: MedusaContainer,
  orderId: string,
): Promise<OrderDetails | undefined> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY);
  const { data } = await query.graph({
    entity: "order",
    fields: ORDER_DETAIL_FIELDS,
    filters: { id: orderId },
  });
  const order = data[0] as OrderDetailsRow | undefined;
  return order ? orderDetailsOf(order) : undefined;
}
