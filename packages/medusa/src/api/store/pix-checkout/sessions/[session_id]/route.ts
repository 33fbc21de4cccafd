import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http";
import { liveStatus } from "../../../../../internal/storefront/live-status";
import { loadSession, shopperView } from "../../../../../internal/storefront/store-session";

/**
 * `GET /store/pix-checkout/sessions/:session_id`: the whitelisted session object. Served from
 * the plugin's charge table only (webhooks and reconciliation keep it current), so however
 * often shoppers poll, the payment API is never called from here. Rows are cached in
 * memory only while this instance LISTENs to the table's change notices, which evict them.
 * Reading changes nothing: the page says it shows the code with `POST …/shown`.
 */
export async function GET(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const { hub } = liveStatus(req.scope);
  const found = await loadSession(req, res, (sessionId) => hub.read(sessionId));
  if (!found) return;
  res.setHeader("Cache-Control", "no-store");
  res.json(found.row ? await shopperView(req.scope, found.row, found.sessionId) : found.queued);
}
