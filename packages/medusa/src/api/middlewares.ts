import { defineMiddlewares } from "@medusajs/framework/http";
import { boletoPayerFromCart } from "../internal/checkout/cart-payer";
import { oneSessionRequestAtATime } from "../internal/checkout/session-requests";
import { chosenMethodFollowsSession } from "../internal/checkout/method-guards";
import { refusePluginMetadata } from "../internal/checkout/plugin-metadata";
import { refuseWaitingClientsEarly } from "../internal/create-line/early-refusal";
import { sessionGate } from "../internal/create-line/session-gate";
import { tieSessionRequest } from "../internal/checkout/session-tie";
import { capUnpaidOrders } from "../internal/create-line/unpaid-order-gate";
import { hideWebhookToken } from "../internal/settlement/webhook-intake";
import { hideLinkToken } from "../internal/recovery/link-request";
import {
  refuseEditsOfPaidCart,
  refuseSessionsOfPaidCollection,
} from "../internal/settlement/paid-collection-guard";
import { ADMIN_ACTIONS, ADMIN_ROUTE_POLICIES } from "../internal/operations/admin-policies";
import { unlinkOrphanOrderOfPluginCart } from "../internal/medusa/orphan-order-links";
import { pixCheckoutErrorHandler } from "../internal/operations/route-failures";

/**
 * The webhook route reads its raw body itself: a malformed body must get the plugin's own
 * 400 with a stable code, not Medusa's JSON-parser error.
 * Its `?token=` is taken out of the URL before Medusa's access log can write it, and so is a
 * reminder link's token, on any method and any path under it (see link-request).
 * A client the create line would refuse a place is answered first, from one query, before
 * anything costly runs (see early-refusal). A collection's session requests are served one at a
 * time, under the collection's own lease (see session-requests), and inside it a collection
 * paid in full gets no new session of any provider (see paid-collection-guard), and who asks is
 * told from the collection's id, which strangers can learn: an order's live code is not theirs
 * to replace (see session-tie); a cart
 * that cannot become an order or a client past its cap is refused before anything is made
 * (see session-gate), and a boleto session takes the payer's e-mail and address from the
 * cart (see cart-payer).
 * Every `pix_checkout_*` metadata key is the plugin's to write: Medusa's store routes that write
 * a cart's or its lines' metadata refuse one (`400 reserved_cart_metadata`, see plugin-metadata),
 * since Medusa copies them onto the order, where the buyer's document and the cart's chosen
 * method (which the Pix discount's promotion rule reads) are read. A new session makes the
 * chosen method follow its provider (see method-guards).
 * Each admin route declares the `policies` its action needs (see admin-policies): with Medusa's
 * `rbac` flag on, a user whose roles lack one gets Medusa's 403 before the route runs; with it
 * off (the default), Medusa checks nothing and the routes answer as before.
 * The app's error handler is the plugin's (see route-failures): on the plugin's own paths a
 * failure of the store's database is `503 store_unavailable` with `Retry-After`, and a path
 * with a broken %-escape `400 invalid_path`, never Medusa's `500 unknown_error`; every other
 * error and path goes to Medusa's own handler.
 */
export default defineMiddlewares({
  errorHandler: pixCheckoutErrorHandler(),
  routes: [
    ...ADMIN_ROUTE_POLICIES.map(({ method, matcher, action }) => ({
      matcher,
      methods: [method],
      policies: ADMIN_ACTIONS[action].map((policy) => ({ ...policy })),
    })),
    {
      matcher: "/hooks/pix-checkout/*",
      methods: ["POST"],
      bodyParser: false,
      middlewares: [hideWebhookToken],
    },
    {
      // No method: Express mounts it with `use`, a prefix, so a path under it that no route
      // answers (a 404) is logged without its token too.
      matcher: "/pix-checkout/recovery",
      middlewares: [hideLinkToken],
    },
    {
      // A reminder's pages: a form's or a mail client's one-click POST, whose body says nothing
      // the route needs.
      matcher: "/pix-checkout/recovery/*",
      methods: ["POST"],
      bodyParser: false,
    },
    {
      matcher: "/store/payment-collections/:id/payment-sessions",
      methods: ["POST"],
      middlewares: [
        refuseWaitingClientsEarly,
        oneSessionRequestAtATime,
        refuseSessionsOfPaidCollection,
        tieSessionRequest,
        sessionGate,
        chosenMethodFollowsSession,
        boletoPayerFromCart,
      ],
    },
    {
      matcher: "/store/carts",
      methods: ["POST"],
      middlewares: [refusePluginMetadata],
    },
    {
      matcher: "/store/carts/:id",
      methods: ["POST"],
      middlewares: [refusePluginMetadata, refuseEditsOfPaidCart],
    },
    {
      // A line's metadata becomes the order line's; the plugin's keys are not a shopper's there
      // either. (Customer and address-book routes reach no order: the plugin reads none of them.)
      matcher: "/store/carts/:id/line-items",
      methods: ["POST"],
      middlewares: [refusePluginMetadata],
    },
    {
      matcher: "/store/carts/:id/line-items/:line_id",
      methods: ["POST"],
      middlewares: [refusePluginMetadata],
    },
    {
      // An order placed before its Pix or boleto is paid reserves stock: capped per client,
      // mailbox and payer document (see unpaid-order-gate). A link to an order that a halfway
      // undone completion left behind is removed first (see orphan-order-links).
      matcher: "/store/carts/:id/complete",
      methods: ["POST"],
      middlewares: [unlinkOrphanOrderOfPluginCart, capUnpaidOrders],
    },
    {
      // A paid cart no longer changes: its line items, promotions, shipping (see
      // paid-collection-guard); its completion is let through.
      matcher: "/store/carts/:id/*",
      methods: ["POST", "DELETE"],
      middlewares: [refuseEditsOfPaidCart],
    },
  ],
});
