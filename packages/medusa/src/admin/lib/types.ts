import type { FlagReason } from "../../internal/records/flag-reasons";
import type { Attention } from "../../internal/records/attention";
import type { OrderWithoutCode } from "../../internal/medusa/orders-without-code";
import type { RefundPortion } from "../../internal/settlement/refund-portions";
import type { RefundDeadline } from "../../internal/records/refund-deadline";

export type { Attention, FlagReason, RefundDeadline, RefundPortion };

/** The Medusa order a charge paid. */
export interface AdminChargeOrder {
  id: string;
  display_id: number | null;
  email: string | null;
  customer_name: string | null;
}

/**
 * Where a charge's money is, the ledger's parts in integer cents (docs/ledger.md): they add up
 * to `received`.
 */
export interface AdminMoney {
  received: number | null;
  held: number;
  held_reason: "awaiting_capture" | "underpaid" | "accepted" | null;
  captured: number;
  owed: number;
  owed_reason: string | null;
  returned: number;
  /** Blocked by an open MED (bloqueio cautelar): captured in Medusa, not income. */
  contested: number;
  /** The charge's MED case (docs/ledger.md, "Pix returned by the MED"), or null. */
  med: AdminMedCase | null;
}

/** A charge's MED case: the notificação de infração's protocol, deadline and outcome. */
export interface AdminMedCase {
  state: "open" | "kept" | "returned";
  protocol: string;
  /** `YYYY-MM-DD`. */
  deadline: string;
  /** Cents the MED blocked. */
  blocked: number;
  /** Of `blocked`, cents the store already owed back (still owed, the case's until its outcome). */
  blocked_owed: number;
  opened_at: string | null;
  closed_at: string | null;
}

/** A charge as `/admin/pix-checkout/charges` answers it (amounts in cents). */
export interface AdminChargeSummary {
  order: AdminChargeOrder | null;
  charge_id: string;
  provider_id: string;
  session_id: string;
  method: "pix" | "boleto";
  status: string;
  amount: number;
  currency: string;
  paid_at: string | null;
  captured_at: string | null;
  /** What the API says was paid, in cents (below `amount` for an underpaid charge). */
  received: number | null;
  /** Where every real received is (the ledger's parts). */
  money: AdminMoney;
  /** What the charge needs from the merchant: from its money first, then an open note. */
  attention: Attention | null;
  /** Its Pix money owed back: the deadline and the days left; null for none, or a boleto. */
  refund_deadline?: RefundDeadline | null;
  flagged: boolean;
  /** Why the charge waits for the merchant, as a code with values (said in the admin's language). */
  flag: FlagReason | null;
  /**
   * What a refund recorded now takes, in order, each part with whether Medusa captured it (and
   * records the refund on its payment) or not (the plugin's ledger only), and why. Empty unless
   * paid; the refund route splits an amount over these the same way.
   */
  refund_portions?: RefundPortion[];
  created_at: string;
}

/**
 * An order the merchant keeps although its Pix or boleto code could never be made
 * (`/admin/pix-checkout/charges?needs_attention=true`'s `orders_without_code`): no charge exists,
 * so nothing can pay it until the customer gets the order's payment link.
 */
export type AdminOrderWithoutCode = OrderWithoutCode;

/** What a charge's payment collection was for. */
export type ChargePurpose = "cart" | "order" | "order_edit" | "exchange" | "claim" | "return";

/**
 * What an order still owes that a Pix link can collect (`/admin/pix-checkout/orders/:id`'s
 * `outstanding`): an unpaid order collection with its link, or none yet ("Cobrar por Pix").
 */
export interface AdminOutstanding {
  payment_collection_id: string | null;
  /** Integer cents. */
  amount: number;
  currency: string;
  purpose: ChargePurpose;
  display_id: number | null;
  /** The link Medusa's "Copy payment link" copies, when the store set `admin.storefrontUrl`. */
  link: string | null;
  /** The plugin's own page for it, from the backend's root. */
  page_path: string | null;
  /** The order's phone in international digits, for `wa.me`. */
  whatsapp: string | null;
  email: string | null;
}

/** A charge as `/admin/pix-checkout/orders/:id` answers it (amounts in cents). */
export interface AdminCharge {
  charge_id: string;
  provider_id: string;
  method: "pix" | "boleto";
  status: string;
  /** What its collection was for; null for charges recorded before the plugin kept it. */
  purpose?: ChargePurpose | null;
  amount: number;
  currency: string;
  expires_at: string | null;
  paid_at: string | null;
  /** What the charge needs from the merchant: from its money first, then an open note. */
  attention: Attention | null;
  /** Where every real received is (the ledger's parts). */
  money: AdminMoney;
  /** Its Pix money owed back: the deadline and the days left; null for none, or a boleto. */
  refund_deadline?: RefundDeadline | null;
  flagged: boolean;
  /** Why the charge waits for the merchant, as a code with values (said in the admin's language). */
  flag: FlagReason | null;
  pix: { copy_paste: string; payment_link: string | null } | null;
  boleto: { url: string; digitable_line: string | null } | null;
  timeline: TimelineEntry[];
}

/** One line of a charge's timeline: a state change or a webhook delivery. */
export type TimelineEntry =
  | {
      type: "state";
      id: string;
      kind: string;
      source: string;
      from_status: string | null;
      to_status: string | null;
      /** On a reminder's line: its step, and why it was not sent. */
      reminder?: { step: string; reason?: string };
      /**
       * On a refund's line: integer cents returned, of them recorded on Medusa's order (the
       * rest in the plugin's ledger only), and the merchant's note.
       */
      refund?: { amount: number; medusa: number; note: string | null };
      at: string;
    }
  | {
      type: "delivery";
      id: string;
      event: string;
      outcome: string;
      detail: string | null;
      attempts: number;
      at: string;
    };

/** A webhook delivery (`/admin/pix-checkout/deliveries`). */
export interface AdminDelivery {
  id: string;
  provider_key: string;
  event: string;
  charge_id: string | null;
  outcome: string;
  detail: string | null;
  attempts: number;
  created_at: string;
}

/** A transaction of the payment API (`/admin/pix-checkout/transactions`). */
export interface AdminTransaction {
  id: string;
  type: "charge" | "withdrawal";
  status: string;
  amount: number | null;
  fee: number | null;
  net_amount: number | null;
  description: string | null;
  customer: { name?: string; email?: string } | null;
  order: AdminChargeOrder | null;
  /** Where the charge's money stands in the store's ledger; null for another store's charge. */
  money: AdminMoney | null;
  created_at: string | null;
  paid_at: string | null;
}

/** `/admin/pix-checkout/balance`. */
export interface AdminBalance {
  provider: string;
  providers: string[];
  balance: {
    available: number;
    pending: number;
    currency: string;
    summary: {
      pending_balance: number | null;
      total_earned: number | null;
      total_withdrawn: number | null;
    };
  };
  /** What this account's charges received, by the store's ledger (integer cents). */
  ledger: {
    received: number;
    captured: number;
    owed: number;
    returned: number;
    held: number;
    /** Blocked by open MEDs (bloqueio cautelar); absent from servers before the MED. */
    contested?: number;
  };
}

/** One line of `/admin/pix-checkout/health` (see internal/operations/health.ts). */
export interface AdminHealthLine {
  id: string;
  state: "ok" | "warning" | "broken";
  value: string | number | null;
  detail: Record<string, unknown>;
  action: string | null;
}

/** What `/admin/pix-checkout/health` answers. */
export interface AdminHealth {
  state: "ok" | "warning" | "broken";
  checked_at: string;
  lines: AdminHealthLine[];
  providers: string[];
}

/** `GET /admin/pix-checkout/pix-discount`. */
export interface AdminPixDiscount {
  enabled: boolean;
  type: "percentage" | "fixed";
  /** Whole percent, or integer cents for `fixed`. */
  value: number;
  promotion_id: string | null;
  code: string;
}

/** `GET /admin/pix-checkout/pix-discount/cost`'s figure (cents), as the books add it up. */
export type { PixDiscountCost as AdminPixDiscountCost } from "../../internal/books/books";

/** `GET /admin/pix-checkout/overview`, as the route answers it (amounts in integer cents). */
export type {
  MethodFigures as AdminMethodFigures,
  Overview as AdminOverview,
} from "../../internal/operations/overview";
