import { repriceCart } from "../medusa/cart-reprice";
import { mailboxOfCollection, storeName } from "../medusa/store-name";
import { readMedusaSide } from "../medusa/collection-snapshot";
import { cartOfCollection } from "../medusa/collection-links";
import type { ChargeRow } from "../records/charges";
import type { ReminderRow } from "../records/reminders";
import type { SettleContext } from "../settlement/context";
import { collectionPaidOf } from "../settlement/snapshot";
import { notifyOptions } from "../storefront/notify-options";
import { recoveryOptions } from "../checkout/recovery-options";
import { linkValidUntil } from "./links";
import { collectionPageUrl } from "../storefront/collection-link";
import { publishableKeyFor } from "../medusa/order-collections";

/**
 * What a reminder's new-code link finds, checked against the store's own records when the
 * shopper opens it (never against what the link says, beyond which message it was):
 * - `unknown`: no message of this store has that link;
 * - `expired`: the link's days are over (links.ts `linkValidUntil`);
 * - `paid`: the cart is paid (by this code, another, or another way): nothing to pay;
 * - `ordered`: the cart became an order another way, or its order was canceled;
 * - `open`: the cart can still be paid; only opening the link (a GET) looked, so nothing was
 *   priced again: the page's button (a POST) does that;
 * - `changed`: priced again, the cart no longer costs what the code asked; `was` and `now` say
 *   how much;
 * - `ready`: priced again, same cart, same price. With `newCode`, the cart's newest Pix code can
 *   no longer be paid and the page answering the button makes the new one at once (pages.ts,
 *   `newCodePage`), then opens the payment page on it; without, the payment page shows the
 *   cart's live code, or (a boleto, an order's own collection) makes one in a tap.
 */
export type SecondChance =
  | { kind: "unknown" }
  | {
      kind: "expired";
      /** Where to buy again (`checkoutUrl`), when the store gave one. */
      checkoutUrl: string | null;
    }
  | { kind: "paid"; paymentPageUrl: string | null }
  | {
      kind: "ordered";
      /** Where to buy again (`checkoutUrl`), when the store gave one. */
      checkoutUrl: string | null;
    }
  | {
      kind: "open";
      method: "pix" | "boleto";
      /** A boleto's shopper may pay with Pix instead, at the storefront's checkout. */
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
      newCode?: NewCodeRequest | null;
    };

/**
 * What the page answering the new-code button sends to Medusa's own store route
 * (`POST /store/payment-collections/:id/payment-sessions`, as the element's "Gerar novo código"
 * does, so every rule of that route applies), and where it then goes: `pageTemplate` is the
 * notification option `paymentPageUrl`, `{session_id}` replaced by the new session's id.
 */
export interface NewCodeRequest {
  collectionId: string;
  providerId: string;
  publishableKey: string;
  pageTemplate: string;
  /** The payment page of the old code, where the element says what happened if this fails. */
  fallbackUrl: string;
  /**
   * The session of the code this renews, sent as `data.renews`: the link's signed token reached
   * this page, so the new code is the shopper's as the element's renewal is (checkout/session-tie).
   */
  renews: string;
}

/** A message's link, found by its token, and whether its days are over at `now`. */
async function messageOf(
  ctx: SettleContext,
  token: string,
  link: "new_code" | "opt_out",
  now: Date,
): Promise<{ reminder: ReminderRow; row: ChargeRow; expired: boolean } | undefined> {
  const reminder = await ctx.records.reminders.byToken(token);
  if (!reminder) return undefined;
  const row = await ctx.records.charges.byChargeId(reminder.charge_id);
  if (!row) return undefined;
  const until = linkValidUntil(link, {
    codeExpiresAt: row.expires_at ? new Date(row.expires_at) : null,
    graceEndsAt: row.order_hold_until ? new Date(row.order_hold_until) : null,
    sentAt: reminder.sent_at ? new Date(reminder.sent_at) : null,
  });
  return { reminder, row, expired: now >= until };
}

/**
 * Checks the cart behind a reminder's link can still be bought. Only reads, unless `reprice`:
 * opening a link (mail scanners open every link they see) must not change the cart, and
 * pricing it again as Medusa would (`refreshCartItemsWorkflow`) can replace its line prices and
 * delete its payment sessions. The page's button asks for `reprice`, and only then does the
 * answer say whether the cart still costs what the code asked (`changed` or `ready`).
 */
export async function secondChance(
  ctx: SettleContext,
  token: string,
  { reprice, now = new Date() }: { reprice: boolean; now?: Date },
): Promise<SecondChance> {
  const message = await messageOf(ctx, token, "new_code", now);
  if (!message?.row.payment_collection_id) return { kind: "unknown" };
  const { row } = message;
  const collectionId = message.row.payment_collection_id;
  const checkoutUrl = recoveryOptions(ctx.config).checkoutUrl ?? null;
  if (message.expired) return { kind: "expired", checkoutUrl };
  const pageOf = (sessionId: string) => {
    const template = notifyOptions(ctx.config).paymentPageUrl;
    return template ? template.replace("{session_id}", encodeURIComponent(sessionId)) : null;
  };
  const siblings = await ctx.records.charges.ofCollection(collectionId);
  const side = await readMedusaSide(ctx.db, collectionId);
  const paid = await collectionPaidOf(ctx.records, ctx.config, collectionId, side);
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
  const cartId = side.cartId ?? (await cartOfCollection(ctx.container, collectionId));
  // The newest code of the cart is the one the payment page renews.
  const newest = siblings.reduce((a, b) =>
    new Date(b.created_at) > new Date(a.created_at) ? b : a,
  );
  if (!cartId) {
    if (!side.order) return { kind: "unknown" };
    // An order's own collection (an edit's difference, a converted draft): nothing to price
    // again, and its page, the link the merchant sent, makes the new code.
    if (!reprice) return { kind: "open", method: row.method, checkoutUrl: null };
    return {
      kind: "ready",
      method: row.method,
      paymentPageUrl:
        collectionPageUrl(ctx.config, collectionId, side.order.id) ?? pageOf(newest.session_id),
      checkoutUrl: null,
    };
  }
  const paymentPageUrl = pageOf(newest.session_id);
  const pixInstead = row.method === "boleto" ? checkoutUrl : null;
  if (!reprice) return { kind: "open", method: row.method, checkoutUrl: pixInstead };
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
  // A Pix cart whose newest code is over: the button's answer makes the new one, so the
  // shopper lands on a code to pay, not on the old one's "Código expirado" and a second tap. A
  // code still payable (another tab made it) is shown as it is.
  const template = notifyOptions(ctx.config).paymentPageUrl;
  const over = newest.status === "expired" || newest.status === "failed" || newest.superseded_at;
  const publishableKey =
    row.method === "pix" && over && template && paymentPageUrl
      ? await publishableKeyFor(ctx.container, cart.salesChannelId)
      : undefined;
  // A boleto whose newest code is over is made anew where its payer types the CPF again (a
  // boleto prints the name and CPF, so the store never fills them in from a link): the
  // checkout, not the old boleto's page, which could only say it is over.
  // The overdue reminder goes out once the boleto's day is past, before the service may have
  // said so: past its expiry, it is over for the shopper.
  const boletoOver =
    row.method === "boleto" &&
    (over || (newest.expires_at !== null && new Date(newest.expires_at) <= now));
  const boletoAnew = boletoOver && checkoutUrl ? checkoutUrl : null;
  return {
    kind: "ready",
    method: row.method,
    paymentPageUrl: boletoAnew ?? paymentPageUrl,
    checkoutUrl: pixInstead,
    newCode: publishableKey
      ? {
          collectionId,
          providerId: newest.method === "pix" ? newest.provider_id : row.provider_id,
          publishableKey,
          pageTemplate: template!,
          fallbackUrl: paymentPageUrl!,
          renews: newest.session_id,
        }
      : null,
  };
}

/**
 * What an opt-out link finds: no message of the store's, a link past its days, or one that
 * works, with the mailbox it went to (masked: the page may be open on a shared screen), the
 * store's name, and whether the mailbox had already stopped the reminders.
 */
export type OptOutLink =
  "unknown" | "expired" | { mailbox: string | null; store: string | null; alreadyOff: boolean };

/** `ana.souza@example.com` as `a•••••••a@example.com`: enough to know it, not to read it. */
export function maskMailbox(email: string): string {
  const at = email.lastIndexOf("@");
  if (at < 1) return "•••";
  const local = email.slice(0, at);
  const shown =
    local.length <= 2 ? local[0]! : `${local[0]}${"•".repeat(local.length - 2)}${local.at(-1)}`;
  return `${shown}${email.slice(at)}`;
}

/**
 * What a message's opt-out link is, without acting on it (a GET shows the button, or says the
 * link is not the store's or expired). With `act`, stops every reminder to the mailbox the
 * message went to; `valid` then means the opt-out is recorded (or already was).
 */
export async function optOutByLink(
  ctx: SettleContext,
  token: string,
  { act, now = new Date() }: { act: boolean; now?: Date },
): Promise<OptOutLink> {
  const message = await messageOf(ctx, token, "opt_out", now);
  const key = message?.reminder.email_key;
  if (!key) return "unknown";
  if (message.expired) return "expired";
  const alreadyOff = await ctx.records.reminders.optedOut(key);
  if (act && !alreadyOff) await ctx.records.reminders.optOut(key);
  // The key is a hash: the mailbox in clear is the cart's e-mail, masked before it is shown.
  const [email, store] = await Promise.all([
    mailboxOfCollection(ctx.container, message.row.payment_collection_id),
    storeName(ctx.container),
  ]);
  return { mailbox: email ? maskMailbox(email) : null, store, alreadyOff };
}
