import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http";
import { z } from "zod";
import { sendError } from "../../../../../../internal/platform/errors";
import { adminCharge, chargeOfRequest } from "../../../../../../internal/operations/admin-api";
import { settleContext } from "../../../../../../internal/settlement/context";

const bodySchema = z.object({ note: z.string().trim().min(1).max(500) });

/** What the merchant does instead of resolving, per money state (records/attention.ts `Attention`). */
const MONEY_ACTION = {
  held: "This charge holds a payment smaller than its code asked for: accept the received amount, or return it and record the refund. Resolving cannot close it.",
  refund_due:
    "This charge holds money no order can come of: return it in the payment service's dashboard and record the refund. Resolving cannot close it.",
  no_order:
    "This charge is captured and its cart is not an order yet: re-check it (the cart is completed again), or return the money and record the refund.",
  not_captured:
    "This charge is paid and not captured yet: re-check it (the capture is tried again), or return the money and record the refund.",
  med: "A MED blocked this charge's money (bloqueio cautelar): once the institution decides, record the outcome (Devolvido pelo MED, or Mantido). Resolving cannot close it.",
} as const;

/**
 * `POST /admin/pix-checkout/charges/:charge_id/resolve`: the merchant dealt with a charge's
 * note ("Needs attention") and says how. Body: `{ note }`. The note and the time go on the
 * charge and its timeline. Money that waits for the merchant (held, a refund due, not yet
 * captured, captured without an order) cannot be resolved away: 409 `charge_needs_decision`
 * says what to do instead.
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
  // A note can be resolved; money cannot: a held payment or a refund due leaves the list by
  // the merchant's decision on the money, a capture or an order by being made.
  const attention = await ctx.records.attention.attentionOf(row.charge_id);
  if (attention && attention !== "note") {
    sendError(res, "charge_needs_decision", MONEY_ACTION[attention], { attention });
    return;
  }
  const resolved = await ctx.records.notes.resolveFlag(row.charge_id, body.data.note);
  if (resolved) {
    await ctx.records.events.add({
      chargeId: row.charge_id,
      kind: "flag_resolved",
      source: "admin",
      detail: { note: body.data.note },
    });
  }
  const current = (await ctx.records.attention.withAttention(row.charge_id)) ?? row;
  res.json({ resolved: Boolean(resolved), charge: adminCharge(current) });
}
