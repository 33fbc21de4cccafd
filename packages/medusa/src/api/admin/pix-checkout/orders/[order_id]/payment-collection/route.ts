import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http";
import { ContainerRegistrationKeys } from "@medusajs/framework/utils";
import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import { z } from "zod";
import { sendError, sendRaised } from "../../../../../../internal/platform/errors";
import { chargeOrderByPix } from "../../../../../../internal/operations/order-outstanding";

const paramsSchema = z.object({ order_id: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/) });

/**
 * `POST /admin/pix-checkout/orders/:order_id/payment-collection` ("Cobrar por Pix"): gives an
 * order that owes money and has no collection to pay it (a converted draft order) one for what
 * Medusa says it owes, through Medusa's own workflow. No body: the amount is never the
 * admin's. Answers `{ outstanding }` with the new collection and its link; `409
 * collection_exists` or `nothing_owed` otherwise.
 */
export async function POST(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const parsed = paramsSchema.safeParse(req.params);
  if (!parsed.success) {
    sendError(res, "invalid_order_id", "order_id must be an order id such as order_01H....");
    return;
  }
  try {
    const outstanding = await chargeOrderByPix(
      req.scope,
      req.scope.resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION),
      req.scope.resolve(ContainerRegistrationKeys.CONFIG_MODULE),
      parsed.data.order_id,
    );
    res.json({ outstanding });
  } catch (error) {
    sendRaised(res, error);
  }
}
