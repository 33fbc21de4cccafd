import type { SandboxContext, Variant } from "./context.js";
import type { ChargeRecord, WithdrawalRecord } from "./records.js";
import { toReais } from "./money.js";

const iso = (ms: number): string => new Date(ms).toISOString();

/** Fields set only when present, so absent values are omitted rather than sent as null. */
function defined(record: Record<string, unknown>): Record<string, unknown> {
  for (const key of Object.keys(record)) if (record[key] === undefined) delete record[key];
  return record;
}

/** URL of a charge's printable boleto page. */
export function boletoUrl(ctx: SandboxContext, charge: ChargeRecord): string {
  return `${ctx.origin}/boleto/${charge.uuid}`;
}

/** URL of a charge's pay page (Variant B `pix.payment_link`). */
export function paymentLink(ctx: SandboxContext, charge: ChargeRecord): string {
  return `${ctx.origin}/pay/${ctx.variant === "a" ? charge.uuid : charge.id}`;
}

/**
 * A charge as `POST /v1/charges` and `GET /v1/charges/{id}` return it. The create and read
 * responses share one shape: the read fields are a superset in the spec, and sending them on
 * create too loses nothing. `qrCode` is required in Variant B.
 */
export function chargeView(
  ctx: SandboxContext,
  charge: ChargeRecord,
  qrCode?: string,
): Record<string, unknown> {
  if (ctx.variant === "a") return chargeViewA(ctx, charge);
  return chargeViewB(ctx, charge, qrCode ?? "");
}

function chargeViewA(ctx: SandboxContext, charge: ChargeRecord): Record<string, unknown> {
  const common = {
    success: true,
    uuid: charge.uuid,
    payment_method: charge.method,
    amount: charge.amount,
    status: charge.status,
    expires_at: iso(charge.expiresAt),
    created_at: iso(charge.createdAt),
    paid_at: charge.paidAt === undefined ? undefined : iso(charge.paidAt),
  };
  if (charge.method === "pix") return defined({ ...common, pix_copy_paste: charge.pixCopyPaste });
  return defined({
    ...common,
    boleto_url: boletoUrl(ctx, charge),
    barcode: charge.barcode,
    digitable_line: charge.digitableLine,
  });
}

function chargeViewB(
  ctx: SandboxContext,
  charge: ChargeRecord,
  qrCode: string,
): Record<string, unknown> {
  const net = charge.amount - charge.fee;
  return defined({
    id: charge.id,
    object: "charge",
    uuid: charge.uuid,
    amount: toReais(charge.amount),
    amount_cents: charge.amount,
    currency: "BRL",
    method: charge.method,
    status: charge.status,
    description: charge.description,
    customer: charge.customer
      ? defined({
          name: charge.customer.name,
          email: charge.customer.email,
          document: charge.customer.document,
        })
      : undefined,
    pix: {
      qr_code: qrCode,
      copy_paste: charge.pixCopyPaste,
      payment_link: paymentLink(ctx, charge),
    },
    fee: {
      amount: toReais(charge.fee),
      amount_cents: charge.fee,
      net_amount: toReais(net),
      net_amount_cents: net,
    },
    metadata: charge.metadata ?? {},
    expires_at: iso(charge.expiresAt),
    created_at: iso(charge.createdAt),
    paid_at: charge.paidAt === undefined ? undefined : iso(charge.paidAt),
    livemode: true,
  });
}

/** The light status answer. Variant B adds `object` and `livemode`, as all its successes do. */
export function statusView(variant: Variant, charge: ChargeRecord): Record<string, unknown> {
  const paid = charge.status === "paid";
  if (variant === "a") return { uuid: charge.uuid, status: charge.status, paid };
  return { id: charge.id, object: "charge_status", status: charge.status, paid, livemode: true };
}

/** `data` of a charge.* webhook (documented in the README; the spec shows only charge.paid). */
export function chargeEventData(
  variant: Variant,
  charge: ChargeRecord,
  specLiteral = false,
): Record<string, unknown> {
  return defined({
    uuid: charge.uuid,
    id: variant === "b" && !specLiteral ? charge.id : undefined,
    amount: charge.amount,
    status: charge.status,
    method: charge.method,
    description: charge.description,
    customer: charge.customer
      ? defined({ name: charge.customer.name, email: charge.customer.email })
      : undefined,
    created_at: iso(charge.createdAt),
    paid_at: charge.paidAt === undefined ? undefined : iso(charge.paidAt),
    expired_at: charge.expiredAt === undefined ? undefined : iso(charge.expiredAt),
    failed_at: charge.failedAt === undefined ? undefined : iso(charge.failedAt),
    failure_reason: charge.failureReason,
  });
}

/** `data` of a transfer.* webhook. */
export function transferEventData(
  variant: Variant,
  withdrawal: WithdrawalRecord,
): Record<string, unknown> {
  return defined({
    id: variant === "a" ? withdrawal.uuid : withdrawal.id,
    amount: withdrawal.amount,
    status: withdrawal.status,
    created_at: iso(withdrawal.createdAt),
    completed_at: withdrawal.completedAt === undefined ? undefined : iso(withdrawal.completedAt),
    failed_at: withdrawal.failedAt === undefined ? undefined : iso(withdrawal.failedAt),
    failure_reason: withdrawal.failureReason,
  });
}

/** A withdrawal as `POST /v1/withdrawals` and the control routes return it. */
export function withdrawalView(
  variant: Variant,
  withdrawal: WithdrawalRecord,
): Record<string, unknown> {
  const times = {
    created_at: iso(withdrawal.createdAt),
    completed_at: withdrawal.completedAt === undefined ? undefined : iso(withdrawal.completedAt),
    failed_at: withdrawal.failedAt === undefined ? undefined : iso(withdrawal.failedAt),
    failure_reason: withdrawal.failureReason,
  };
  if (variant === "a") {
    return defined({
      success: true,
      uuid: withdrawal.uuid,
      amount: withdrawal.amount,
      status: withdrawal.status,
      pix_key: withdrawal.pixKey,
      description: withdrawal.description,
      ...times,
    });
  }
  return defined({
    id: withdrawal.id,
    object: "withdrawal",
    amount: toReais(withdrawal.amount),
    amount_cents: withdrawal.amount,
    currency: "BRL",
    status: withdrawal.status,
    pix_key: withdrawal.pixKey,
    description: withdrawal.description,
    ...times,
    livemode: true,
  });
}

/** A charge item of the transaction list. */
export function chargeTransactionItem(
  variant: Variant,
  charge: ChargeRecord,
): Record<string, unknown> {
  const net = charge.amount - charge.fee;
  const customer = charge.customer
    ? defined({ name: charge.customer.name, email: charge.customer.email })
    : undefined;
  const common = {
    object: "charge",
    currency: "BRL",
    method: charge.method,
    status: charge.status,
    description: charge.description,
    customer,
    created_at: iso(charge.createdAt),
    paid_at: charge.paidAt === undefined ? undefined : iso(charge.paidAt),
  };
  if (variant === "a") {
    return defined({
      uuid: charge.uuid,
      ...common,
      amount: charge.amount,
      fee: { amount: charge.fee, net_amount: net },
    });
  }
  return defined({
    id: charge.id,
    ...common,
    amount: toReais(charge.amount),
    amount_cents: charge.amount,
    fee: {
      amount: toReais(charge.fee),
      amount_cents: charge.fee,
      net_amount: toReais(net),
      net_amount_cents: net,
    },
    livemode: true,
  });
}

/** A withdrawal item of the transaction list. */
export function withdrawalTransactionItem(
  variant: Variant,
  withdrawal: WithdrawalRecord,
): Record<string, unknown> {
  const view = withdrawalView(variant, withdrawal);
  if (variant === "a") {
    delete view.success;
    return { uuid: view.uuid, object: "withdrawal", currency: "BRL", ...view };
  }
  return view;
}
