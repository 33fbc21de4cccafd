import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http";
import { serveElementAsset } from "../../../../../internal/storefront/element-assets";

/** The chunks the `<pix-checkout>` element loads when it needs them (`chunks/<name>.js`). */
export function GET(req: MedusaRequest, res: MedusaResponse): void {
  serveElementAsset(req, res, `chunks/${String(req.params.file ?? "")}`);
}
