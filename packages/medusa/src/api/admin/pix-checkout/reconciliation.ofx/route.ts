import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http";
import { answerReconciliation } from "../../../../internal/books/reconciliation";

/**
 * `GET /admin/pix-checkout/reconciliation.ofx?from=...&to=...[&provider=id][&lang=pt-BR|en]`:
 * the same period as a bank statement for finance tools (OFX 1.02, Windows-1252, BRL, São
 * Paulo dates), one transaction per charge with its fee apart, and the service's balance.
 */
export async function GET(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  await answerReconciliation(req, res, "ofx");
}
