// Everything the storefront asks of the Medusa store API, through Medusa's JS SDK with the
// demo's publishable key.
import type { PixDiscount } from "./pix-discount";
import Medusa from "@medusajs/js-sdk";
import type { HttpTypes } from "@medusajs/types";
import config from "virtual:pix-demo-config";
import { toAddress } from "./cart-address";
import { readOrderPayment, type OrderPayment, type RefundOwed } from "./order-payment";
import type { PayerFields } from "./payer-fields";
import { StoreRefusal } from "./error-message";
import { fetchWhileBusy } from "./busy-retry";
import { pixSavedOf } from "./totals";

/** The code of the Pix discount's promotion (the plugin's `DESCONTO-PIX`). */
const PIX_DISCOUNT_CODE = "DESCONTO-PIX";

const sdk = new Medusa({ baseUrl: config.backendUrl, publishableKey: config.publishableKey });

const cartKey = "pix-demo-cart";

/** Provider ids the plugin registers (see packages/medusa/README.md). */
export const providerIds = {
  pix: "pp_pix_pix-checkout",
  boleto: "pp_boleto_pix-checkout",
} as const;

/** Which of our methods a payment provider id is, if any. */
export type Method = keyof typeof providerIds;

/** The BRL region: the one the demo was started with, else the first BRL region. */
export async function getRegion(): Promise<HttpTypes.StoreRegion> {
  if (config.regionId) return (await sdk.store.region.retrieve(config.regionId)).region;
  const { regions } = await sdk.store.region.list({ currency_code: "brl" } as never);
  const region = regions.find((candidate) => candidate.currency_code === "brl");
  if (!region) throw new Error("The store has no BRL region: run the demo's seed.");
  return region;
}

/** Published products with their prices in the region. */
export async function listProducts(regionId: string): Promise<HttpTypes.StoreProduct[]> {
  const { products } = await sdk.store.product.list({
    region_id: regionId,
    fields: "*variants.calculated_price,+variants.inventory_quantity",
    limit: 50,
  });
  return products;
}

const cartFields =
  "*items,*shipping_methods,*payment_collection.payment_sessions,*promotions,+discount_total," +
  "*shipping_address,+item_subtotal,+shipping_subtotal,+total";

/**
 * The shopper's open cart, or null. A completed cart is not open, but its id stays until the
 * next cart replaces it: a shopper whose Pix the webhook turned into an order while the tab was
 * away comes back to the code step, and completing that cart again answers its order.
 */
export async function currentCart(): Promise<HttpTypes.StoreCart | null> {
  const id = localStorage.getItem(cartKey);
  if (!id) return null;
  try {
    const { cart } = await sdk.store.cart.retrieve(id, { fields: cartFields });
    if (cart.completed_at) return null;
    return cart;
  } catch {
    forgetCart();
    return null;
  }
}

/**
 * The id of the cart this browser last used, completed or not: a shopper whose Pix was paid
 * while the tab was away comes back to the code step, and completing that cart again answers
 * its order.
 */
export function storedCartId(): string | null {
  return localStorage.getItem(cartKey);
}

/** Starts over with a new cart on the next add. */
export function forgetCart(): void {
  localStorage.removeItem(cartKey);
}

/** Adds a variant to the open cart, creating the cart first when there is none. */
export async function addToCart(regionId: string, variantId: string): Promise<HttpTypes.StoreCart> {
  let cart = await currentCart();
  if (!cart) {
    cart = (await sdk.store.cart.create({ region_id: regionId })).cart;
    localStorage.setItem(cartKey, cart.id);
  }
  return (
    await sdk.store.cart.createLineItem(
      cart.id,
      { variant_id: variantId, quantity: 1 },
      { fields: cartFields },
    )
  ).cart;
}

/** Sets a line's quantity; 0 removes it. */
export async function setQuantity(
  cartId: string,
  lineId: string,
  quantity: number,
): Promise<HttpTypes.StoreCart> {
  if (quantity <= 0) {
    await sdk.store.cart.deleteLineItem(cartId, lineId);
    return (await sdk.store.cart.retrieve(cartId, { fields: cartFields })).cart;
  }
  return (await sdk.store.cart.updateLineItem(cartId, lineId, { quantity }, { fields: cartFields }))
    .cart;
}

/** Saves the shopper's e-mail and address on the cart (shipping and billing alike). */
export async function saveAddress(
  cartId: string,
  payer: PayerFields,
): Promise<HttpTypes.StoreCart> {
  const address = toAddress(payer);
  return (
    await sdk.store.cart.update(
      cartId,
      { email: payer.email.trim(), shipping_address: address, billing_address: address },
      { fields: cartFields },
    )
  ).cart;
}

/** Shipping options that can deliver this cart. */
export async function shippingOptions(
  cartId: string,
): Promise<HttpTypes.StoreCartShippingOption[]> {
  return (await sdk.store.fulfillment.listCartOptions({ cart_id: cartId })).shipping_options;
}

/** Chooses the cart's shipping option. */
export async function chooseShipping(
  cartId: string,
  optionId: string,
): Promise<HttpTypes.StoreCart> {
  return (
    await sdk.store.cart.addShippingMethod(cartId, { option_id: optionId }, { fields: cartFields })
  ).cart;
}

/** Which of Pix and boleto the region offers. */
export async function availableMethods(regionId: string): Promise<Method[]> {
  const { payment_providers } = await sdk.store.payment.listPaymentProviders({
    region_id: regionId,
  });
  const ids = new Set(payment_providers.map((provider) => provider.id));
  return (Object.keys(providerIds) as Method[]).filter((method) => ids.has(providerIds[method]));
}

/**
 * What a boleto needs beyond Medusa's address: the document, the neighborhood and the
 * number apart from the street (see the plugin's README, "Boleto payer data"). `payer` is the
 * delivery's ("mesmo endereço da entrega") or the address the shopper typed for the boleto;
 * the document is the payment step's one field either way.
 */
function boletoData(payer: PayerFields, document: string): Record<string, unknown> {
  return {
    document,
    phone: payer.phone,
    email: payer.email.trim(),
    name: `${payer.firstName.trim()} ${payer.lastName.trim()}`,
    neighborhood: payer.neighborhood.trim(),
    number: payer.number.trim(),
    complement: payer.complement.trim() || undefined,
    billing_address: {
      first_name: payer.firstName.trim(),
      last_name: payer.lastName.trim(),
      address_1: payer.street.trim(),
      address_2: payer.complement.trim(),
      city: payer.city.trim(),
      province: payer.province,
      postal_code: payer.postalCode.trim(),
      phone: payer.phone.trim(),
    },
  };
}

/**
 * A store call with fetch, not the SDK: a refusal keeps its `code` (the SDK's error drops it),
 * which chooses the shopper's words, and its `Retry-After`: a store busy for a moment
 * (`store_unavailable`, `collection_busy`) is asked again after it (busy-retry.ts).
 */
async function storeCall<T>(path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetchWhileBusy(() =>
    fetch(`${config.backendUrl}${path}`, {
      ...init,
      headers: {
        "x-publishable-api-key": config.publishableKey,
        ...(init.body ? { "content-type": "application/json" } : {}),
      },
    }),
  );
  const body = (await response.json().catch(() => ({}))) as T & { code?: string; message?: string };
  if (!response.ok) {
    throw new StoreRefusal(response.status, body.code, body.message ?? response.statusText);
  }
  return body;
}

/**
 * Creates the cart's payment session for Pix or boleto and returns its id, which the
 * `<pix-checkout>` element shows. A new session replaces the previous one.
 */
export async function startPayment(
  cart: HttpTypes.StoreCart,
  method: Method,
  payer: PayerFields,
  document: string,
): Promise<string> {
  const collectionId =
    cart.payment_collection?.id ??
    (
      await storeCall<HttpTypes.StorePaymentCollectionResponse>("/store/payment-collections", {
        method: "POST",
        body: JSON.stringify({ cart_id: cart.id }),
      })
    ).payment_collection.id;
  const { payment_collection } = await storeCall<HttpTypes.StorePaymentCollectionResponse>(
    `/store/payment-collections/${encodeURIComponent(collectionId)}/payment-sessions`,
    {
      method: "POST",
      body: JSON.stringify({
        provider_id: providerIds[method],
        // A Pix carries the buyer's document when the store asks it (a nota fiscal), else nothing.
        data:
          method === "boleto"
            ? boletoData(payer, document)
            : document.trim()
              ? { document: document.trim() }
              : {},
      }),
    },
  );
  const session = payment_collection.payment_sessions?.find(
    (candidate) => candidate.provider_id === providerIds[method],
  );
  if (!session) throw new Error("The store created no payment session.");
  return session.id;
}

/** The plugin's word on a payment session (`GET /store/pix-checkout/sessions/:id`), or null. */
export interface SessionState {
  status: string;
  /** With `paid`: an excess the store returns; with `refund_due`: all of it. */
  refund?: RefundOwed | null;
  /** Set on a code the cart replaced: the cart's current session, or null when it has none. */
  replaced_by?: string | null;
  order?: { display_id: number; payment?: string } | null;
}

/**
 * Whether this answer says the code itself paid the cart: `paid`, and no newer code replaced
 * it. Only then may the storefront complete the cart. A replaced code the shopper paid anyway
 * reads `superseded` or `refund_due`; it never pays the cart, and the check on `replaced_by`
 * keeps it so should an answer ever say otherwise.
 */
export function paysTheCart(session: SessionState | null): boolean {
  return session?.status === "paid" && !session.replaced_by;
}

/** The refund an answer names, when it is one: a positive whole number of cents. */
export function refundOf(session: { refund?: RefundOwed | null } | null): RefundOwed | null {
  const refund = session?.refund;
  if (!refund || !Number.isSafeInteger(refund.amount) || refund.amount <= 0) return null;
  return { amount: refund.amount, reason: String(refund.reason) };
}

/** What a session is now (paid, replaced, still payable), or null when the store cannot say. */
export function sessionState(sessionId: string): Promise<SessionState | null> {
  return storeCall<SessionState>(
    `/store/pix-checkout/sessions/${encodeURIComponent(sessionId)}`,
  ).catch(() => null);
}

/**
 * The cart as the store holds it now, completed or not (a stale tab's copy may be minutes old:
 * another tab or the e-mail's link may have paid it), or null when it is gone.
 */
export async function freshCart(cartId: string): Promise<HttpTypes.StoreCart | null> {
  return sdk.store.cart
    .retrieve(cartId, { fields: cartFields })
    .then(({ cart }) => cart)
    .catch(() => null);
}

/**
 * When the store asks the buyer's CPF or CNPJ (the plugin's `buyerDocument` option, told by
 * its payment-method route): for a boleto only, or on every order (Pix too, for a nota fiscal).
 */
export type BuyerDocumentAsked = "boleto" | "every_order";

export type { PixDiscount } from "./pix-discount";

/**
 * Records the shopper's method on the cart (`POST /store/pix-checkout/carts/:id/payment-method`),
 * which applies or removes the store's Pix discount in Medusa's own totals, and returns the
 * cart with its new totals and the discount to show beside the methods.
 */
export async function choosePaymentMethod(
  cartId: string,
  method: Method,
): Promise<{
  cart: HttpTypes.StoreCart;
  pixDiscount: PixDiscount;
  buyerDocument: BuyerDocumentAsked;
}> {
  const chosen = await storeCall<{
    pix_discount: PixDiscount;
    buyer_document?: BuyerDocumentAsked;
  }>(`/store/pix-checkout/carts/${encodeURIComponent(cartId)}/payment-method`, {
    method: "POST",
    body: JSON.stringify({ method }),
  });
  const { cart } = await sdk.store.cart.retrieve(cartId, { fields: cartFields });
  return {
    cart,
    pixDiscount: chosen.pix_discount,
    buyerDocument: chosen.buyer_document ?? "boleto",
  };
}

/** The method the cart already has, and the Pix discount as it stands on it. */
export async function chosenMethod(
  cartId: string,
): Promise<{ method: Method | null; pixDiscount: PixDiscount; buyerDocument: BuyerDocumentAsked }> {
  const chosen = await storeCall<{
    method: string | null;
    pix_discount: PixDiscount;
    buyer_document?: BuyerDocumentAsked;
  }>(`/store/pix-checkout/carts/${encodeURIComponent(cartId)}/payment-method`);
  const method = chosen.method === "pix" || chosen.method === "boleto" ? chosen.method : null;
  return {
    method,
    pixDiscount: chosen.pix_discount,
    buyerDocument: chosen.buyer_document ?? "boleto",
  };
}

/**
 * Completes the cart into an order. Completing a cart the webhook already completed
 * returns that same order, so the pay-first flow can call it after payment.
 */
export async function completeCart(cartId: string): Promise<HttpTypes.StoreOrder> {
  // A refusal's `code` (too_many_unpaid_orders for an order placed before payment) chooses the
  // shopper's message.
  const body = await storeCall<Partial<HttpTypes.StoreCompleteCartResponse>>(
    `/store/carts/${encodeURIComponent(cartId)}/complete`,
    { method: "POST" },
  );
  if (body.type !== "order" || !body.order)
    throw new Error(
      (body.type === "cart" && body.error?.message) || "The order could not be placed.",
    );
  forgetCart();
  return body.order;
}

/**
 * An order for the confirmation page, the cents the Pix discount took off it, and the session
 * that pays it (its Pix or boleto, while it waits for payment).
 */
export async function retrieveOrder(
  orderId: string,
): Promise<{ order: HttpTypes.StoreOrder; pixSaved: number; sessionId: string | null }> {
  const { order } = await sdk.store.order.retrieve(orderId, {
    fields:
      "*items,*items.adjustments,*shipping_methods,*shipping_methods.adjustments,+payment_status," +
      "+item_subtotal,+shipping_subtotal,+total,*payment_collections.payment_sessions",
  });
  const adjustments = [...(order.items ?? []), ...(order.shipping_methods ?? [])].flatMap(
    (line) =>
      (line as { adjustments?: { code?: string | null; amount?: number }[] }).adjustments ?? [],
  );
  const ours: string[] = Object.values(providerIds);
  const session = (order.payment_collections ?? [])
    .flatMap((collection) => collection.payment_sessions ?? [])
    .find((candidate) => ours.includes(candidate.provider_id));
  return {
    order,
    pixSaved: pixSavedOf(order.total, adjustments, PIX_DISCOUNT_CODE),
    sessionId: session?.id ?? null,
  };
}

/**
 * Whether the order is paid, and money an older code of its cart brought, which the store gives
 * back (`GET /store/pix-checkout/orders/:order_id`), or null when the store cannot say. Never
 * fails: the confirmation then shows the order without claiming it paid.
 */
export function orderPayment(orderId: string): Promise<OrderPayment | null> {
  return readOrderPayment(sdk.client, orderId);
}

export type { EarlierPayment, OrderPayment, OrderPaymentStatus, RefundOwed } from "./order-payment";
export { errorMessage } from "./error-message";
