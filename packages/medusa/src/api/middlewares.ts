import { defineMiddlewares } from "@medusajs/framework/http";
import { boletoPayerFromCart } from "../internal/checkout/cart-payer";
import { oneSessionRequestAtATime } from "../internal/checkout/session-requests";
import { hideWebhookToken } from "../internal/settlement/webhook-intake";

/**
 * The webhook route reads its raw body itself: a malformed body must get the plugin's own
 * 400 with a stable code, not Medusa's JSON-parser error.
 * Its `?token=` is taken out of the URL before Medusa's access log can write it.
 * A collection's session requests are served one at a time (see session-requests), and a
 * boleto session takes the payer's e-mail and address from the cart (see cart-payer).
 */
export default defineMiddlewares({
  routes: [
    {
      matcher: "/hooks/pix-checkout/*",
      methods: ["POST"],
      bodyParser: false,
      middlewares: [hideWebhookToken],
    },
    {
      matcher: "/store/payment-collections/:id/payment-sessions",
      methods: ["POST"],
      middlewares: [oneSessionRequestAtATime, boletoPayerFromCart],
    },
  ],
});
