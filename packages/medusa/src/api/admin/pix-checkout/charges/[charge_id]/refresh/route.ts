import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http";
import { z } from "zod";
import { sendError } from "../../../../../../internal/errors";
import { adminCharge, sendUpstreamError } from "../../../../../../internal/admin-api";
import { settleCharge } from "../../../../../../internal/settle";
import { settleContext } from "../../../../../../internal/settle-context";

const paramsSchema = z.object({ charge_id: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/) });

/**
 * `POST /admin/pix-checkout/charges/:charge_id/refresh` ("Re-check now"): asks the payment
 * API about the charge through the same state machine as webhooks and answers the charge
 * with what was decided (`outcome`: processed, duplicate, ...).
 */
export async function POST(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const parsed = paramsSchema.safeParse(req.params);
  if (!parsed.success) {
    sendError(res, "invalid_charge_id", "charge_id must be a charge id of the payment service.");
    return;
  }
  const ctx = settleContext(req.scope);
  const chargeId = parsed.data.charge_id;
  if (!(await ctx.store.byChargeId(chargeId))) {
    sendError(res, "charge_not_found", `No charge ${chargeId} is known to this store.`);
    return;
  }
  try {
    const result = await settleCharge(ctx, chargeId, "refresh");
    const row = await ctx.store.byChargeId(chargeId);
    res.json({
      outcome: result.outcome,
      detail: result.detail ?? null,
      charge: row ? adminCharge(row) : null,
    });
  } catch (error) {
    sendUpstreamError(res, error);
  }
}
