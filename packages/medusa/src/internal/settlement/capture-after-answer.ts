import { redact } from "@pix-checkout/client";
import { BackgroundQueue } from "../platform/background";
import type { LifecycleSource } from "../records/charge-lifecycle";
import type { SettleContext } from "./context";
import { settleAndFollow } from "./follow-ups";

/**
 * Captures running after the answer of the door that recorded their payment, per process. Two
 * at a time: a capture and its cart completion are the heaviest work of a checkout, and more at
 * once would slow the requests this instance still answers. At most 1,000 wait: past that a
 * paid charge is left to reconciliation, which captures every paid charge still held.
 */
const afterAnswer = new BackgroundQueue(2, 1_000);

/**
 * Medusa's side of a paid charge (its capture, its cart becoming an order, their follow-ups),
 * after the door that recorded the payment answered. For a door someone waits on to see the
 * payment (the shopper's "I already paid"): the ledger already holds the payment and the
 * shopper's stream already shows it; the order's news follows on the stream when this is done.
 * A failure is on the charge's timeline and reconciliation retries it, as for any capture.
 */
export function captureAfterAnswer(
  ctx: SettleContext,
  chargeId: string,
  source: LifecycleSource,
): void {
  afterAnswer.push(async () => {
    try {
      await settleAndFollow(ctx, chargeId, source);
    } catch (error) {
      ctx.logger.warn(
        `charge ${chargeId} is paid but its capture failed; the reconciliation job retries it: ${redact((error as Error)?.message ?? String(error))}`,
      );
    }
  });
}
