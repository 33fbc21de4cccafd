import { describe, expect, it } from "vitest";
import { cartHoldsDelivery, payerFromCart, toAddress } from "./cart-address";
import { emptyPayer, type PayerFields } from "./payer-fields";

const typed: PayerFields = {
  email: "ana@example.com",
  firstName: "Ana",
  lastName: "Souza",
  phone: "(11) 98765-4321",
  document: "529.982.247-25",
  postalCode: "01310-100",
  street: "Avenida Paulista, Conjunto 5",
  number: "1000",
  complement: "Apto 12",
  neighborhood: "Bela Vista",
  city: "São Paulo",
  province: "SP",
};

describe("the form and the cart's address", () => {
  it("fills the form a shopper comes back to from the address it saved, keeping the CPF typed", () => {
    const cart = { email: typed.email, shipping_address: toAddress(typed) } as never;
    expect(payerFromCart(cart, { ...emptyPayer(), document: typed.document })).toEqual(typed);
  });

  it("keeps what was typed when the cart has no address yet", () => {
    const cart = { email: null, shipping_address: null } as never;
    expect(payerFromCart(cart, typed)).toEqual(typed);
  });

  it("knows a cart that holds the form already, and one a changed field would update", () => {
    const cart = { email: typed.email, shipping_address: toAddress(typed) } as never;
    expect(cartHoldsDelivery(cart, typed)).toBe(true);
    expect(cartHoldsDelivery(cart, { ...typed, number: "1001" })).toBe(false);
    expect(cartHoldsDelivery(cart, { ...typed, neighborhood: "Jardins" })).toBe(false);
    expect(cartHoldsDelivery(cart, { ...typed, email: "bia@example.com" })).toBe(false);
    expect(cartHoldsDelivery(cart, { ...typed, phone: "(11) 90000-0000" })).toBe(false);
    // A new cart of a one-country region holds the country alone: no address yet.
    expect(
      cartHoldsDelivery(
        { email: typed.email, shipping_address: { country_code: "br" } } as never,
        typed,
      ),
    ).toBe(false);
    expect(cartHoldsDelivery({ email: typed.email, shipping_address: null } as never, typed)).toBe(
      false,
    );
  });
});
