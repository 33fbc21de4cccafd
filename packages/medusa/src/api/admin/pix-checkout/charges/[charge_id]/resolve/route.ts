import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http";
import { z } from "zod";
import { sendError } from "../../../../../../internal/platform/errors";
import { adminCharge, chargeOfRequest } from "../../../../../../internal/operations/admin-api";
import { settleContext } from "../../../../../../internal/settlement/context";

const bodySchema = z.object({ note: z.string().trim().min(1).max(500) });

/**
 * `POST /admin/pix-checkout/charges/:charge_id/resolve`: the merchant dealt with a flagged
 * charge ("Needs attention") and says how. Body: `{ note }`. The note and the time go on the
 * charge and its timeline; the charge leaves the list.
 */
export async function POST(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const ctx = settleContext(req.scope);
  const row = await chargeOfRequest(req, res, ctx);
  if (!row) return;
  const body = bodySchema.safeParse(req.body ?? {});
  if (!body.success) {
    sendError(res, "invalid_note", "Send { note }: one line saying how this was resolved.");
    return;
  }
  const resolved = await ctx.records.charges.resolveFlag(row.charge_id, body.data.note);
  if (resolved) {
    await ctx.records.events.add({
      chargeId: row.charge_id,
      kind: "flag_resolved",
      source: "admin",
      detail: { note: body.data.note },
    });
  }
  res.json({ resolved: Boolean(resolved), charge: adminCharge(resolved ?? row) });
}
