import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http";
import { serveOptOutLink } from "../../../../../internal/recovery/link-request";
import { keepSecretsOutOfHttpSpans } from "../../../../../internal/platform/http-span-redaction";

keepSecretsOutOfHttpSpans();

/**
 * A reminder's opt-out link. GET shows a button (mail scanners open links, and must not opt a
 * shopper out); POST records the mailbox, and answers a mail client's one-click unsubscribe
 * (RFC 8058) the same way.
 */
export function GET(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  return serveOptOutLink(req, res, false);
}

export function POST(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  return serveOptOutLink(req, res, true);
}
