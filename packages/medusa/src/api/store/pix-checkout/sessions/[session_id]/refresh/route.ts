import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http";
import { redact } from "@pix-checkout/client";
import { settleCharge } from "../../../../../../internal/settlement/settle";
import { settleContext } from "../../../../../../internal/settlement/context";
import { loadSession, shopperView } from "../../../../../../internal/storefront/store-session";
import { sendError } from "../../../../../../internal/platform/errors";
import { ContainerRegistrationKeys } from "@medusajs/framework/utils";
import { streamOptions } from "../../../../../../internal/storefront/live-status/options";
import { clientOfRequest } from "../../../../../../internal/create-line/client-of-request";

/** How often a shopper may ask for an upstream re-check of one session. */
const REFRESH_INTERVAL_MS = 10_000;

/**
 * `POST /store/pix-checkout/sessions/:session_id/refresh` ("I already paid"): asks the
 * payment API about the charge through the same state machine as webhooks, then answers
 * the session object. At most once per 10 s per session, across all instances (the window
 * is a Postgres row); a faster call gets 429 `refresh_rate_limited` with `Retry-After`, and so
 * does any once its client (an address as `fairness` says it) has had
 * `stream.refreshesPerClientPerMinute` re-checks sent this minute, on any instance. Per client,
 * not per store: one client asking for many sessions spends its own re-checks, never another
 * shopper's.
 */
export async function POST(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  // Cross-origin storefronts must be able to read Retry-After.
  res.setHeader("Access-Control-Expose-Headers", "Retry-After");
  res.setHeader("Cache-Control", "no-store");
  const found = await loadSession(req, res);
  if (!found) return;
  // A code still being prepared has nothing to re-check at the service.
  if (!found.row) {
    res.json(found.queued);
    return;
  }
  const { sessionId, row, records } = found;
  const claim = await records.refreshWindows.claim(sessionId, REFRESH_INTERVAL_MS);
  if (!claim.allowed) {
    const seconds = Math.ceil(claim.retryAfterMs / 1000);
    res.setHeader("Retry-After", String(seconds));
    sendError(
      res,
      "refresh_rate_limited",
      `This payment was re-checked less than 10 s ago; try again in ${seconds} s.`,
    );
    return;
  }
  // A final charge cannot change upstream (paid is final; expired/failed stay so), so only
  // pending and locally canceled ones are worth a call.
  if (row.status === "pending" || row.status === "canceled") {
    // However many sessions it asks for, a client has at most its own re-checks a minute.
    const { refreshesPerClientPerMinute } = streamOptions(
      req.scope.resolve(ContainerRegistrationKeys.CONFIG_MODULE),
    );
    const clientClaim = await records.refreshWindows.claimForClient(
      clientOfRequest(req),
      refreshesPerClientPerMinute,
    );
    if (!clientClaim.allowed) {
      const seconds = Math.max(1, Math.ceil(clientClaim.retryAfterMs / 1000));
      res.setHeader("Retry-After", String(seconds));
      sendError(
        res,
        "refresh_rate_limited",
        `Many payments were re-checked from this address this minute; this one is still followed and shows up as soon as it is paid. Try again in ${seconds} s.`,
      );
      return;
    }
    const ctx = settleContext(req.scope);
    try {
      // Answered at the ledger's commit: Medusa's capture and the order follow on the stream.
      await settleCharge(ctx, row.charge_id, "refresh", undefined, { captureAfterAnswer: true });
    } catch (error) {
      ctx.logger.warn(
        `refresh of charge ${row.charge_id} failed: ${redact((error as Error).message ?? "")}`,
      );
      sendError(
        res,
        "payment_service_unavailable",
        "The payment service could not be reached to re-check this payment; try again shortly.",
      );
      return;
    }
  }
  const current = (await records.charges.bySessionId(sessionId)) ?? row;
  res.json(await shopperView(req.scope, current, sessionId));
}
