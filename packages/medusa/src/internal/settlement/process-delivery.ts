import type { ChargeStatus } from "../platform/status";
import { clientFor, type RegisteredProvider } from "../platform/provider-registry";
import { settleCharge } from "./settle";
import type { SettleContext } from "./context";
import { chargeIdOf, type ParsedWebhook } from "./webhook-intake";
import { redact } from "@pix-checkout/client";
import { DELIVERY_DETAILS } from "./delivery-details";

/**
 * API reads a Variant B delivery naming an unknown `uuid` may cost: its first try only. Anyone
 * can post deliveries (a store without `webhookSecret` in development), so one that names no
 * charge of this store costs one read at most, then only its few database retries.
 */
const UNMATCHED_LOOKUPS = 1;

/**
 * Processes one stored delivery: charge events go through the state machine (fetch-back
 * first), transfer events are verified and recorded. The outcome is written back on the
 * delivery; `unmatched` and `error` deliveries are retried by the reconciliation job.
 */
export async function processDelivery(
  ctx: SettleContext,
  deliveryId: string,
  provider: RegisteredProvider,
  event: ParsedWebhook,
): Promise<string> {
  const { records, logger } = ctx;
  try {
    const chargeId = chargeIdOf(event);
    if (!chargeId) {
      const client = await clientFor(provider, logger);
      const verification = await client.verifyWebhook(event);
      const detail = verification.verified
        ? DELIVERY_DETAILS.verified
        : DELIVERY_DETAILS.notConfirmed(String(verification.status));
      await records.deliveries.finish(deliveryId, "recorded", detail);
      return "recorded";
    }
    const claim = { status: event.data.status as ChargeStatus, amountCents: event.data.amount };
    let result = await settleCharge(ctx, chargeId, "webhook", claim);
    let resolvedId: string | undefined;
    if (
      result.outcome === "unmatched" &&
      provider.options.variant === "b" &&
      (await records.deliveries.attempts(deliveryId)) < UNMATCHED_LOOKUPS
    ) {
      // The spec's charge.paid names the charge by `uuid`, also in Variant B, whose charges
      // the plugin knows by `id` (ch_svc_...). Variant B's read accepts the UUID: ask it which
      // charge that is, then settle that one. A few times per delivery at most: retries of a
      // uuid no charge of this store has would otherwise ask on every one.
      const client = await clientFor(provider, logger);
      const charge = await client.charges.retrieve(chargeId).catch(() => null);
      if (charge && charge.id !== chargeId) {
        resolvedId = charge.id;
        result = await settleCharge(ctx, charge.id, "webhook", claim);
      }
    }
    // Kept under the charge's own id once the API named it, like a Variant A delivery: the
    // order's timeline and retention find a charge's deliveries by that id.
    await records.deliveries.finish(deliveryId, result.outcome, result.detail, resolvedId);
    if (result.outcome === "unmatched") {
      // Either the webhook beat the provider's mapping (it is retried) or it names a charge
      // this store never created (it changes nothing).
      logger.warn(
        `webhook ${event.event} names charge ${chargeId}, which no payment session knows yet; kept and retried`,
      );
    }
    return result.outcome;
  } catch (error) {
    const message = redact((error as Error).message ?? String(error));
    logger.error(
      `webhook delivery ${deliveryId} failed; the reconciliation job will retry it: ${message}`,
    );
    await records.deliveries.finish(deliveryId, "error", message).catch(() => undefined);
    return "error";
  }
}
