import { processPaymentWorkflow } from "@medusajs/medusa/core-flows";
import { Modules, PaymentActions } from "@medusajs/framework/utils";
import type { IPaymentModuleService, MedusaContainer } from "@medusajs/framework/types";
import { redact } from "@pix-checkout/client";
import type { ChargeRow } from "../records/charges";
import { CAPTURE_ATTEMPTS } from "../records/capture-claims";
import type { LifecycleSource } from "../records/charge-lifecycle";
import { Outbox } from "../records/outbox";
import { fromCents, toCents } from "../platform/money";
import { workerModeOf, type SettleContext } from "./context";
import { chargeAttributes, recordCaptureLag, withSpan } from "../platform/telemetry";
import { PixCheckoutError } from "../platform/errors";
import { DELIVERY_DETAILS } from "./delivery-details";
import { heldSession, type HeldSession } from "../medusa/payments";
import { readMedusaSide } from "../medusa/collection-snapshot";
import type { ClaimHolder } from "../records/claim-door";
import { paymentsOf } from "./snapshot";
import { captureSessionOf } from "./session-answer";

/** Result of a capture. */
export interface CaptureResult {
  outcome: "processed" | "duplicate";
  detail?: string;
}

/**
 * The right to capture a charge, taken under its collection's lock (collection.ts): `medusa`
 * when Medusa already holds a capture the ledger has not recorded (cart completion made it;
 * only recording it, under its own id, is left), else the holder of the capture claim, which
 * only its holder releases.
 */
export type CaptureClaim =
  { medusa: true; captureId: string } | { medusa: false; holder: ClaimHolder };

/**
 * Makes `amountCents` of a charge's held money a captured Medusa payment on its order, exactly
 * once, and records it in the ledger with the capture's follow-ups (the outbox) in one
 * statement. Needs no call to the payment service (paid is final), so reconciliation uses it
 * for stuck captures. Without `claim` another door holds the capture: nothing is done here.
 *
 * Medusa may already have captured it: when `authorizePayment` answers `captured` (the shopper
 * paid before completing the cart), Medusa captures inside cart completion, under a claim that
 * `authorizePayment` took. Once that claim is released by its lease, the capture is recorded
 * here from Medusa's own payment rather than made again.
 */
export function captureOnce(
  ctx: SettleContext,
  row: ChargeRow,
  source: LifecycleSource,
  amountCents: number,
  claim: CaptureClaim | undefined,
): Promise<CaptureResult> {
  if (!claim) {
    return Promise.resolve({ outcome: "duplicate", detail: DELIVERY_DETAILS.capturingElsewhere });
  }
  return withSpan(
    "pix_checkout.capture",
    { ...chargeAttributes(row), "pix_checkout.source": source },
    () => capture(ctx, row, source, amountCents, claim),
    (result) => ({ "pix_checkout.outcome": result.outcome }),
  );
}

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
  let captureId: string;
  if (claim.medusa) {
    // Cart completion captured it (authorizePayment answered `captured`): record what Medusa
    // holds, under that capture's id; nothing is captured again.
    capturedBy = "cart completion";
    captureId = claim.captureId;
  } else {
    const { holder } = claim;
    try {
      await medusaCapture(ctx.container, sessionId, amountCents);
      // The workflow's steps are conditional and can end without capturing anything, so only
      // a capture of Medusa's own that no ledger entry names yet counts as done.
      const made = await unrecordedCaptureOf(ctx, row, sessionId);
      if (!made) {
        throw new PixCheckoutError(
          "capture_not_recorded",
          `Medusa holds no new capture for session ${sessionId} after processPaymentWorkflow`,
        );
      }
      captureId = made;
    } catch (error) {
      // Give the claim back so the next delivery or the reconciliation job captures it.
      await records.captures.release(chargeId, holder);
      await recordCaptureFailure(ctx, row, source, error);
      throw error;
    }
  }
  const captured = await records.ledger.capture(
    chargeId,
    amountCents,
    source,
    Outbox.rowsOf(chargeId),
    captureId,
  );
  if (!captured) {
    // Our lease lapsed mid-capture and a later holder recorded it first.
    return { outcome: "duplicate", detail: DELIVERY_DETAILS.alreadyCaptured };
  }
  recordCaptureLag(row, source, capturedBy);
  await records.events.add({
    chargeId,
    kind: "captured",
    source,
    detail: {
      session_id: sessionId,
      by: capturedBy,
      amount_cents: amountCents,
      capture_id: captureId,
      instance: workerModeOf(ctx.container),
    },
  });
  logger.info(`captured charge ${chargeId} (session ${sessionId}, by ${capturedBy})`);
  return { outcome: "processed" };
}

/**
 * Medusa's capture of `amountCents` on a session, through its own `processPaymentWorkflow`
 * (which authorizes the session, captures the payment and, for a cart that is no order yet,
 * completes it). The payment is made for exactly what is captured: a charge the merchant
 * accepted for less first restates its session at what arrived, so Medusa holds a payment of
 * what arrived, captured whole, and the order shows the rest outstanding with no Capture left
 * that could record money that never came. The session's own raw amount is used otherwise: the
 * charge is that amount rounded half-up to the cent (see toCents), and capturing the rounded
 * cents of a total with a fraction of a cent would leave the order a fraction short or over.
 */
async function medusaCapture(
  container: MedusaContainer,
  sessionId: string,
  amountCents: number,
): Promise<void> {
  const session = await sessionOf(container, sessionId);
  let amount: string = session.rawAmount;
  if (amountCents < toCents(session.rawAmount)) {
    const payments = container.resolve<IPaymentModuleService>(Modules.PAYMENT);
    await payments.updatePaymentSession({
      id: sessionId,
      amount: fromCents(amountCents),
      currency_code: session.currencyCode,
      data: session.data,
    });
    amount = fromCents(amountCents).toString();
  }
  await processPaymentWorkflow(container).run({
    input: { action: PaymentActions.SUCCESSFUL, data: { session_id: sessionId, amount } },
  });
}

/**
 * The id of a capture Medusa holds on the session that no ledger entry names (the one just
 * made), read as every decision reads the collection (snapshot.ts `paymentsOf`).
 */
async function unrecordedCaptureOf(
  ctx: SettleContext,
  row: ChargeRow,
  sessionId: string,
): Promise<string | undefined> {
  if (!row.payment_collection_id) return undefined;
  const medusa = await readMedusaSide(ctx.db, row.payment_collection_id);
  const { rows, captures } = await ctx.records.collectionMoney.ofCollection(
    row.payment_collection_id,
  );
  return paymentsOf(ctx.config, medusa, rows, captures)
    .filter((payment) => payment.sessionId === sessionId && !payment.canceled)
    .flatMap((payment) => payment.captures)
    .find((capture) => !capture.recorded)?.id;
}

/**
 * Puts a failed capture on the timeline. After `CAPTURE_ATTEMPTS` failures the charge is
 * flagged for the merchant (money arrived, Medusa could not record it) and listed; reconciliation
 * goes on trying it, further apart each time (records/capture-claims.ts `captureRetryDelayMs`),
 * until it lands or the merchant decides. A new delivery or the admin's re-check tries at once.
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

/** A payment session as Medusa holds it; a session Medusa no longer has cannot be captured. */
async function sessionOf(container: MedusaContainer, sessionId: string): Promise<HeldSession> {
  const session = await heldSession(container, sessionId);
  if (!session) {
    throw new PixCheckoutError(
      "session_not_found",
      `Payment session ${sessionId} no longer exists.`,
    );
  }
  return session;
}
