import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http";
import { qrSvg } from "../../../../../../internal/storefront/qr-image";
import { loadSession } from "../../../../../../internal/storefront/store-session";
import { sendError } from "../../../../../../internal/platform/errors";
import { toStoreView } from "../../../../../../internal/storefront/store-view";

/**
 * `GET /store/pix-checkout/sessions/:session_id/qr.svg`: the Pix QR code as an SVG rendered
 * here from the copy-and-paste code, so the element needs no QR encoder. The code of a
 * charge never changes, so the image is cacheable (privately: it is a shopper's payment).
 */
export async function GET(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const found = await loadSession(req, res);
  if (!found) return;
  const view = found.row ? toStoreView(found.row, found.sessionId) : found.queued;
  if (view.status === "preparing") {
    sendError(
      res,
      "qr_not_ready",
      "This payment's code is still being prepared; follow the session's stream (or poll it) and load the QR once it has a code.",
    );
    return;
  }
  if (!view.pix) {
    sendError(
      res,
      "qr_not_available",
      "This payment session is a boleto (or has no Pix code); only Pix sessions have a QR code.",
    );
    return;
  }
  const image = await qrSvg(view.pix.copy_paste);
  const etag = `"${image.hash}"`;
  res.setHeader("Cache-Control", "private, max-age=3600, immutable");
  res.setHeader("ETag", etag);
  if (req.headers["if-none-match"] === etag) {
    res.status(304).end();
    return;
  }
  res.setHeader("Content-Type", "image/svg+xml; charset=utf-8");
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.status(200).send(image.svg);
}
