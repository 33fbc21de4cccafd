import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http";
import { answerReconciliation } from "../../../../internal/books/reconciliation";

/**
 * `GET /admin/pix-checkout/reconciliation?from=YYYY-MM-DD&to=YYYY-MM-DD[&provider=id]`: the
 * period's Medusa captures and refunds, the service's transactions and its balance, compared:
 * `{ provider, period, lines, differences, totals, counts }`, cents. Bad dates, `from` after
 * `to`, a future day or more than 31 days answer `400 invalid_period` saying what to fix.
 */
export async function GET(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  await answerReconciliation(req, res, "json");
}
