import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http";
import { z } from "zod";
import { sendError, sendRaised } from "../../../../../../internal/platform/errors";
import { adminCharge, chargeOfRequest } from "../../../../../../internal/operations/admin-api";
import { markMed } from "../../../../../../internal/operations/med";
import { settleContext } from "../../../../../../internal/settlement/context";

const bodySchema = z.object({
  protocol: z.string().trim().min(1).max(100),
  deadline: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .refine(
      (day) =>
        !Number.isNaN(Date.parse(`${day}T12:00:00Z`)) &&
        new Date(`${day}T12:00:00Z`).toISOString().startsWith(day),
    ),
  amount: z.number().int().positive(),
});

/**
 * `POST /admin/pix-checkout/charges/:charge_id/med` ("Registrar MED"): a notificação de
 * infração of the MED blocked `amount` cents of this charge's captured money (bloqueio
 * cautelar). Body: `{ protocol, deadline, amount }`: the notification's protocol number, the
 * date (`YYYY-MM-DD`) by which the institution decides, the amount in integer cents. The money
 * moves from `captured` to `contested` (not income) until the outcome
 * (`POST .../med/outcome`); docs/ledger.md, "Pix returned by the MED".
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
      "Send { protocol, deadline, amount }: the notification's protocol number, the deadline as YYYY-MM-DD, and the amount blocked in integer cents (e.g. 4990 for R$ 49,90).",
    );
    return;
  }
  try {
    await markMed(ctx, row, {
      protocol: body.data.protocol,
      deadline: body.data.deadline,
      amountCents: body.data.amount,
    });
    const current = (await ctx.records.attention.withAttention(row.charge_id)) ?? row;
    res.json({ charge: adminCharge(current) });
  } catch (error) {
    sendRaised(res, error);
  }
}
