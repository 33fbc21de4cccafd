import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http";
import { optOutByLink } from "../../../../../internal/recovery/second-chance";
import { optedOutPage, optOutPage, PAGE_HEADERS } from "../../../../../internal/recovery/pages";
import { settleContext } from "../../../../../internal/settlement/context";

/**
 * A reminder's opt-out link. GET shows a button (mail scanners open links, and must not opt a
 * shopper out); POST records the mailbox, and answers a mail client's one-click unsubscribe
 * (RFC 8058) the same way.
 */
export async function GET(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  res.set(PAGE_HEADERS);
  res
    .status(200)
    .type("html")
    .send(optOutPage(req.originalUrl.split("?")[0] ?? ""));
}

export async function POST(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const recorded = await optOutByLink(settleContext(req.scope), String(req.params.token ?? ""));
  const { status, html } = optedOutPage(recorded);
  res.set(PAGE_HEADERS);
  res.status(status).type("html").send(html);
}
