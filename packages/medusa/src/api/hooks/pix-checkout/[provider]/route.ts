import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http";
import { ContainerRegistrationKeys } from "@medusajs/framework/utils";
import { processDelivery } from "../../../../internal/settlement/process-delivery";
import { providerByKey } from "../../../../internal/platform/provider-registry";
import { settleContext } from "../../../../internal/settlement/context";
import {
  chargeIdOf,
  parseWebhookBody,
  readRawBody,
  tokenMatches,
  webhookTokenOf,
} from "../../../../internal/settlement/webhook-intake";
import { PixCheckoutError, sendError } from "../../../../internal/platform/errors";
import { BackgroundQueue } from "../../../../internal/platform/background";
import {
  annotate,
  inCurrentContext,
  recordWebhookLag,
  withSpan,
} from "../../../../internal/platform/telemetry";
import { keepSecretsOutOfHttpSpans } from "../../../../internal/platform/http-span-redaction";

/** How long an unmatched delivery waits before its in-process retries (the job retries later too). */
const UNMATCHED_RETRY_MS = [500, 2_000, 5_000];

/**
 * Background verifications per process; the rest wait their turn (they are already stored).
 * At most 1,000 wait in memory: past that a delivery stays stored as `received` and the
 * reconciliation job processes it, so a flood cannot grow the process without bound.
 */
const processing = new BackgroundQueue(4, 1_000);

// Medusa's HTTP span of this route would otherwise carry the URL's `?token=` to the exporter;
// routes load at boot, after instrumentation.ts registered the SDK.
keepSecretsOutOfHttpSpans();

/**
 * `POST /hooks/pix-checkout/:provider[?token=...]`: the one webhook URL for Pix and boleto
 * of a provider registration. Stores the delivery, answers 200, then verifies and applies
 * it. Bad token → 401 `webhook_unauthorized`; bad body → 400 `invalid_webhook`; unknown
 * registration → 404 `provider_not_found`. Only a valid delivery is stored.
 */
export function POST(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  return withSpan(
    "pix_checkout.webhook",
    { "pix_checkout.registration": String(req.params.provider ?? "").slice(0, 64) },
    () => intake(req, res),
    () => ({
      "pix_checkout.outcome": res.statusCode === 200 ? "stored" : `refused_${res.statusCode}`,
    }),
  );
}

async function intake(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const ctx = settleContext(req.scope);
  const configModule = req.scope.resolve(ContainerRegistrationKeys.CONFIG_MODULE);
  let provider;
  try {
    provider = providerByKey(configModule, String(req.params.provider ?? ""));
  } catch (error) {
    if (!(error instanceof PixCheckoutError)) throw error;
    sendError(res, "provider_not_found", error.message);
    return;
  }
  const secret = provider.options.webhookSecret;
  if (secret && !tokenMatches(webhookTokenOf(req) ?? req.query.token, secret)) {
    ctx.logger.warn(
      `rejected a webhook for provider ${provider.key} with a missing or wrong token`,
    );
    sendError(
      res,
      "webhook_unauthorized",
      "The webhook URL's token is missing or wrong; use the URL with ?token= from your setup.",
    );
    return;
  }
  const raw = await readRawBody(req);
  if (raw === "too_large") {
    sendError(res, "payload_too_large", "Webhook bodies are at most 64 KiB.");
    return;
  }
  let event;
  try {
    event = await parseWebhookBody(raw);
  } catch (error) {
    // The client's WebhookParseError (with field issues) or the intake's own refusal; both
    // are `invalid_webhook`.
    const err = error as { message?: string; issues?: unknown };
    ctx.logger.warn(
      `rejected a malformed webhook for provider ${provider.key}: ${err.message ?? ""}`,
    );
    sendError(
      res,
      "invalid_webhook",
      err.message ?? "Webhook body is not a valid event.",
      err.issues ? { issues: err.issues } : {},
    );
    return;
  }
  recordWebhookLag(event, provider.key);
  const deliveryId = await ctx.records.deliveries.insert({
    providerKey: provider.key,
    event: event.event,
    chargeId: chargeIdOf(event),
    body: event,
  });
  annotate({
    "pix_checkout.event": event.event,
    "pix_checkout.charge_id": chargeIdOf(event),
    "pix_checkout.delivery_id": deliveryId,
  });
  res.status(200).json({ received: true, id: deliveryId });

  // After the answer: the service only needs to know the delivery is safe.
  const run = async (attempt: number): Promise<void> => {
    const outcome = await processDelivery(ctx, deliveryId, provider, event);
    const delay = UNMATCHED_RETRY_MS[attempt];
    if (outcome === "unmatched" && delay !== undefined) {
      setTimeout(() => processing.push(() => run(attempt + 1)), delay).unref();
    }
  };
  if (!processing.push(inCurrentContext(() => run(0)))) {
    ctx.logger.warn(
      `webhook delivery ${deliveryId} is stored but this process is busy; the reconciliation job will process it`,
    );
  }
}
