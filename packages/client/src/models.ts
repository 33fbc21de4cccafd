/**
 * The normalized model both spec variants map to. Money is always integer cents; ids are one
 * field (`id`); method data sits under `pix` or `boleto`; `raw` keeps the parsed response body.
 */

/** A charge's status, verbatim from the API. `paid` is the only state that confirms payment. */
export type ChargeStatus = "pending" | "paid" | "expired" | "failed";

/** The list of charge statuses, for schemas and exhaustive checks. */
export const CHARGE_STATUSES = ["pending", "paid", "expired", "failed"] as const;

/** How a charge is paid. Boleto exists only in Variant A. */
export type PaymentMethod = "pix" | "boleto";

/** Payer data. For boleto every field is required (see `BoletoCustomer`). */
export interface Customer {
  name?: string;
  email?: string;
  /** CPF (11 digits) or CNPJ (14 characters, alphanumeric allowed), masked or not. */
  document?: string;
}

/** Payer data a boleto needs. */
export interface BoletoCustomer {
  name: string;
  email: string;
  /** A valid CPF or CNPJ (alphanumeric CNPJ accepted). */
  document: string;
  /** Area code plus number, 10 or 11 digits (masks such as "(11) 98765-4321" accepted). */
  phone: string;
}

/** Billing address a boleto needs. */
export interface BillingAddress {
  /** CEP, 8 digits ("01310-100" accepted). */
  zip: string;
  /** Two-letter UF, e.g. "SP". */
  state: string;
  city: string;
  street: string;
  neighborhood: string;
  number: string;
  complement?: string;
}

/** Input of `charges.create`. */
export type CreateChargeInput =
  | {
      method: "pix";
      /** Integer cents; Variant A needs at least 500. */
      amountCents: number;
      description?: string;
      customer?: Customer;
    }
  | {
      method: "boleto";
      /** Integer cents, at least 500. */
      amountCents: number;
      description?: string;
      customer: BoletoCustomer;
      billingAddress: BillingAddress;
    };

/** Per-call options of `charges.create`. */
export interface CreateChargeOptions {
  /** Variant B only: your own key. Without one the client generates one per call. */
  idempotencyKey?: string;
  /** Aborts the call. In Variant A an abort after sending gives `ChargeOutcomeUnknownError`. */
  signal?: AbortSignal;
}

/** Pix payment data. */
export interface PixData {
  /** The copy-and-paste code (BR Code). */
  copyPaste: string;
  /** QR code image, base64 PNG (Variant B only). */
  qrCodePng?: string;
  /** Hosted payment page (Variant B only). */
  paymentLink?: string;
}

/** Boleto payment data. */
export interface BoletoData {
  /** The printable boleto document. */
  url: string;
  /** The 44-digit barcode. */
  barcode: string;
  /** The 47-digit linha digitável, digits only (format it for display with `formatBoleto`). */
  digitableLine: string;
}

/** A charge, in either variant. */
export interface Charge {
  /** Variant A: the `uuid`; Variant B: the `ch_svc_...` id. */
  id: string;
  method: PaymentMethod;
  status: ChargeStatus;
  amountCents: number;
  currency: "BRL";
  createdAt?: string;
  expiresAt: string;
  paidAt?: string;
  description?: string;
  customer?: Customer;
  /** Variant B read responses only. */
  feeCents?: number;
  /** Variant B read responses only. */
  netAmountCents?: number;
  pix?: PixData;
  boleto?: BoletoData;
  /** The parsed response body, untouched. */
  raw: unknown;
}

/** Answer of `charges.status`, the light polling call. */
export interface ChargeStatusResult {
  id: string;
  status: ChargeStatus;
  /** `true` only when the payment is confirmed; always equals `status === "paid"`. */
  paid: boolean;
  raw: unknown;
}

/** Account balance in cents. */
export interface Balance {
  /** Available BRL balance, cents. */
  availableCents: number;
  /** Pending BRL balance, cents. */
  pendingCents: number;
  currency: "BRL";
  raw: unknown;
}

/** Filters of `transactions.list`. */
export interface ListTransactionsParams {
  /** Page size, 1 to 100 (default 10 on the service). */
  limit?: number;
  /** Cursor: the id of the last item of the previous page. */
  startingAfter?: string;
  type?: "charge" | "withdrawal";
  status?: ChargeStatus | "processing";
  /** Minimum creation time (Date or ISO 8601). */
  createdGte?: Date | string;
  /** Maximum creation time (Date or ISO 8601). */
  createdLte?: Date | string;
}

/** A charge in the transaction list. */
export interface ChargeTransaction {
  type: "charge";
  id: string;
  status: string;
  amountCents: number;
  description?: string;
  customer?: { name?: string; email?: string };
  feeCents?: number;
  netAmountCents?: number;
  createdAt?: string;
  paidAt?: string;
  raw: unknown;
}

/** A withdrawal in the transaction list (its fields are not in the spec; these are read if present). */
export interface WithdrawalTransaction {
  type: "withdrawal";
  id: string;
  status: string;
  amountCents?: number;
  createdAt?: string;
  raw: unknown;
}

/** One item of the transaction list. */
export type Transaction = ChargeTransaction | WithdrawalTransaction;

/** One page of a list. */
export interface Page<T> {
  data: T[];
  hasMore: boolean;
  /** Pass as `startingAfter` to get the next page; `null` on the last page. */
  nextCursor: string | null;
  raw: unknown;
}

/** Last `X-RateLimit-*` values the client saw. */
export interface RateLimitInfo {
  limit?: number;
  remaining?: number;
  resetAt?: Date;
}

/** A withdrawal request, as far as the spec shows one (shape not shown; see README). */
export interface Withdrawal {
  id: string;
  status: string;
  amountCents?: number;
  raw: unknown;
}
