import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http";
import { loadSession } from "../../../../../../internal/storefront/store-session";
import { codeShown, codeWatched } from "../../../../../../internal/storefront/code-shown";

/**
 * `POST /store/pix-checkout/sessions/:session_id/shown`: the shopper's page tells the store it
 * shows this session's code (the element sends it when the code appears, and again while it
 * stays on screen). Recorded once, on a pending code only, and only then may the code's message
 * go out; and a pending Pix's next check is pulled within 30 s, at most once a window per charge
 * (code-shown). A POST, not a side effect of the status GET or the stream: a link scanner, a
 * prefetch or a monitor reading the status changes nothing. Answers 204 whatever there was to
 * record, so repeating it is harmless.
 */
export async function POST(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  res.setHeader("Cache-Control", "no-store");
  const found = await loadSession(req, res);
  if (!found) return;
  if (found.row) {
    await codeShown(req.scope, found.row);
    await codeWatched(req.scope, found.row);
  }
  res.status(204).end();
}
