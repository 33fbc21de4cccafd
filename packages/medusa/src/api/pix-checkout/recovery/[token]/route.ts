import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http";
import { secondChance } from "../../../../internal/recovery/second-chance";
import { PAGE_HEADERS, secondChancePage } from "../../../../internal/recovery/pages";
import { settleContext } from "../../../../internal/settlement/context";

/**
 * A reminder's new-code link (plugin option `recovery`). Checks that the cart behind the
 * message can still be bought at the code's price, then sends the shopper to the payment page,
 * where one tap makes the new code; otherwise says what changed. Outside `/store`, because a
 * link in an e-mail carries no publishable key: the token names one message, nothing else.
 */
export async function GET(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const found = await secondChance(settleContext(req.scope), String(req.params.token ?? ""));
  res.set(PAGE_HEADERS);
  // Straight to the payment page, unless a boleto's shopper also has Pix to choose.
  if (found.kind === "ready" && found.paymentPageUrl && !found.checkoutUrl) {
    res.redirect(303, found.paymentPageUrl);
    return;
  }
  const { status, html } = secondChancePage(found);
  res.status(status).type("html").send(html);
}
