import type { DeliveryAddress, OrderDetails } from "../medusa/order-details";
import { formatCents } from "./message-money";

/*
 * An order's contents as a message's template receives them (`data.order`): every amount in
 * integer cents and, beside it, as `R$ 1.234,56`, for a provider whose templates cannot
 * format money. Documented in the README, "Notifications".
 */

/** One item of the order. */
export interface NotificationOrderItem {
  name: string;
  /** The variant (`Azul / M`), null for a product's only variant. */
  variant: string | null;
  quantity: number;
  unit_price_cents: number;
  unit_price: string;
  /** unit price × quantity, before discounts. */
  total_cents: number;
  total: string;
}

/** A delivery option and what it costs. */
export interface NotificationShippingLine {
  option: string;
  amount_cents: number;
  amount: string;
}

/** One amount, in cents and as `R$ 1.234,56`. */
export interface NotificationMoney {
  cents: number;
  formatted: string;
}

/**
 * What was ordered. The lines add up to the cent:
 * Σ items[].total_cents + Σ shipping[].amount_cents − pix_discount.cents
 * − other_discounts.cents + taxes.cents = total.cents.
 */
export interface NotificationOrderLines {
  /** Null when Medusa's order does not add up to its total (say `total` alone then). */
  lines: {
    items: NotificationOrderItem[];
    /** The delivery options chosen (usually one; none for an order with nothing to ship). */
    shipping: NotificationShippingLine[];
    /** Where it is delivered; null without a shipping address. */
    shipping_address: DeliveryAddress | null;
    /** The Pix discount (0 without it). */
    pix_discount: NotificationMoney;
    /** Any other promotion (a coupon), 0 without one. */
    other_discounts: NotificationMoney;
    /** Taxes on top of the prices, 0 when none or included in the prices. */
    taxes: NotificationMoney;
  } | null;
  /** Medusa's order total; null when the order could not be read. */
  total: NotificationMoney | null;
}

const money = (cents: number): NotificationMoney => ({ cents, formatted: formatCents(cents) });

/** The template's view of an order's contents (`lines` null when it does not add up). */
export function orderLinesData(details: OrderDetails | undefined): NotificationOrderLines {
  if (!details) return { lines: null, total: null };
  return {
    lines: {
      items: details.items.map((item) => ({
        name: item.name,
        variant: item.variant,
        quantity: item.quantity,
        unit_price_cents: item.unit_price_cents,
        unit_price: formatCents(item.unit_price_cents),
        total_cents: item.total_cents,
        total: formatCents(item.total_cents),
      })),
      shipping: details.shipping.map((line) => ({
        option: line.option,
        amount_cents: line.amount_cents,
        amount: formatCents(line.amount_cents),
      })),
      shipping_address: details.shipping_address,
      pix_discount: money(details.pix_discount_cents),
      other_discounts: money(details.other_discounts_cents),
      taxes: money(details.taxes_cents),
    },
    total: money(details.total_cents),
  };
}
