import type { HoldReason } from "./settlement-verdict";
import { AWAITING_PAYMENT } from "./awaiting-pix";
import { PAID_ORDER } from "./order-states";

/** What the store knows of a code, as the shopper's page is told it. */
export interface ShopperSessionFacts {
  sessionId: string;
  now: Date;
  payment: {
    state: string;
    method: "pix" | "boleto";
    amountCents: number;
    /** When it settled (payment-facts.ts `settledAtOf`), or null. */
    settledAt: string | null;
    copyPaste: string | null;
    boleto: { digitableLine: string; barcode: string | null; url: string | null } | null;
    expiresAt: string | null;
    /**
     * Set when its money settled nothing (settlement-verdict.ts `hold`); `returned`, once the
     * merchant recorded giving it back (`pixCheckoutRecordHeldReturn`).
     */
    held: { reason: HoldReason; receivedCents: number; returned?: boolean } | null;
    /**
     * Set when the shopper replaced this code (`pixCheckoutReplaceCode`): the session id of the
     * order's code waiting now, or null when none waits.
     */
    replacedBy?: string | null;
    /**
     * Of a settled payment, what settling it owed back at once (payment-facts.ts
     * `owedAtSettleOf`): more than the code asked, or than the order still asked.
     */
    owedAtSettle?: { cents: number; reason: "overpaid" | "amount_lowered" } | null;
  };
  order: { state: string };
}

/** The session object of `<pix-checkout>`'s backend contract (packages/element/README.md). */
export interface ShopperSession {
  session_id: string;
  method: "pix" | "boleto";
  status:
    "pending" | "paid" | "expired" | "failed" | "canceled" | "held" | "refund_due" | "superseded";
  amount: number;
  currency: "BRL";
  expires_at: string | null;
  paid_at: string | null;
  server_time: string;
  pix?: { copy_paste: string; qr_image_url: null; qr_code: null; payment_link: null };
  boleto?: { digitable_line: string; barcode: string | null; url: string | null; due_date: string };
  order?: { payment: "paid" | "awaiting" | "canceled" };
  received?: { amount: number };
  refund?: { amount: number; reason: Exclude<HoldReason, "underpaid"> };
  replaced_by?: string | null;
}

/** The day a boleto falls due, in São Paulo, as `YYYY-MM-DD`. */
const dueDayOf = (expiresAt: string) =>
  new Date(expiresAt).toLocaleDateString("en-CA", { timeZone: "America/Sao_Paulo" });

/**
 * What the shopper is told about a code: derived from the payment's decided state and its
 * order's, never from the webhook's word. "Pago" (`paid` with `order.payment: "paid"`) only
 * once the order has nothing left to pay.
 */
export function shopperSession(facts: ShopperSessionFacts): ShopperSession {
  const { payment, order, now } = facts;
  const base = {
    session_id: facts.sessionId,
    method: payment.method,
    amount: payment.amountCents,
    currency: "BRL" as const,
    expires_at: payment.expiresAt,
    paid_at: null,
    server_time: now.toISOString(),
  };
  if (AWAITING_PAYMENT.has(payment.state)) {
    const expired = payment.expiresAt !== null && Date.parse(payment.expiresAt) <= now.getTime();
    if (payment.method === "boleto" && payment.boleto && payment.expiresAt && !expired) {
      const { digitableLine, barcode, url } = payment.boleto;
      return {
        ...base,
        status: "pending",
        boleto: {
          digitable_line: digitableLine,
          barcode,
          url,
          due_date: dueDayOf(payment.expiresAt),
        },
      };
    }
    if (payment.method === "pix" && payment.copyPaste && !expired) {
      return {
        ...base,
        status: "pending",
        pix: {
          copy_paste: payment.copyPaste,
          qr_image_url: null,
          qr_code: null,
          payment_link: null,
        },
      };
    }
    return { ...base, status: "expired" };
  }
  if (payment.state === "Settled") {
    const owed = payment.owedAtSettle;
    return {
      ...base,
      status: "paid",
      ...(owed ? { refund: { amount: owed.cents, reason: owed.reason } } : {}),
      paid_at: payment.settledAt,
      order: {
        payment: PAID_ORDER.has(order.state)
          ? "paid"
          : order.state === "Cancelled"
            ? "canceled"
            : "awaiting",
      },
    };
  }
  // A replaced code names the order's current one, so the page can show it instead.
  const replaced = payment.replacedBy !== undefined ? { replaced_by: payment.replacedBy } : {};
  if (payment.held) {
    const { reason, receivedCents, returned } = payment.held;
    // Short of its code, it waits for the store's decision until the merchant gives it back.
    if (reason === "underpaid" && !returned) {
      return { ...base, status: "held", received: { amount: receivedCents } };
    }
    return {
      ...base,
      status: "refund_due",
      refund: { amount: receivedCents, reason: reason === "underpaid" ? "other" : reason },
      ...replaced,
    };
  }
  // Not final: the bank may still pay the old code; its page keeps following it.
  if (payment.replacedBy !== undefined) return { ...base, status: "superseded", ...replaced };
  // Its order cancelled (by the store, or a boleto unpaid past its grace): nothing to pay.
  if (payment.state === "Cancelled" && order.state === "Cancelled") {
    return { ...base, status: "canceled", order: { payment: "canceled" } };
  }
  if (payment.state === "Cancelled") return { ...base, status: "expired" };
  return { ...base, status: "failed" };
}
