import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http";
import { z } from "zod";
import { orderForShopper } from "../../../../../internal/medusa/collection-links";
import { sendError } from "../../../../../internal/platform/errors";
import { servesChannel } from "../../../../../internal/storefront/store-session";
import { orderView } from "../../../../../internal/storefront/order-view";
import { orderPaymentState } from "../../../../../internal/medusa/order-payment";

// Medusa order ids are `order_` + a ULID; anything else is refused before any read.
const paramsSchema = z.object({ order_id: z.string().regex(/^order_[A-Za-z0-9]{1,64}$/) });

/**
 * `GET /store/pix-checkout/orders/:order_id`: what the order's page tells the shopper of its
 * Pix and boleto money: the order's number and whether Medusa's order is paid (`payment`:
 * `paid`, `awaiting` or `canceled`), and from the ledger `earlier_payment` when an older code of
 * the cart was paid too and the store returns that money. An order of a sales channel the publishable key
 * does not cover is a 404, as an unknown one. Reads only.
 */
export async function GET(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const parsed = paramsSchema.safeParse(req.params);
  if (!parsed.success) {
    sendError(res, "invalid_order_id", "order_id must be a Medusa order id such as order_01H...");
    return;
  }
  const order = await orderForShopper(req.scope, parsed.data.order_id);
  if (!order || !servesChannel(req, { sales_channel_id: order.salesChannelId })) {
    sendError(
      res,
      "order_not_found",
      `No order ${parsed.data.order_id} exists in this store's sales channels.`,
    );
    return;
  }
  res.setHeader("Cache-Control", "no-store");
  const [view, state] = await Promise.all([
    orderView(req.scope, order),
    orderPaymentState(req.scope, order.id),
  ]);
  res.json({
    order_id: view.order_id,
    display_id: state?.display_id ?? null,
    // Medusa's order, as the page says it: "está pago" only with `paid`.
    payment: state?.payment ?? "awaiting",
    earlier_payment: view.earlier_payment,
  });
}
