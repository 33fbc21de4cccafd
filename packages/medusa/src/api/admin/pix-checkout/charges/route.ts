import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http";
import { ContainerRegistrationKeys } from "@medusajs/framework/utils";
import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import { z } from "zod";
import { sendError } from "../../../../internal/platform/errors";
import { adminCharge } from "../../../../internal/operations/admin-api";
import { recordsOf } from "../../../../internal/records/records";
import { ordersOfCharges } from "../../../../internal/medusa/charge-orders";

const querySchema = z.object({
  flagged: z.enum(["true", "false"]).optional(),
  status: z.enum(["pending", "paid", "expired", "failed", "canceled"]).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

/**
 * `GET /admin/pix-checkout/charges[?flagged=true][&status=paid][&limit=50]`: the newest
 * charges of every registration. `flagged=true` is the merchant's "needs attention" list:
 * money that arrived late, after the order was canceled, or that Medusa could not capture,
 * including charges whose cart never became an order (no order page shows those). Each
 * charge carries its `order` (`{ id, display_id, email, customer_name }`) or null.
 */
export async function GET(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const parsed = querySchema.safeParse(req.query);
  if (!parsed.success) {
    sendError(
      res,
      "invalid_query",
      "Use flagged=true|false, status=pending|paid|expired|failed|canceled and limit from 1 to 200.",
    );
    return;
  }
  const { flagged, status, limit } = parsed.data;
  const records = recordsOf(req.scope.resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION));
  const rows = await records.charges.list({
    ...(flagged === undefined ? {} : { flagged: flagged === "true" }),
    ...(status ? { status } : {}),
    limit,
  });
  const orders = await ordersOfCharges(req.scope, rows);
  res.json({
    charges: rows.map((row) => ({ ...adminCharge(row), order: orders.get(row.charge_id) ?? null })),
  });
}
