import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http";
import { serveCollectionPage } from "../../../../internal/storefront/collection-page";

/**
 * The payment page of an order's own collection (what an order edit, exchange, claim or return
 * left owed, or a converted draft's total): the link Medusa's "Copy payment link" copies when
 * `admin.storefrontUrl` is this server's `/pix-checkout`. Outside `/store`: a link a customer
 * receives carries no publishable key. Opening it only reads; its button makes the code.
 */
export function GET(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  return serveCollectionPage(req, res);
}
