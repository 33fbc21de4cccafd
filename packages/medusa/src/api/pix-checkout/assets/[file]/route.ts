import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http";
import { serveElementAsset } from "../../../../internal/storefront/element-assets";

/** The `<pix-checkout>` element's entry file, for the plugin's payment page (`index.js`). */
export function GET(req: MedusaRequest, res: MedusaResponse): void {
  serveElementAsset(req, res, String(req.params.file ?? ""));
}
