import { describe, expect, it } from "vitest";
import { buildBoletoCharge } from "./boleto-payer";
import { fillPayerFromCart, payerOfOrder } from "./cart-payer";

const cart = {
  email: "bia@example.com",
  billing_address: {
    id: "caaddr_1",
    first_name: "Bia",
    last_name: "Lima",
    address_1: "Rua Augusta",
    city: "São Paulo",
    province: "br-sp",
    postal_code: "01310-100",
    phone: "11987654321",
    metadata: null,
  },
};

describe("fillPayerFromCart", () => {
  it("takes the cart's e-mail and billing address when the storefront sent none", () => {
    expect(fillPayerFromCart({ document: "52998224725" }, cart)).toEqual({
      document: "52998224725",
      email: "bia@example.com",
      billing_address: {
        first_name: "Bia",
        last_name: "Lima",
        address_1: "Rua Augusta",
        city: "São Paulo",
        province: "br-sp",
        postal_code: "01310-100",
        phone: "11987654321",
      },
    });
  });

  it("keeps what the storefront sent over the cart's", () => {
    const sent = { email: "other@example.com", billing_address: { city: "Recife" } };
    expect(fillPayerFromCart(sent, cart)).toEqual(sent);
  });

  it("falls back to the shipping address when the cart has no billing address", () => {
    const filled = fillPayerFromCart(
      {},
      { email: null, billing_address: null, shipping_address: { city: "Recife" } },
    );
    expect(filled).toEqual({ billing_address: { city: "Recife" } });
  });

  it("leaves only document, neighborhood and number missing for a starter's guest cart", () => {
    expect(() => buildBoletoCharge(9000, fillPayerFromCart({}, cart))).toThrow(
      "A boleto needs the payer's document, neighborhood, number. Send data.document (CPF or CNPJ), data.neighborhood, data.number when creating the payment session.",
    );
  });
});

describe("payerOfOrder", () => {
  it("reads an order's e-mail and address as a cart's, the customer's name and phone where the address has none", () => {
    const payer = payerOfOrder({
      id: "order_1",
      displayId: 1043,
      email: "bruno@example.com",
      status: "pending",
      canceled: false,
      salesChannelId: "sc_1",
      regionId: "reg_1",
      currencyCode: "brl",
      pendingCents: 7000,
      customer: { firstName: "Bruno", lastName: "Lima", phone: "11912345678" },
      billingAddress: {
        address_1: "Av. Paulista",
        city: "São Paulo",
        province: "SP",
        postal_code: "01311-000",
      },
      shippingAddress: null,
    });
    expect(fillPayerFromCart({ document: "52998224725" }, payer)).toEqual({
      document: "52998224725",
      email: "bruno@example.com",
      billing_address: {
        first_name: "Bruno",
        last_name: "Lima",
        address_1: "Av. Paulista",
        city: "São Paulo",
        province: "SP",
        postal_code: "01311-000",
        phone: "11912345678",
      },
    });
  });
});
