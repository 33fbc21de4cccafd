import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http";
import { z } from "zod";
import { sendError, sendRaised } from "../../../../../../internal/platform/errors";
import {
  cartForStorefront,
  chooseMethod,
  chosenMethodOf,
} from "../../../../../../internal/checkout/payment-method";
import { cartIsPaid } from "../../../../../../internal/settlement/paid-collection-guard";

// Medusa cart ids are `cart_` + a ULID.
const paramsSchema = z.object({ cart_id: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/) });
const bodySchema = z.object({ method: z.enum(["pix", "boleto", "other"]) }).strict();

function channelsOf(req: MedusaRequest): string[] | undefined {
  return (req as { publishable_key_context?: { sales_channel_ids?: string[] } })
    .publishable_key_context?.sales_channel_ids;
}

function cartIdOf(req: MedusaRequest, res: MedusaResponse): string | undefined {
  const parsed = paramsSchema.safeParse(req.params);
  if (parsed.success) return parsed.data.cart_id;
  sendError(res, "invalid_cart_id", "cart_id must be a Medusa cart id such as cart_01H...");
  return undefined;
}

/**
 * `GET /store/pix-checkout/carts/:cart_id/payment-method`: the cart's chosen method, its total
 * and the Pix discount (what to show beside the methods, and what it saves on this cart now).
 */
export async function GET(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const cartId = cartIdOf(req, res);
  if (!cartId) return;
  try {
    const cart = await cartForStorefront(req.scope, cartId, channelsOf(req));
    res.setHeader("Cache-Control", "no-store");
    res.json(await chosenMethodOf(req.scope, cart));
  } catch (error) {
    sendRaised(res, error);
  }
}

/**
 * `POST /store/pix-checkout/carts/:cart_id/payment-method` `{ method: "pix" | "boleto" | "other" }`:
 * records the shopper's choice on the cart and refreshes its promotions, so the Pix discount
 * is in the cart's totals (or gone) before any code is created. One call per method change.
 */
export async function POST(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const cartId = cartIdOf(req, res);
  if (!cartId) return;
  const body = bodySchema.safeParse(req.body ?? {});
  if (!body.success) {
    sendError(
      res,
      "invalid_payment_method",
      'Send { method } with "pix", "boleto" or "other" (a card or any other provider).',
    );
    return;
  }
  try {
    const cart = await cartForStorefront(req.scope, cartId, channelsOf(req));
    // A paid cart's method (and so its total) no longer changes.
    if (await cartIsPaid(req, cart.id)) {
      sendError(
        res,
        "collection_already_paid",
        "This cart's Pix or boleto is already paid; its method can no longer change. Complete the cart to place the order that was paid.",
      );
      return;
    }
    res.json(await chooseMethod(req.scope, cart, body.data.method));
  } catch (error) {
    sendRaised(res, error);
  }
}
