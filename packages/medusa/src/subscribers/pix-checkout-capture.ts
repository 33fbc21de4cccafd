import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework";
import { redact } from "@pix-checkout/client";
import { CHARGE_EVENTS, type ChargeEventData } from "../internal/records/charge-lifecycle";
import { settlePaid } from "../internal/settlement/settle";
import { settleContext } from "../internal/settlement/context";

/**
 * Captures a paid charge that a server-only instance handed over: that instance confirmed the
 * payment and streamed it to the shopper, and Medusa's capture and cart completion run here, on
 * the worker, unless the collection says the payment is a refund due. `captureOnce` claims the capture, so a redelivered event, or a capture already
 * made elsewhere, changes nothing. A failure is on the charge's timeline and the
 * reconciliation job retries it.
 */
export default async function pixCheckoutCapture({
  event,
  container,
}: SubscriberArgs<ChargeEventData>): Promise<void> {
  const ctx = settleContext(container);
  const row = await ctx.records.charges.byChargeId(event.data.charge_id);
  if (!row || row.status !== "paid" || Number(row.held_cents) === 0) return;
  try {
    await settlePaid(ctx, row, event.data.source);
  } catch (error) {
    ctx.logger.warn(
      `charge ${row.charge_id} is paid but its capture failed; the reconciliation job retries it: ${redact((error as Error).message ?? String(error))}`,
    );
  }
}

export const config: SubscriberConfig = { event: CHARGE_EVENTS.captureRequested };
