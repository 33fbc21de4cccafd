import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http";
import { ContainerRegistrationKeys } from "@medusajs/framework/utils";
import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import { z } from "zod";
import { sendError } from "../../../../internal/platform/errors";
import { adminCharge } from "../../../../internal/operations/admin-api";
import { recordsOf } from "../../../../internal/records/records";
import { ordersOfCharges } from "../../../../internal/medusa/charge-orders";
import { ordersWithoutCode } from "../../../../internal/medusa/orders-without-code";
import { refundPortions } from "../../../../internal/settlement/refund-portions";
import { moneyOf } from "../../../../internal/records/ledger-parts";

const querySchema = z.object({
  needs_attention: z.enum(["true"]).optional(),
  status: z.enum(["pending", "paid", "expired", "failed", "canceled"]).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

/**
 * `GET /admin/pix-checkout/charges[?needs_attention=true][&status=paid][&limit=50]`: the
 * newest charges of every registration. `needs_attention=true` is the merchant's "Needs
 * attention" list, read from where each charge's money stands and then its open note
 * (records/attention.ts `Attention`): held, a refund due, captured without an order, paid and
 * not captured, or an open note; charges whose cart never became an order are here too (no
 * order page shows those). Each charge carries its `attention` and its `order`
 * (`{ id, display_id, email, customer_name }`) or null. With `needs_attention=true`,
 * `orders_without_code` lists the orders the merchant keeps whose code could never be made
 * (medusa/orders-without-code.ts). A paid charge carries `refund_portions`: what a refund
 * recorded now would take, in order, and whether each part is money Medusa captured (recorded
 * as a refund on Medusa's payment too) or not (the plugin's ledger only), with why
 * (settlement/refund-portions.ts; the refund route splits the same way).
 */
export async function GET(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const parsed = querySchema.safeParse(req.query);
  if (!parsed.success) {
    sendError(
      res,
      "invalid_query",
      "Use needs_attention=true, status=pending|paid|expired|failed|canceled and limit from 1 to 200.",
    );
    return;
  }
  const { needs_attention, status, limit } = parsed.data;
  const db = req.scope.resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION);
  const records = recordsOf(db);
  const rows =
    needs_attention === "true"
      ? await records.attention.needingAttention(limit)
      : await records.attention.list({ ...(status ? { status } : {}), limit });
  const paid = rows.filter((row) => row.status === "paid").map((row) => row.charge_id);
  const [orders, owedInMedusa] = await Promise.all([
    ordersOfCharges(req.scope, rows),
    records.ledger.owedInMedusaOf(paid),
  ]);
  res.json({
    charges: rows.map((row) => ({
      ...adminCharge(row),
      order: orders.get(row.charge_id) ?? null,
      refund_portions:
        row.status === "paid"
          ? refundPortions(moneyOf(row), owedInMedusa.get(row.charge_id) ?? 0)
          : [],
    })),
    ...(needs_attention === "true"
      ? { orders_without_code: await ordersWithoutCode(db, limit) }
      : {}),
  });
}
