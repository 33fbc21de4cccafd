import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http";
import { z } from "zod";
import { sendError } from "../../../../internal/platform/errors";
import { readPixDiscount, savePixDiscount } from "../../../../internal/medusa/pix-discount";

const bodySchema = z.discriminatedUnion("type", [
  z.object({
    enabled: z.boolean(),
    type: z.literal("percentage"),
    value: z.number().int().min(1).max(90),
  }),
  z.object({
    enabled: z.boolean(),
    type: z.literal("fixed"),
    value: z.number().int().min(1).max(100_000_000),
  }),
]);

/**
 * `GET /admin/pix-checkout/pix-discount`: the Pix discount as it stands
 * (`{ pix_discount: { enabled, type, value, promotion_id, code } }`).
 */
export async function GET(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  res.json({ pix_discount: await readPixDiscount(req.scope) });
}

/**
 * `POST /admin/pix-checkout/pix-discount` `{ enabled, type: "percentage" | "fixed", value }`:
 * turns the discount on or off and sets its amount (whole percent 1–90, or integer cents).
 * The first call creates the Medusa promotion it manages; later calls update it.
 */
export async function POST(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const body = bodySchema.safeParse(req.body ?? {});
  if (!body.success) {
    sendError(
      res,
      "invalid_pix_discount",
      'Send { enabled, type, value }: type "percentage" with a whole percent from 1 to 90, or type "fixed" with integer cents.',
    );
    return;
  }
  const { enabled, type, value } = body.data;
  res.json({ pix_discount: await savePixDiscount(req.scope, { enabled, type, value }) });
}
