import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http";
import { cartOfCollectionWith } from "../medusa/carts";
import { ownedCollection, type CollectionOrder } from "../medusa/order-collections";

/** The address fields a boleto uses, in Medusa's spelling. */
const ADDRESS_FIELDS = [
  "first_name",
  "last_name",
  "address_1",
  "address_2",
  "city",
  "province",
  "postal_code",
  "phone",
] as const;

/** What a payer is filled from: a cart, or an order (its e-mail and addresses alike). */
interface CartPayer {
  email?: string | null;
  billing_address?: Record<string, unknown> | null;
  shipping_address?: Record<string, unknown> | null;
}

/**
 * An order's payer as a cart's would read: its e-mail and addresses, with the customer's name
 * and phone where the address has none (a draft made for a customer the merchant knows).
 */
export function payerOfOrder(order: CollectionOrder): CartPayer {
  const withCustomer = (address: Record<string, unknown> | null) => {
    if (!address) return null;
    const filled = { ...address };
    const customer = order.customer;
    if (!filled.first_name && customer?.firstName) filled.first_name = customer.firstName;
    if (!filled.last_name && customer?.lastName) filled.last_name = customer.lastName;
    if (!filled.phone && customer?.phone) filled.phone = customer.phone;
    return filled;
  };
  return {
    email: order.email,
    billing_address: withCustomer(order.billingAddress as Record<string, unknown> | null),
    shipping_address: withCustomer(order.shippingAddress as Record<string, unknown> | null),
  };
}

function pickAddress(address: Record<string, unknown> | null | undefined) {
  if (!address) return undefined;
  const picked: Record<string, unknown> = {};
  for (const key of ADDRESS_FIELDS) {
    if (typeof address[key] === "string" && address[key] !== "") picked[key] = address[key];
  }
  return Object.keys(picked).length > 0 ? picked : undefined;
}

/**
 * Adds to a boleto session's `data` what the cart already carries (its e-mail and its billing
 * address, else its shipping address) where the storefront sent nothing. Medusa hands a
 * provider only the logged-in customer, never the cart, and a provider cannot read the cart
 * itself (module isolation): without this a guest checkout such as Medusa's starter, which
 * sends no `data`, would be asked for all ten payer fields. What the storefront sends wins.
 */
export function fillPayerFromCart(
  data: Record<string, unknown>,
  cart: CartPayer | undefined,
): Record<string, unknown> {
  if (!cart) return data;
  const filled = { ...data };
  if (filled.email === undefined && cart.email) filled.email = cart.email;
  if (filled.billing_address === undefined) {
    const address = pickAddress(cart.billing_address) ?? pickAddress(cart.shipping_address);
    if (address) filled.billing_address = address;
  }
  return filled;
}

/**
 * Middleware for `POST /store/payment-collections/:id/payment-sessions`: for a boleto
 * provider (`pp_boleto_*`), fills the session `data` from the collection's cart, or, for an
 * order's own collection (an order edit's difference, a converted draft), from the order: a
 * payment page then asks only what Medusa's address lacks (document, neighborhood, number).
 */
export async function boletoPayerFromCart(
  req: MedusaRequest,
  _res: MedusaResponse,
  next: MedusaNextFunction,
): Promise<void> {
  const body = req.body as { provider_id?: unknown; data?: unknown } | undefined;
  if (!body || typeof body.provider_id !== "string" || !body.provider_id.startsWith("pp_boleto_"))
    return next();
  const data =
    body.data && typeof body.data === "object" && !Array.isArray(body.data)
      ? (body.data as Record<string, unknown>)
      : {};
  if (body.data !== undefined && data !== body.data) return next(); // Medusa's validator answers
  try {
    const collectionId = req.params.id as string;
    const cart = await cartOfCollectionWith<CartPayer>(req.scope, collectionId, [
      "email",
      "billing_address.*",
      "shipping_address.*",
    ]);
    const order = cart ? undefined : (await ownedCollection(req.scope, collectionId))?.order;
    body.data = fillPayerFromCart(data, cart ?? (order ? payerOfOrder(order) : undefined));
    if ((req as { validatedBody?: unknown }).validatedBody)
      (req as unknown as { validatedBody: { data?: unknown } }).validatedBody.data = body.data;
  } catch {
    // Without the cart the provider still names whatever is missing.
  }
  next();
}
