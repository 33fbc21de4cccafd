import { defineMiddlewares } from "@medusajs/framework/http";

/**
 * The webhook route reads its raw body itself: a malformed body must get the plugin's own
 * 400 with a stable code, not Medusa's JSON-parser error.
 */
export default defineMiddlewares({
  routes: [{ matcher: "/hooks/pix-checkout/*", methods: ["POST"], bodyParser: false }],
});
