// The shopper's form and the cart's address, both ways: the form is saved on the cart, and a
// shopper who comes back (the back button, a reload) finds it filled from the cart again.
import type { HttpTypes } from "@medusajs/types";
import type { PayerFields } from "./payer-fields";

/** Medusa's address shape for a Brazilian address; the number travels with the street. */
export function toAddress(payer: PayerFields) {
  return {
    first_name: payer.firstName.trim(),
    last_name: payer.lastName.trim(),
    address_1: `${payer.street.trim()}, ${payer.number.trim()}`,
    address_2: payer.complement.trim(),
    city: payer.city.trim(),
    province: payer.province,
    postal_code: payer.postalCode.trim(),
    country_code: "br",
    phone: payer.phone.trim(),
    metadata: { neighborhood: payer.neighborhood.trim(), number: payer.number.trim() },
  };
}

const text = (value: unknown) => (typeof value === "string" ? value : "");

/**
 * The form as the cart holds it. What the shopper typed and the cart lacks (the boleto's
 * CPF, never saved on the cart) is kept; a cart without an address leaves the form as it is.
 */
export function payerFromCart(
  cart: Pick<HttpTypes.StoreCart, "email" | "shipping_address">,
  typed: PayerFields,
): PayerFields {
  const address = cart.shipping_address;
  // Medusa gives a new cart of a one-country region an address with the country alone: that
  // is no address, and must not empty what the shopper typed.
  if (!address?.address_1) return { ...typed, email: typed.email || text(cart.email) };
  const number = text(address.metadata?.number);
  const line = text(address.address_1);
  const suffix = `, ${number}`;
  return {
    ...typed,
    email: text(cart.email) || typed.email,
    firstName: text(address.first_name),
    lastName: text(address.last_name),
    phone: text(address.phone),
    postalCode: text(address.postal_code),
    street: number && line.endsWith(suffix) ? line.slice(0, -suffix.length) : line,
    number,
    complement: text(address.address_2),
    neighborhood: text(address.metadata?.neighborhood),
    city: text(address.city),
    province: text(address.province),
  };
}

/**
 * Whether the cart holds what an order needs before any payment: the shopper's e-mail and a
 * whole delivery address. The payment step is shown only then.
 */
export function deliveryComplete(
  cart: Pick<HttpTypes.StoreCart, "email" | "shipping_address">,
): boolean {
  const address = cart.shipping_address;
  return (
    !!cart.email &&
    !!address &&
    [address.first_name, address.address_1, address.postal_code, address.city, address.province]
      .map(text)
      .every((value) => value.trim() !== "")
  );
}

/**
 * Whether the cart already holds the form as `toAddress` saves it (e-mail and delivery address):
 * a tap on a shipping option after "Calcular frete" saved the same form sends no second update.
 * Any difference saves again. The billing address is not compared: this storefront writes it
 * only with the delivery, as the same address.
 */
export function cartHoldsDelivery(
  cart: Pick<HttpTypes.StoreCart, "email" | "shipping_address">,
  payer: PayerFields,
): boolean {
  const held = cart.shipping_address;
  if (!held || text(cart.email) !== payer.email.trim()) return false;
  const wanted = toAddress(payer);
  const fields = [
    "first_name",
    "last_name",
    "address_1",
    "address_2",
    "city",
    "province",
    "postal_code",
    "country_code",
    "phone",
  ] as const;
  return (
    fields.every((field) => text(held[field]) === wanted[field]) &&
    text(held.metadata?.neighborhood) === wanted.metadata.neighborhood &&
    text(held.metadata?.number) === wanted.metadata.number
  );
}

const payerKey = "pix-demo-payer";

/**
 * Remembers the shopper's contact and address on this device (never the CPF or CNPJ), so a
 * second purchase starts filled.
 */
export function rememberPayer(payer: PayerFields): void {
  const { document: _never, ...kept } = payer;
  try {
    localStorage.setItem(payerKey, JSON.stringify(kept));
  } catch {
    // Private mode or a full storage: the next purchase asks again.
  }
}

/** What `rememberPayer` kept, over `empty`: unknown or damaged storage gives `empty`. */
export function rememberedPayer(empty: PayerFields): PayerFields {
  try {
    const kept = JSON.parse(localStorage.getItem(payerKey) ?? "{}") as Record<string, unknown>;
    const payer = { ...empty };
    for (const key of Object.keys(empty) as (keyof PayerFields)[]) {
      if (key !== "document" && typeof kept[key] === "string") payer[key] = kept[key];
    }
    return payer;
  } catch {
    return empty;
  }
}
