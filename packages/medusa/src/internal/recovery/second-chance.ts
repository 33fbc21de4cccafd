import { repriceCart } from "../medusa/cart-reprice";
import { readMedusaSide } from "../medusa/collection-snapshot";
import { cartOfCollection } from "../medusa/collection-links";
import type { SettleContext } from "../settlement/context";
import { collectionPaidOf } from "../settlement/snapshot";
import { notifyOptions } from "../storefront/notify-options";
import { recoveryOptions } from "../checkout/recovery-options";

/**
 * What a reminder's new-code link finds, checked against the store's own records when the
 * shopper opens it (never against what the link says, beyond which message it was):
 * - `unknown`: no message of this store has that link;
 * - `paid`: the cart is paid (by this code, another, or another way): nothing to pay;
 * - `ordered`: the cart became an order another way, or its order was canceled;
 * - `changed`: the cart no longer costs what the code asked; `was` and `now` say how much;
 * - `ready`: same cart, same price: the payment page gives it a new code in one tap.
 */
export type SecondChance =
  | { kind: "unknown" }
  | { kind: "paid"; paymentPageUrl: string | null }
  | {
      kind: "ordered";
      /** Where to buy again (`checkoutUrl`), when the store gave one. */
      checkoutUrl: string | null;
    }
  | {
      kind: "changed";
      wasCents: number;
      nowCents: number | null;
      /** What the cart holds now, named (the storefront's cart shows their prices). */
      lines: { title: string; quantity: number }[];
      paymentPageUrl: string | null;
    }
  | {
      kind: "ready";
      method: "pix" | "boleto";
      paymentPageUrl: string | null;
      /** A boleto's shopper may pay with Pix instead, at the storefront's checkout. */
      checkoutUrl: string | null;
    };

/** Checks the cart behind a reminder's link can still be bought at the code's price. */
export async function secondChance(ctx: SettleContext, token: string): Promise<SecondChance> {
  const reminder = await ctx.records.reminders.byToken(token);
  if (!reminder) return { kind: "unknown" };
  const row = await ctx.records.charges.byChargeId(reminder.charge_id);
  if (!row?.payment_collection_id) return { kind: "unknown" };
  const pageOf = (sessionId: string) => {
    const template = notifyOptions(ctx.config).paymentPageUrl;
    return template ? template.replace("{session_id}", encodeURIComponent(sessionId)) : null;
  };
  const checkoutUrl = recoveryOptions(ctx.config).checkoutUrl ?? null;
  const siblings = await ctx.records.charges.ofCollection(row.payment_collection_id);
  const side = await readMedusaSide(ctx.db, row.payment_collection_id);
  const paid = collectionPaidOf(ctx.config, siblings, side);
  if (paid) {
    return {
      kind: "paid",
      paymentPageUrl: paid.by === "charge" ? pageOf(paid.row.session_id) : null,
    };
  }
  // A boleto's order-first order stays open through its grace period, then is canceled: a
  // canceled order cannot be paid again, the shopper orders anew.
  if (side.order && (side.order.status === "canceled" || side.order.canceledAt)) {
    return { kind: "ordered", checkoutUrl };
  }
  const cartId = side.cartId ?? (await cartOfCollection(ctx.container, row.payment_collection_id));
  if (!cartId) return { kind: "unknown" };
  // The newest code of the cart is the one the payment page renews.
  const newest = siblings.reduce((a, b) =>
    new Date(b.created_at) > new Date(a.created_at) ? b : a,
  );
  const paymentPageUrl = pageOf(newest.session_id);
  const pixInstead = row.method === "boleto" ? checkoutUrl : null;
  if (side.order) {
    return { kind: "ready", method: row.method, paymentPageUrl, checkoutUrl: pixInstead };
  }
  const cart = await repriceCart(ctx.container, cartId);
  if (cart.completed) return { kind: "ordered", checkoutUrl };
  if (cart.amountCents !== Number(row.amount_cents)) {
    return {
      kind: "changed",
      wasCents: Number(row.amount_cents),
      nowCents: cart.amountCents,
      lines: cart.lines,
      paymentPageUrl,
    };
  }
  return { kind: "ready", method: row.method, paymentPageUrl, checkoutUrl: pixInstead };
}

/**
 * Stops every reminder to the mailbox a message went to. True when the link was one of this
 * store's messages (the opt-out is recorded, or already was).
 */
export async function optOutByLink(ctx: SettleContext, token: string): Promise<boolean> {
  const reminder = await ctx.records.reminders.byToken(token);
  if (!reminder?.email_key) return false;
  await ctx.records.reminders.optOut(reminder.email_key);
  return true;
}
