import type { MedusaContainer } from "@medusajs/framework/types";
import { BigNumber, ContainerRegistrationKeys, MathBN } from "@medusajs/framework/utils";
import { updateCartWorkflow } from "@medusajs/medusa/core-flows";
import { PixCheckoutError } from "../platform/errors";
import { toCents } from "../platform/money";
import type { BuyerDocumentOption } from "../platform/options";
import { registeredProviders } from "../platform/provider-registry";
import {
  METHOD_METADATA_KEY,
  pixAdjustmentAmounts,
  readPixDiscount,
  type ChosenMethod,
  type PixDiscountSetting,
} from "../medusa/pix-discount";
import { cartOfCollectionWith, cartWith } from "../medusa/carts";

/** The method a Medusa payment provider id stands for: ours by prefix, anyone else's is `other`. */
export function methodOfProvider(providerId: string): ChosenMethod {
  if (/^pp_pix_/.test(providerId)) return "pix";
  if (/^pp_boleto_/.test(providerId)) return "boleto";
  return "other";
}

interface CartRow {
  id: string;
  completed_at: string | null;
  sales_channel_id: string | null;
  metadata: Record<string, unknown> | null;
  total: unknown;
  items?: { adjustments?: { code: string | null; amount: unknown }[] | null }[] | null;
  shipping_methods?: { adjustments?: { code: string | null; amount: unknown }[] | null }[] | null;
}

/**
 * A cart's `total` and what Medusa computes it from, as its own cart workflows load them:
 * Medusa before 2.21 does not load the lines itself, and answers a total of 0 without them.
 */
const TOTAL_FIELDS = [
  "total",
  "items.*",
  "items.adjustments.*",
  "items.tax_lines.*",
  "shipping_methods.*",
  "shipping_methods.adjustments.*",
  "shipping_methods.tax_lines.*",
];

function readCart(container: MedusaContainer, cartId: string): Promise<CartRow | undefined> {
  return cartWith<CartRow>(container, cartId, [
    "id",
    "completed_at",
    "sales_channel_id",
    "metadata",
    ...TOTAL_FIELDS,
  ]);
}

/**
 * What the Pix discount takes off the charge now, in integer cents (0 when it is not applied):
 * the cart's total without the discount, in the cents a charge would ask, minus its total with
 * it. The Pix discount itself is whole cents (medusa/pix-discount-cents), but another promotion
 * or a tax may still leave the totals a fraction of a cent, so each total is rounded as the
 * charge rounds it, and the shopper's "saved" is exactly the difference between the boleto and
 * the Pix code. Where prices exclude tax, it is the discount before the tax on it.
 */
function savedOf(cart: CartRow): number {
  const amounts = pixAdjustmentAmounts([
    ...(cart.items ?? []),
    ...(cart.shipping_methods ?? []),
  ]) as BigNumber[];
  if (amounts.length === 0) return 0;
  const discount = amounts.reduce((sum, amount) => MathBN.add(sum, amount), MathBN.convert(0));
  const total = cart.total as BigNumber;
  return toCentsOrZero(MathBN.add(total, discount)) - toCentsOrZero(total);
}

/** What the Pix discount took off the code of a payment collection's cart. */
export interface CodePixDiscount {
  code: string;
  type: PixDiscountSetting["type"];
  /** Whole percent, or integer cents for `fixed`. */
  value: number;
  /** Integer cents the discount took off this cart's total. */
  saved: number;
}

/**
 * The Pix discount in the cart a payment collection pays for, when the discount is applied
 * there; undefined otherwise (no cart, Pix not chosen, or the discount off).
 */
export async function pixDiscountOfCollection(
  container: MedusaContainer,
  paymentCollectionId: string,
): Promise<CodePixDiscount | undefined> {
  const cart = await cartOfCollectionWith<CartRow>(container, paymentCollectionId, [
    "id",
    ...TOTAL_FIELDS,
  ]);
  const saved = cart ? savedOf(cart) : 0;
  if (saved === 0) return undefined;
  const setting = await readPixDiscount(container);
  return { code: setting.code, type: setting.type, value: setting.value, saved };
}

/** The discount a storefront shows beside the methods, and what it saves on this cart. */
export interface CartPixDiscount {
  enabled: boolean;
  type: PixDiscountSetting["type"];
  /** Whole percent, or integer cents for `fixed`. */
  value: number;
  code: string;
  /** Integer cents the discount takes off this cart now (0 unless Pix is the chosen method). */
  saved: number;
}

/** The answer of the payment-method route. */
export interface ChosenMethodView {
  cart_id: string;
  method: ChosenMethod | null;
  /** The cart's total after Medusa's promotions, in integer cents. */
  total: number;
  pix_discount: CartPixDiscount;
  /**
   * When the store asks the buyer's CPF or CNPJ (provider option `buyerDocument`): `boleto`, or
   * `every_order` (Pix too). One field on the payment step, shared by both methods.
   */
  buyer_document: BuyerDocumentOption;
}

/**
 * The store's `buyerDocument`: `every_order` when any of the plugin's registrations asks it (a
 * store has one registration; one that asks it for Pix decides, so a Pix is never refused for
 * lack of a document the page did not ask).
 */
export function buyerDocumentAsked(container: MedusaContainer): BuyerDocumentOption {
  const config = container.resolve(ContainerRegistrationKeys.CONFIG_MODULE);
  return registeredProviders(config).some((p) => p.options.buyerDocument === "every_order")
    ? "every_order"
    : "boleto";
}

/**
 * Loads a cart a storefront may act on: the cart id is the shopper's secret, as in Medusa's
 * own cart routes, and the publishable key must cover the cart's sales channel. Any other
 * cart is the same 404 as an unknown one.
 */
export async function cartForStorefront(
  container: MedusaContainer,
  cartId: string,
  salesChannelIds: string[] | undefined,
): Promise<CartRow> {
  const cart = await readCart(container, cartId);
  if (!cart || (cart.sales_channel_id && !salesChannelIds?.includes(cart.sales_channel_id))) {
    throw new PixCheckoutError("cart_not_found", `No cart ${cartId} exists for this storefront.`);
  }
  if (cart.completed_at) {
    throw new PixCheckoutError(
      "cart_completed",
      `Cart ${cartId} is already an order; its payment method can no longer change.`,
    );
  }
  return cart;
}

async function viewOf(container: MedusaContainer, cart: CartRow): Promise<ChosenMethodView> {
  const setting = await readPixDiscount(container);
  const method = cart.metadata?.[METHOD_METADATA_KEY];
  return {
    cart_id: cart.id,
    method: method === "pix" || method === "boleto" || method === "other" ? method : null,
    total: toCentsOrZero(cart.total),
    pix_discount: {
      enabled: setting.enabled,
      type: setting.type,
      value: setting.value,
      code: setting.code,
      saved: savedOf(cart),
    },
    buyer_document: buyerDocumentAsked(container),
  };
}

function toCentsOrZero(amount: unknown): number {
  // A cart emptied of items totals 0, which toCents refuses as a charge amount.
  return MathBN.lte(amount as BigNumber, 0) ? 0 : toCents(amount as BigNumber);
}

/**
 * Records the shopper's method on the cart through Medusa's own `updateCartWorkflow`, which
 * refreshes the cart's promotions (the Pix discount's rule reads this metadata) and its
 * payment collection. When the amount changes, Medusa deletes the collection's sessions and
 * the provider's `deletePayment` supersedes any code already shown, as for any cart change.
 * Setting the method the cart already has changes nothing.
 */
export async function chooseMethod(
  container: MedusaContainer,
  cart: CartRow,
  method: ChosenMethod,
): Promise<ChosenMethodView> {
  if (cart.metadata?.[METHOD_METADATA_KEY] !== method) {
    await updateCartWorkflow(container).run({
      input: { id: cart.id, metadata: { ...(cart.metadata ?? {}), [METHOD_METADATA_KEY]: method } },
    });
  }
  const updated = await readCart(container, cart.id);
  return viewOf(container, updated ?? cart);
}

/** The cart's chosen method and discount, unchanged. */
export async function chosenMethodOf(
  container: MedusaContainer,
  cart: CartRow,
): Promise<ChosenMethodView> {
  return viewOf(container, cart);
}
