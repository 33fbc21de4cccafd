import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http";
import { z } from "zod";
import { sendError, sendRaised } from "../../../../../../../internal/platform/errors";
import { adminCharge, chargeOfRequest } from "../../../../../../../internal/operations/admin-api";
import { recordMedOutcome } from "../../../../../../../internal/operations/med";
import { settleContext } from "../../../../../../../internal/settlement/context";

const bodySchema = z.discriminatedUnion("outcome", [
  z.object({ outcome: z.literal("kept") }),
  z.object({ outcome: z.literal("returned"), amount: z.number().int().positive().optional() }),
]);

/**
 * `POST /admin/pix-checkout/charges/:charge_id/med/outcome`: the MED of this charge ended.
 * `{ outcome: "kept" }` ("Mantido": the infraction was judged improcedente, the block lifted)
 * makes the blocked money captured again; `{ outcome: "returned", amount? }` ("Devolvido pelo
 * MED") returns what the MED returned (all of the blocked amount unless `amount` says less, in
 * integer cents), recorded in Medusa as a refund of the order, and the rest is captured again.
 * 409 `med_not_open` when no MED is open (a second outcome moves nothing).
 */
export async function POST(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const ctx = settleContext(req.scope);
  const row = await chargeOfRequest(req, res, ctx);
  if (!row) return;
  const body = bodySchema.safeParse(req.body ?? {});
  if (!body.success) {
    sendError(
      res,
      "invalid_med",
      'Send { outcome: "kept" } when the block was lifted, or { outcome: "returned", amount? } when the MED returned the money (amount in integer cents; all of it when left out).',
    );
    return;
  }
  try {
    const result = await recordMedOutcome(
      ctx,
      row,
      body.data.outcome === "kept"
        ? { outcome: "kept" }
        : { outcome: "returned", amountCents: body.data.amount },
    );
    const current = (await ctx.records.attention.withAttention(row.charge_id)) ?? row;
    res.json({ ...result, charge: adminCharge(current) });
  } catch (error) {
    sendRaised(res, error);
  }
}
