import { endOfBusinessDaysAfter } from "@pix-checkout/client/bank-days";
import { ApiError } from "./api-error.js";
import { buildBoleto } from "./boleto.js";
import { buildPixCopyPaste } from "./br-code.js";
import type { CreateChargeInput } from "./charge-input.js";
import type { SandboxContext } from "./context.js";
import { newChargeIds } from "./ids.js";
import { feeCents } from "./money.js";
import { qrPngBase64 } from "./qr.js";
import type { ChargeRecord } from "./records.js";
import { chargeEventData } from "./views.js";

/** Creates and stores a pending charge with its payment data. */
export function createCharge(ctx: SandboxContext, input: CreateChargeInput): ChargeRecord {
  const now = ctx.clock.now();
  const ids = newChargeIds();
  // A boleto falls due at the end (São Paulo) of its `boletoDueDays`-th bank business day, never
  // on a weekend or a holiday: the calendar the plugin counts with, and the extra holidays it was
  // started with (README, "Boleto due dates").
  const expiresAt =
    input.method === "pix"
      ? now + ctx.timings.pixExpiryMs
      : endOfBusinessDaysAfter(new Date(now), ctx.timings.boletoDueDays, ctx.calendar).getTime();
  const charge: ChargeRecord = {
    seq: ctx.state.nextSeq(),
    uuid: ids.uuid,
    id: ids.id,
    txid: ids.txid,
    method: input.method,
    status: "pending",
    amount: input.amount,
    fee: feeCents(input.method, input.amount),
    createdAt: now,
    expiresAt,
  };
  if (input.description !== undefined) charge.description = input.description;
  if (input.customer !== undefined) charge.customer = { ...input.customer };
  if (input.method === "pix") {
    charge.pixCopyPaste = buildPixCopyPaste({ amountCents: input.amount, txid: ids.txid });
    if (input.metadata !== undefined) charge.metadata = input.metadata;
  } else {
    charge.billingAddress = input.billingAddress;
    const boleto = buildBoleto({ amountCents: input.amount, dueAtMs: expiresAt });
    charge.barcode = boleto.barcode;
    charge.digitableLine = boleto.digitableLine;
  }
  ctx.state.addCharge(charge);
  ctx.persist();
  return charge;
}

/** The base64 PNG QR of a Pix charge, built once and cached. */
export function qrCodeOf(ctx: SandboxContext, charge: ChargeRecord): Promise<string> {
  let png = ctx.qrCache.get(charge.uuid);
  if (!png) {
    png = qrPngBase64(charge.pixCopyPaste ?? "");
    ctx.qrCache.set(charge.uuid, png);
  }
  return png;
}

/**
 * Finds a charge by an id as the variant accepts it: Variant A the UUID; Variant B the
 * `ch_svc_` id, the UUID, or a unique prefix of 8+ characters. Expires it first if it is due,
 * so every read sees the state the clock implies.
 */
export function findCharge(ctx: SandboxContext, id: string): ChargeRecord {
  let charge = ctx.state.chargeByExactId(id);
  if (ctx.variant === "a" && charge && charge.uuid !== id.toLowerCase()) charge = undefined;
  if (!charge && ctx.variant === "b" && id.length >= 8) {
    const matches = ctx.state.chargesByPrefix(id);
    if (matches.length > 1) {
      throw new ApiError(
        400,
        "ambiguous_id",
        "This partial id matches more than one charge: send more characters.",
        {
          extra: { param: "id" },
        },
      );
    }
    charge = matches[0];
  }
  if (!charge)
    throw new ApiError(404, "charge_not_found", "No charge has this id.", {
      extra: { param: "id" },
    });
  expireIfDue(ctx, charge);
  return charge;
}

/** Moves a pending charge whose `expires_at` has passed to `expired`. */
export function expireIfDue(ctx: SandboxContext, charge: ChargeRecord): void {
  if (charge.status === "pending" && ctx.clock.now() >= charge.expiresAt) {
    finish(ctx, charge, "expired", charge.expiresAt);
  }
}

/** Expires every due charge (run when the clock moves, and on a timer). */
export function sweepExpired(ctx: SandboxContext): void {
  for (const charge of ctx.state.charges.values()) expireIfDue(ctx, charge);
}

/** Target states of the control routes. */
export type ChargeOutcome = "paid" | "expired" | "failed";

/**
 * Moves a pending charge to a final state and fires its webhook. A charge already in a final
 * state stays as it is: 409 `charge_not_pending`.
 */
export function settleCharge(
  ctx: SandboxContext,
  charge: ChargeRecord,
  outcome: ChargeOutcome,
  reason?: string,
): void {
  expireIfDue(ctx, charge);
  if (charge.status !== "pending") {
    throw new ApiError(
      409,
      "charge_not_pending",
      `The charge is already ${charge.status}; final states do not change.`,
    );
  }
  finish(ctx, charge, outcome, ctx.clock.now(), reason);
}

/**
 * A bank confirms a boleto paid on its due date one to three business days later; the service
 * then moves the charge it had marked `expired` to `paid` and fires `charge.paid`. Only an
 * expired boleto can be paid late (409 `charge_not_pending` otherwise).
 */
export function payLateBoleto(ctx: SandboxContext, charge: ChargeRecord): void {
  expireIfDue(ctx, charge);
  if (charge.method !== "boleto" || charge.status !== "expired") {
    throw new ApiError(
      409,
      "charge_not_pending",
      `Only an expired boleto can be paid late; this ${charge.method} charge is ${charge.status}.`,
    );
  }
  finish(ctx, charge, "paid", ctx.clock.now());
}

function finish(
  ctx: SandboxContext,
  charge: ChargeRecord,
  outcome: ChargeOutcome,
  at: number,
  reason?: string,
): void {
  charge.status = outcome;
  if (outcome === "paid") charge.paidAt = at;
  if (outcome === "expired") charge.expiredAt = at;
  if (outcome === "failed") {
    charge.failedAt = at;
    charge.failureReason = reason ?? "processing_failed";
  }
  ctx.persist();
  ctx.webhooks.emit({
    event: `charge.${outcome}`,
    data: chargeEventData(ctx.variant, charge, ctx.specLiteralWebhooks),
  });
}
