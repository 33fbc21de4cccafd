import { describe, expect, it } from "vitest";
import { buildBoletoCharge, toUf } from "./boleto-payer";

const data = {
  document: "529.982.247-25",
  phone: "+55 (11) 98765-4321",
  neighborhood: "Centro",
  number: "100",
  billing_address: {
    first_name: "Ana",
    last_name: "Souza",
    address_1: "Rua Augusta",
    city: "São Paulo",
    province: "São Paulo",
    postal_code: "01310-100",
  },
};

describe("buildBoletoCharge", () => {
  it("builds the API input from session data, normalising document, phone, CEP and UF", () => {
    const charge = buildBoletoCharge(5000, data, { email: "ana@example.com" });
    expect(charge).toEqual({
      method: "boleto",
      amountCents: 5000,
      customer: {
        name: "Ana Souza",
        email: "ana@example.com",
        document: "52998224725",
        phone: "11987654321",
      },
      billingAddress: {
        zip: "01310100",
        state: "SP",
        city: "São Paulo",
        street: "Rua Augusta",
        neighborhood: "Centro",
        number: "100",
      },
    });
  });

  it("names every missing field and where to send it", () => {
    expect(() => buildBoletoCharge(5000, { billing_address: data.billing_address }, null)).toThrow(
      /needs the payer's email, document, phone, neighborhood, number\. Send data\.email, data\.document \(CPF or CNPJ\), data\.phone, data\.neighborhood, data\.number/,
    );
  });

  it("rejects an invalid CPF", () => {
    expect(() =>
      buildBoletoCharge(5000, { ...data, document: "111.111.111-11" }, { email: "a@b.co" }),
    ).toThrow(expect.objectContaining({ code: "invalid_payer_data" }));
  });

  it("accepts an alphanumeric CNPJ", () => {
    const charge = buildBoletoCharge(
      5000,
      { ...data, document: "12.ABC.345/01DE-35" },
      { email: "a@b.co" },
    );
    expect(charge.customer.document).toBe("12ABC34501DE35");
  });

  it("rejects a province that is not a Brazilian state", () => {
    expect(() =>
      buildBoletoCharge(
        5000,
        { ...data, billing_address: { ...data.billing_address, province: "Texas" } },
        { email: "a@b.co" },
      ),
    ).toThrow(/province "Texas" is not a Brazilian state; use its 2-letter UF/);
  });
});

describe("toUf", () => {
  it.each([
    ["sp", "SP"],
    ["BR-RJ", "RJ"],
    ["Minas Gerais", "MG"],
    ["Texas", undefined],
  ])("turns %s into %s", (input, uf) => {
    expect(toUf(input)).toBe(uf);
  });
});
