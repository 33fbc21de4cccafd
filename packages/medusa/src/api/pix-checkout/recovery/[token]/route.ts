import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http";
import { serveNewCodeLink } from "../../../../internal/recovery/link-request";
import { keepSecretsOutOfHttpSpans } from "../../../../internal/platform/http-span-redaction";

// Medusa's HTTP span of this route would otherwise carry the token in its URL to the exporter.
keepSecretsOutOfHttpSpans();

/**
 * A reminder's new-code link (plugin option `recovery`), outside `/store`: a link in an e-mail
 * carries no publishable key, and the token names one message, nothing else. Opening it only
 * shows where the cart stands, with a button: mail scanners open every link of a message, and
 * must not change the cart.
 */
export function GET(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  return serveNewCodeLink(req, res, false);
}

/**
 * The page's button: prices the cart again as Medusa would, then sends the shopper to the
 * payment page, where one tap makes the new code; otherwise says what changed.
 */
export function POST(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  return serveNewCodeLink(req, res, true);
}
