import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http";
import { z } from "zod";
import { sendError, sendRaised } from "../../../../../../internal/platform/errors";
import { adminCharge, chargeOfRequest } from "../../../../../../internal/operations/admin-api";
import { acceptReceivedAmount } from "../../../../../../internal/operations/accept-amount";
import { settleContext } from "../../../../../../internal/settlement/context";

const bodySchema = z.object({ note: z.string().trim().min(1).max(500) });

/**
 * `POST /admin/pix-checkout/charges/:charge_id/accept`: the merchant accepts the smaller
 * amount a held (underpaid) charge brought. Body: `{ note }`. The charge is captured for what
 * arrived; the acceptance and the note go on the timeline. 400 `charge_not_held` for any
 * charge that is not held.
 */
export async function POST(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const ctx = settleContext(req.scope);
  const row = await chargeOfRequest(req, res, ctx);
  if (!row) return;
  const body = bodySchema.safeParse(req.body ?? {});
  if (!body.success) {
    sendError(
      res,
      "invalid_note",
      "Send { note }: one line saying why the smaller amount is accepted.",
    );
    return;
  }
  try {
    const { row: accepted, capture } = await acceptReceivedAmount(ctx, row, body.data.note);
    const current = (await ctx.records.attention.withAttention(row.charge_id)) ?? accepted;
    res.json({ accepted: true, capture: capture.outcome, charge: adminCharge(current) });
  } catch (error) {
    sendRaised(res, error);
  }
}
