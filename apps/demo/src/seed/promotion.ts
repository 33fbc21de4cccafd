import type { MedusaContainer } from "@medusajs/framework/types";
import { ContainerRegistrationKeys } from "@medusajs/framework/utils";
import { createPromotionsWorkflow } from "@medusajs/medusa/core-flows";

/** The demo's promotion code: 10 % off the order, as Brazilian stores give for paying by Pix. */
export const DEMO_PROMOTION_CODE = "PIX10";

/**
 * Makes sure `PIX10` exists. A percentage off most prices leaves a total with a fraction of a
 * cent (10 % off R$ 39,95 is R$ 3,995), which is what a real store's checkout must handle.
 */
export async function seedPromotion(container: MedusaContainer): Promise<{ created: boolean }> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY);
  const { data } = await query.graph({
    entity: "promotion",
    fields: ["id"],
    filters: { code: DEMO_PROMOTION_CODE },
  });
  if (data.length > 0) return { created: false };
  await createPromotionsWorkflow(container).run({
    input: {
      promotionsData: [
        {
          code: DEMO_PROMOTION_CODE,
          type: "standard",
          status: "active",
          is_automatic: false,
          application_method: {
            type: "percentage",
            target_type: "order",
            allocation: "across",
            value: 10,
            currency_code: "brl",
          },
        },
      ],
    },
  });
  return { created: true };
}

/** The Pix discount the plugin manages (packages/medusa README, "Pix discount"). */
export const PIX_DISCOUNT_CODE = "DESCONTO-PIX";

/**
 * Makes sure the demo has "5 % de desconto no Pix": the same promotion the Pix Checkout admin
 * page's card makes (`POST /admin/pix-checkout/pix-discount` `{ enabled, type, value }`), an
 * automatic one whose rule reads the method the plugin writes on the cart. The merchant's own
 * changes to it (turned off, another amount) are kept.
 */
export async function seedPixDiscount(container: MedusaContainer): Promise<{ created: boolean }> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY);
  const { data } = await query.graph({
    entity: "promotion",
    fields: ["id"],
    filters: { code: PIX_DISCOUNT_CODE },
  });
  if (data.length > 0) return { created: false };
  await createPromotionsWorkflow(container).run({
    input: {
      promotionsData: [
        {
          code: PIX_DISCOUNT_CODE,
          type: "standard",
          status: "active",
          is_automatic: true,
          application_method: {
            type: "percentage",
            target_type: "order",
            allocation: "across",
            value: 5,
            currency_code: "brl",
          },
          rules: [{ attribute: "metadata.pix_checkout_method", operator: "eq", values: ["pix"] }],
        },
      ],
    },
  });
  return { created: true };
}
