import { processPaymentWorkflow } from "@medusajs/medusa/core-flows";
import { ContainerRegistrationKeys, Modules, PaymentActions } from "@medusajs/framework/utils";
import type {
  BigNumberInput,
  IOrderModuleService,
  MedusaContainer,
} from "@medusajs/framework/types";
import { redact } from "@pix-checkout/client";
import { CAPTURE_ATTEMPTS, type ChargeRow } from "../records/charges";
import type { LifecycleSource } from "../records/charge-lifecycle";
import { cartOfCollection, orderOfCollection } from "../medusa/collection-links";
import { fromCents } from "../platform/money";
import { workerModeOf, type SettleContext } from "./context";
import { chargeAttributes, recordCaptureLag, withSpan } from "../platform/telemetry";
import { PixCheckoutError } from "../platform/errors";
import { DELIVERY_DETAILS } from "./delivery-details";

/** Result of a capture. */
export interface CaptureResult {
  outcome: "processed" | "duplicate";
  detail?: string;
}

/** The Medusa session a paid charge is captured on: its own, or the one it was adopted by. */
export const captureSessionOf = (row: ChargeRow): string =>
  row.capture_session_id ?? row.session_id;

/**
 * Makes a locally paid charge a captured Medusa payment on an order, exactly once. Needs no
 * call to the payment service (paid is final), so reconciliation uses it for stuck captures.
 *
 * Medusa may already have captured it: when `authorizePayment` answers `captured` (the shopper
 * paid before completing the cart), Medusa captures inside cart completion, under a claim that
 * `authorizePayment` took. Once that claim is released by its lease, the capture is confirmed
 * here from Medusa's own payment rather than made again.
 */
export function captureOnce(
  ctx: SettleContext,
  row: ChargeRow,
  source: LifecycleSource,
  amountCents: number,
  claim: CaptureClaim,
): Promise<CaptureResult> {
  return withSpan(
    "pix_checkout.capture",
    { ...chargeAttributes(row), "pix_checkout.source": source },
    () => capture(ctx, row, source, amountCents, claim),
    (result) => ({ "pix_checkout.outcome": result.outcome }),
  );
}

/**
 * The right to capture a charge, taken under its collection's lock (collection.ts): `medusa`
 * when Medusa already holds the capture (cart completion made it; only recording is left),
 * else the holder id of the capture claim, which only its holder releases.
 */
export type CaptureClaim = { medusa: true } | { medusa: false; holder: string };

async function capture(
  ctx: SettleContext,
  row: ChargeRow,
  source: LifecycleSource,
  amountCents: number,
  claim: CaptureClaim,
): Promise<CaptureResult> {
  const { records, logger } = ctx;
  const chargeId = row.charge_id;
  if (row.captured_at) return { outcome: "duplicate", detail: DELIVERY_DETAILS.alreadyCaptured };
  const sessionId = captureSessionOf(row);
  let capturedBy: "this process" | "cart completion" = "this process";
  if (claim.medusa) {
    // Cart completion captured it (authorizePayment answered `captured`): record what Medusa
    // holds; nothing is captured again.
    capturedBy = "cart completion";
  } else {
    const { holder } = claim;
    try {
      // The session's own amount, not the charge's cents: the charge is that amount rounded
      // half-up to the cent (see toCents), and capturing the rounded cents of a total with a
      // fraction of a cent would leave the order a fraction short or over. A charge the
      // merchant accepted for less is captured for what arrived, never the code's amount.
      const amount =
        amountCents < Number(row.amount_cents)
          ? fromCents(amountCents)
          : await sessionAmount(ctx.container, sessionId);
      await processPaymentWorkflow(ctx.container).run({
        input: {
          action: PaymentActions.SUCCESSFUL,
          data: { session_id: sessionId, amount },
        },
      });
      // The workflow's steps are conditional and can end without capturing anything, so only
      // Medusa's own captured payment counts as done.
      if (!(await capturedInMedusa(ctx.container, sessionId))) {
        throw new PixCheckoutError(
          "capture_not_recorded",
          `Medusa holds no captured payment for session ${sessionId} after processPaymentWorkflow`,
        );
      }
    } catch (error) {
      // Give the claim back so the next delivery or the reconciliation job captures it.
      await records.charges.releaseCapture(chargeId, holder);
      await recordCaptureFailure(ctx, row, source, error);
      throw error;
    }
  }
  if (!(await records.charges.confirmCapture(chargeId))) {
    // Our lease lapsed mid-capture and a later holder recorded it first.
    return { outcome: "duplicate", detail: DELIVERY_DETAILS.alreadyCaptured };
  }
  recordCaptureLag(row, source, capturedBy);
  await records.events.add({
    chargeId,
    kind: "captured",
    source,
    detail: { session_id: sessionId, by: capturedBy, instance: workerModeOf(ctx.container) },
  });
  logger.info(`captured charge ${chargeId} (session ${sessionId}, by ${capturedBy})`);
  return { outcome: "processed" };
}

/**
 * Says that Medusa holds the payment captured, once what follows the capture (the cart
 * becoming an order) was tried: the capture goes on the order's transactions, and
 * `pix_checkout.charge.captured` (the shopper's "paid" message, which names the order) is
 * emitted. A payment for an order canceled meanwhile is kept and noted for the merchant, who
 * decides whether to ship or refund.
 */
export async function announceCaptured(
  ctx: SettleContext,
  row: ChargeRow,
  source: LifecycleSource,
): Promise<void> {
  const chargeId = row.charge_id;
  await recordCapturesOnOrder(ctx, row).catch((error: unknown) =>
    // The capture stands; only the order's summary lags until the next pass records it.
    ctx.logger.warn(
      `recording the capture of charge ${chargeId} on its order failed: ${redact((error as Error).message)}`,
    ),
  );
  await ctx.lifecycle.captured((await ctx.records.charges.byChargeId(chargeId)) ?? row, source);
  const order = await orderOfCollection(ctx.container, row.payment_collection_id);
  if (order?.status === "canceled") {
    await ctx.lifecycle.flag(
      chargeId,
      { code: "paid_after_order_canceled", order_id: order.id },
      source,
    );
  }
}

/**
 * Puts a failed capture on the timeline. After `CAPTURE_ATTEMPTS` failures the charge is
 * flagged for the merchant (money arrived, Medusa could not record it) and reconciliation
 * stops retrying it every run; a new delivery or the admin's re-check still tries again.
 */
async function recordCaptureFailure(
  ctx: SettleContext,
  row: ChargeRow,
  source: LifecycleSource,
  error: unknown,
): Promise<void> {
  const { records } = ctx;
  const message = redact((error as Error)?.message ?? String(error));
  await records.events.add({
    chargeId: row.charge_id,
    kind: "capture_failed",
    source,
    detail: { message },
  });
  const failures = await records.events.count(row.charge_id, "capture_failed");
  // At the cap or past it: failures recorded at the same moment by two doors can step over it.
  const current = await records.charges.byChargeId(row.charge_id);
  if (failures >= CAPTURE_ATTEMPTS && current?.flag_code !== "capture_failed") {
    await ctx.lifecycle.flag(
      row.charge_id,
      { code: "capture_failed", attempts: failures, message },
      source,
    );
  }
}

/** A payment session's amount as Medusa holds it: its raw decimal, fractions of a cent included. */
async function sessionAmount(container: MedusaContainer, sessionId: string): Promise<string> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY);
  const { data } = await query.graph({
    entity: "payment_session",
    fields: ["id", "amount", "raw_amount"],
    filters: { id: sessionId },
  });
  const session = data[0] as
    { amount?: number | string; raw_amount?: { value?: string } } | undefined;
  const amount = session?.raw_amount?.value ?? session?.amount;
  if (amount === undefined) {
    throw new PixCheckoutError(
      "session_not_found",
      `Payment session ${sessionId} no longer exists.`,
    );
  }
  return String(amount);
}

/**
 * Whether Medusa holds a capture for a session's payment (made by cart completion or a capture
 * here). Any capture counts, not only `captured_at`: Medusa sets that only once the whole
 * amount is captured, and a charge the merchant accepted for less is captured in part.
 */
async function capturedInMedusa(container: MedusaContainer, sessionId: string): Promise<boolean> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY);
  const { data } = await query.graph({
    entity: "payment",
    fields: ["id", "captured_at", "captures.id"],
    filters: { payment_session_id: sessionId },
  });
  const payment = data[0] as
    { captured_at: Date | string | null; captures?: { id: string }[] } | undefined;
  return Boolean(payment?.captured_at) || (payment?.captures?.length ?? 0) > 0;
}

/**
 * Puts the session's captures on its order's transactions, so the order's summary (what the
 * merchant reads in the admin: paid total, outstanding amount) shows it paid. Medusa records
 * a capture on the order only when the order already exists and is linked at capture time;
 * a Pix paid before the cart became an order (pay-first), or captured by
 * `processPaymentWorkflow` for an order-first order, can leave the order showing the whole
 * total outstanding while its payment is captured. Idempotent: a capture already on the
 * order (by `reference_id`) is not added again.
 */
export async function recordCapturesOnOrder(ctx: SettleContext, row: ChargeRow): Promise<void> {
  const order = await orderOfCollection(ctx.container, row.payment_collection_id);
  if (!order) return;
  // Cart completion adds its own transaction for a capture it made, in a later step than the
  // one that links the order; between the two, this read would find the capture unrecorded
  // and the order would count it twice. Medusa's lock on the cart, which completion holds to
  // its end, puts the read after that step (chaos saw the doubled summary without it).
  const cartId = await cartOfCollection(ctx.container, row.payment_collection_id);
  const record = () => addMissingCaptureTransactions(ctx, row, order.id);
  if (cartId && ctx.container.hasRegistration(Modules.LOCKING)) {
    await ctx.container.resolve(Modules.LOCKING).execute(cartId, record, { timeout: 5 });
  } else {
    await record();
  }
}

async function addMissingCaptureTransactions(
  ctx: SettleContext,
  row: ChargeRow,
  orderId: string,
): Promise<void> {
  const query = ctx.container.resolve(ContainerRegistrationKeys.QUERY);
  const { data } = await query.graph({
    entity: "payment",
    fields: ["id", "currency_code", "captures.id", "captures.raw_amount"],
    filters: { payment_session_id: captureSessionOf(row) },
  });
  const payment = data[0] as
    { currency_code: string; captures?: { id: string; raw_amount: unknown }[] } | undefined;
  const captures = payment?.captures ?? [];
  if (captures.length === 0) return;
  const orders = ctx.container.resolve<IOrderModuleService>(Modules.ORDER);
  const existing = await orders.listOrderTransactions(
    { order_id: orderId, reference: "capture", reference_id: captures.map((c) => c.id) },
    { select: ["reference_id"] },
  );
  const recorded = new Set(existing.map((t) => t.reference_id));
  const missing = captures.filter((c) => !recorded.has(c.id));
  if (missing.length === 0) return;
  await orders.addOrderTransactions(
    missing.map((capture) => ({
      order_id: orderId,
      amount: capture.raw_amount as BigNumberInput,
      currency_code: payment!.currency_code,
      reference: "capture",
      reference_id: capture.id,
    })),
  );
  await ctx.records.events.add({
    chargeId: row.charge_id,
    kind: "order_transaction_recorded",
    source: "reconcile",
    detail: { order_id: orderId, captures: missing.map((c) => c.id) },
  });
}
