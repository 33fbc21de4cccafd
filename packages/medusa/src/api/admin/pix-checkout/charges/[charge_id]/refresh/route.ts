import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http";
import {
  adminCharge,
  chargeOfRequest,
  sendUpstreamError,
} from "../../../../../../internal/operations/admin-api";
import { settleCharge } from "../../../../../../internal/settlement/settle";
import { settleContext } from "../../../../../../internal/settlement/context";

/**
 * `POST /admin/pix-checkout/charges/:charge_id/refresh` ("Re-check now"): asks the payment
 * API about the charge through the same state machine as webhooks and answers the charge
 * with what was decided (`outcome`: processed, duplicate, ...).
 */
export async function POST(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const ctx = settleContext(req.scope);
  const found = await chargeOfRequest(req, res, ctx);
  if (!found) return;
  const chargeId = found.charge_id;
  try {
    const result = await settleCharge(ctx, chargeId, "refresh");
    const row = await ctx.records.attention.withAttention(chargeId);
    res.json({
      outcome: result.outcome,
      detail: result.detail ?? null,
      charge: row ? adminCharge(row) : null,
    });
  } catch (error) {
    sendUpstreamError(res, error);
  }
}
