import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http";
import { ContainerRegistrationKeys } from "@medusajs/framework/utils";
import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import { readOverview } from "../../../../internal/operations/overview";

/**
 * `GET /admin/pix-checkout/overview`: the first screen's money. What came in today, in 7 and
 * in 30 São Paulo days, by Pix and by boleto, in integer cents; codes shown and paid; the
 * median time to pay; each of the last 30 days for the charts; and how many charges wait for
 * the merchant. Read from the plugin's tables; nothing here calls the payment service.
 */
export async function GET(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const db = req.scope.resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION);
  res.setHeader("Cache-Control", "no-store");
  res.json(await readOverview(db));
}
