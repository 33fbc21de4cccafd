// Carts made through Medusa's store API with the publishable key, as a storefront makes them,
// for flows that need many carts ready for payment without a browser each.
import { payer } from "./shopper.mjs";

/**
 * A cart ready for payment: one unit of the store's first product, the shopper's e-mail, an
 * address and the first shipping option, as the storefront's delivery step leaves it.
 * @param {{ storeUrl: string, publishableKey: string, regionId: string }} store
 * @param {string} email
 * @returns {Promise<string>} the cart's id
 */
export async function readyCart(store, email) {
  const call = async (method, path, body) => {
    const response = await fetch(`${store.storeUrl}${path}`, {
      method,
      headers: {
        "content-type": "application/json",
        "x-publishable-api-key": store.publishableKey,
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = await response.json();
    if (!response.ok)
      throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
    return json;
  };
  const { products } = await call("GET", `/store/products?region_id=${store.regionId}&limit=1`);
  const { cart } = await call("POST", "/store/carts", { region_id: store.regionId, email });
  await call("POST", `/store/carts/${cart.id}/line-items`, {
    variant_id: products[0].variants[0].id,
    quantity: 1,
  });
  const address = {
    first_name: payer.firstName,
    last_name: payer.lastName,
    address_1: `${payer.street}, ${payer.number}`,
    city: payer.city,
    province: payer.province,
    postal_code: payer.postalCode,
    country_code: "br",
    phone: payer.phone,
  };
  await call("POST", `/store/carts/${cart.id}`, {
    shipping_address: address,
    billing_address: address,
  });
  const { shipping_options } = await call("GET", `/store/shipping-options?cart_id=${cart.id}`);
  await call("POST", `/store/carts/${cart.id}/shipping-methods`, {
    option_id: shipping_options[0].id,
  });
  return cart.id;
}

/**
 * The cart as the store holds it now (`completed_at` set once it became an order).
 * @param {{ storeUrl: string, publishableKey: string }} store
 * @param {string} cartId
 * @returns {Promise<{ id: string, completed_at: string | null }>}
 */
export async function storeCart(store, cartId) {
  const response = await fetch(`${store.storeUrl}/store/carts/${cartId}?fields=id,completed_at`, {
    headers: { "x-publishable-api-key": store.publishableKey },
  });
  const body = await response.json();
  if (!response.ok) throw new Error(`GET /store/carts: ${response.status} ${JSON.stringify(body)}`);
  return body.cart;
}
