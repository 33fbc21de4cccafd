import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http";
import { answerReconciliation } from "../../../../../internal/books/reconciliation";

/**
 * `GET /admin/pix-checkout/pix-discount/cost?from=YYYY-MM-DD&to=YYYY-MM-DD[&provider=id]`: what
 * the Pix discount cost over those São Paulo days, read from the same books as the
 * reconciliation's CSV and OFX (their "Desconto no Pix" total):
 * `{ provider, providers, pix_discount_cost: { period, cents, orders } }`. The period's rules
 * and errors are the reconciliation's (`400 invalid_period`).
 */
export async function GET(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  await answerReconciliation(req, res, "pix-discount-cost");
}
