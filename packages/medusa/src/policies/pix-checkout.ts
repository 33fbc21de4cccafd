import { definePolicies } from "@medusajs/framework/utils";
import { PIX_CHECKOUT_POLICIES } from "../internal/operations/admin-policies";

/**
 * The plugin's own RBAC operations under the `pix_checkout` resource: `refund`, `accept`,
 * `resolve`, `export` and `recheck` (see internal/operations/admin-policies.ts). Medusa imports
 * every file of a plugin's `policies/` folder at start (its policies loader, since 2.18), and
 * with the `rbac` flag on its RBAC module writes these to its policy table, where the merchant
 * can give them to roles. Nothing here runs a check: the routes' `policies` in
 * api/middlewares.ts do.
 */
export const pixCheckoutPolicies = definePolicies(PIX_CHECKOUT_POLICIES.map((p) => ({ ...p })));
