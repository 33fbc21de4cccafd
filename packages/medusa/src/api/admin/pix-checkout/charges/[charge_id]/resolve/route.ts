import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http";
import { z } from "zod";
import { sendError } from "../../../../../../internal/errors";
import { adminCharge } from "../../../../../../internal/admin-api";
import { settleContext } from "../../../../../../internal/settle-context";

const paramsSchema = z.object({ charge_id: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/) });
const bodySchema = z.object({ note: z.string().trim().min(1).max(500) });

/**
 * `POST /admin/pix-checkout/charges/:charge_id/resolve`: the merchant dealt with a flagged
 * charge ("Needs attention") and says how. Body: `{ note }`. The note and the time go on the
 * charge and its timeline; the charge leaves the list.
 */
export async function POST(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const params = paramsSchema.safeParse(req.params);
  if (!params.success) {
    sendError(res, "invalid_charge_id", "charge_id must be a charge id of the payment service.");
    return;
  }
  const body = bodySchema.safeParse(req.body ?? {});
  if (!body.success) {
    sendError(res, "invalid_note", "Send { note }: one line saying how this was resolved.");
    return;
  }
  const ctx = settleContext(req.scope);
  const row = await ctx.store.byChargeId(params.data.charge_id);
  if (!row) {
    sendError(
      res,
      "charge_not_found",
      `No charge ${params.data.charge_id} is known to this store.`,
    );
    return;
  }
  const resolved = await ctx.store.resolveFlag(row.charge_id, body.data.note);
  if (resolved) {
    await ctx.store.addEvent({
      chargeId: row.charge_id,
      kind: "flag_resolved",
      source: "admin",
      detail: { note: body.data.note },
    });
  }
  res.json({ resolved: Boolean(resolved), charge: adminCharge(resolved ?? row) });
}
