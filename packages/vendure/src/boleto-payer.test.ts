import { describe, expect, it } from "vitest";
import { boletoPayerOf, refusalOfIssues, type OrderPayerFacts } from "./boleto-payer";

const order: OrderPayerFacts = {
  customer: {
    firstName: "Ana",
    lastName: "Souza",
    emailAddress: "ana@example.com",
    phoneNumber: "",
  },
  address: {
    streetLine1: "Avenida Paulista",
    city: "São Paulo",
    province: "SP",
    postalCode: "01310-100",
    phoneNumber: "(11) 98765-4321",
  },
};
const typed = { document: "529.982.247-25", neighborhood: "Bela Vista", number: "1000" };

describe("a Vendure boleto's payer", () => {
  it("takes the name, e-mail and address from the order, and from the shopper only the document and the address's parts", () => {
    expect(boletoPayerOf(order, { ...typed, name: "Someone Else", email: "x@evil.test" })).toEqual({
      customer: {
        name: "Ana Souza",
        email: "ana@example.com",
        document: "529.982.247-25",
        phone: "(11) 98765-4321",
      },
      billingAddress: {
        zip: "01310-100",
        state: "SP",
        city: "São Paulo",
        street: "Avenida Paulista",
        neighborhood: "Bela Vista",
        number: "1000",
      },
    });
  });

  it("refuses, in Portuguese, what a boleto cannot be made without, and a client's value that is no text of a sane size", () => {
    expect(boletoPayerOf(order, { ...typed, document: undefined })).toEqual({
      refused: "Informe o CPF ou CNPJ de quem paga o boleto.",
    });
    expect(boletoPayerOf(order, { ...typed, document: { $ne: "" } })).toMatchObject({
      refused: expect.stringContaining("CPF"),
    });
    expect(boletoPayerOf(order, { ...typed, number: "9".repeat(500) })).toMatchObject({
      refused: "Informe o bairro e o número do endereço de cobrança.",
    });
    expect(
      boletoPayerOf({ ...order, address: { ...order.address!, phoneNumber: "" } }, typed),
    ).toEqual({ refused: "Informe um telefone com DDD para o boleto." });
    expect(boletoPayerOf({ ...order, address: null }, typed)).toMatchObject({
      refused: expect.stringContaining("endereço"),
    });
  });

  it("names the fields to check, never the client's English", () => {
    expect(refusalOfIssues([{ path: "customer.document" }])).toBe(
      "Confira o CPF ou CNPJ do boleto.",
    );
    expect(
      refusalOfIssues([{ path: "billingAddress.zip" }, { path: "customer.phone" }, { path: "x" }]),
    ).toBe("Confira o CEP e o telefone com DDD do boleto.");
    expect(refusalOfIssues([])).toBe("Confira os dados do boleto.");
  });
});
