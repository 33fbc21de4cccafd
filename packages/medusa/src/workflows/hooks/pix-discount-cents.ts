import { refreshCartItemsWorkflow } from "@medusajs/medusa/core-flows";
import { roundPixDiscountToCents } from "../../internal/medusa/pix-discount-cents";

// Every cart change Medusa re-prices (items, shipping, the chosen method, a region, a
// customer) runs `refreshCartItemsWorkflow`: its promotions are recomputed, then this hook runs
// under the cart's lock, then the payment collection takes the cart's total. Rounding the Pix
// discount here makes that total, the code and the order whole cents (see pix-discount-cents).
// Medusa allows one handler per hook, so a store cannot consume this hook beside the plugin
// (docs/admin.md, "Whole cents", says so).
refreshCartItemsWorkflow.hooks.beforeRefreshingPaymentCollection(
  async ({ input }, { container }) => {
    await roundPixDiscountToCents(container, input.cart_id);
  },
);
