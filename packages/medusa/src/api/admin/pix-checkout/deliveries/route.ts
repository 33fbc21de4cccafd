import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http";
import { ContainerRegistrationKeys } from "@medusajs/framework/utils";
import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import { z } from "zod";
import { sendError } from "../../../../internal/platform/errors";
import { adminDelivery } from "../../../../internal/operations/admin-api";
import { recordsOf } from "../../../../internal/records/records";

const querySchema = z.object({ limit: z.coerce.number().int().min(1).max(200).default(50) });

/**
 * `GET /admin/pix-checkout/deliveries[?limit=50]`: the newest webhook deliveries with their
 * verification outcome (`processed`, `duplicate`, `forged`, `unmatched`, `recorded`,
 * `error`, or `received` while in flight), from the plugin's table.
 */
export async function GET(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const parsed = querySchema.safeParse(req.query);
  if (!parsed.success) {
    sendError(res, "invalid_limit", "limit must be an integer from 1 to 200.");
    return;
  }
  const records = recordsOf(req.scope.resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION));
  const rows = await records.deliveries.latest(parsed.data.limit);
  res.json({ deliveries: rows.map(adminDelivery) });
}
