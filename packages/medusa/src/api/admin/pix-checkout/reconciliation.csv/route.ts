import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http";
import { answerReconciliation } from "../../../../internal/books/reconciliation";

/**
 * `GET /admin/pix-checkout/reconciliation.csv?from=...&to=...[&provider=id][&lang=pt-BR|en]`:
 * the same report as a download for a Brazilian Excel (`;`, decimal comma, UTF-8 with BOM,
 * dd/mm/aaaa in São Paulo).
 */
export async function GET(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  await answerReconciliation(req, res, "csv");
}
