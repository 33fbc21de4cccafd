import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http";
import { METHOD_METADATA_KEY, readPixDiscount } from "../medusa/pix-discount";
import { roundPixDiscountOfCart } from "../medusa/pix-discount-cents";
import { cartForStorefront, chooseMethod, methodOfProvider } from "./payment-method";
import { cartOfCollectionWith } from "../medusa/carts";

/**
 * Middleware for `POST /store/payment-collections/:id/payment-sessions`: before Medusa creates
 * the session, the cart's chosen method follows the provider asked for, so the session (and
 * the code) is for the cart's total under that method. A storefront that never calls the
 * payment-method route still gets the Pix discount with a Pix session, and never keeps it with
 * a boleto or a card session. While the discount is off, nothing is refreshed.
 */
export async function chosenMethodFollowsSession(
  req: MedusaRequest,
  _res: MedusaResponse,
  next: MedusaNextFunction,
): Promise<void> {
  const providerId = (req.body as { provider_id?: unknown } | undefined)?.provider_id;
  if (typeof providerId !== "string") return next(); // Medusa's validator answers
  try {
    // Without the discount the method prices nothing: no cart refresh on every session.
    if (!(await readPixDiscount(req.scope)).enabled) return next();
    const cart = await cartOfCollectionWith<{
      id: string;
      metadata: Record<string, unknown> | null;
    }>(req.scope, req.params.id as string, ["id", "metadata"]);
    const method = methodOfProvider(providerId);
    const current = cart?.metadata?.[METHOD_METADATA_KEY] ?? "other";
    if (cart && current !== method) {
      const channels = (req as { publishable_key_context?: { sales_channel_ids?: string[] } })
        .publishable_key_context?.sales_channel_ids;
      await chooseMethod(req.scope, await cartForStorefront(req.scope, cart.id, channels), method);
    } else if (cart && method === "pix") {
      // A coupon added since the method was chosen re-priced the cart without Medusa's refresh
      // hook: the code must still be for a whole-cent discount.
      await roundPixDiscountOfCart(req.scope, cart.id);
    }
  } catch (error) {
    return next(error);
  }
  next();
}
