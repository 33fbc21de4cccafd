import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http";
import { z } from "zod";
import { sendError, sendRaised } from "../../../../../../internal/platform/errors";
import { adminCharge, chargeOfRequest } from "../../../../../../internal/operations/admin-api";
import { recordMerchantRefund } from "../../../../../../internal/operations/merchant-refund";
import { settleContext } from "../../../../../../internal/settlement/context";

const bodySchema = z.object({
  amount: z.number().int().positive(),
  note: z.string().trim().min(1).max(500),
});

/**
 * `POST /admin/pix-checkout/charges/:charge_id/refunds` ("Record refund"): the merchant
 * returned `amount` cents to the shopper in the payment service's dashboard (the API has no
 * refund endpoint). Records it on the charge's timeline and as a refund in Medusa, and
 * resolves a "refund due" that is now fully returned. Body: `{ amount, note }`.
 */
export async function POST(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const ctx = settleContext(req.scope);
  const row = await chargeOfRequest(req, res, ctx);
  if (!row) return;
  const body = bodySchema.safeParse(req.body ?? {});
  if (!body.success) {
    sendError(
      res,
      "invalid_refund",
      "Send { amount, note }: amount in integer cents (e.g. 4990 for R$ 49,90) and a note saying how the money was returned.",
    );
    return;
  }
  try {
    const result = await recordMerchantRefund(ctx, row, body.data.amount, body.data.note);
    const current = (await ctx.records.attention.withAttention(row.charge_id)) ?? row;
    res.json({ ...result, charge: adminCharge(current) });
  } catch (error) {
    sendRaised(res, error);
  }
}
