import { describe, expect, it } from "vitest";
import { InvalidRequestError } from "../errors.js";
import { boletoInput } from "../test-support/fixtures.js";
import { validateCreateInput } from "./validate-input.js";

function issuesOf(input: unknown, variant: "a" | "b" = "a"): Record<string, string> {
  try {
    validateCreateInput(input, variant);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidRequestError);
    return Object.fromEntries(
      (error as InvalidRequestError).issues.map((i) => [i.path, i.message]),
    );
  }
  return {};
}

describe("create input validation", () => {
  it("rejects a fractional amount", () => {
    expect(issuesOf({ method: "pix", amountCents: 19.9 })).toHaveProperty("amountCents");
  });

  it("rejects a zero amount", () => {
    expect(issuesOf({ method: "pix", amountCents: 0 }, "b")).toHaveProperty("amountCents");
  });

  it("rejects amounts under 500 cents in Variant A", () => {
    expect(issuesOf({ method: "pix", amountCents: 499 }, "a").amountCents).toContain("500");
  });

  it("accepts small amounts in Variant B", () => {
    expect(validateCreateInput({ method: "pix", amountCents: 1 }, "b").amountCents).toBe(1);
  });

  it("refuses boleto in Variant B", () => {
    expect(issuesOf(boletoInput(), "b").method).toContain("Variant A");
  });

  it("names every missing boleto field", () => {
    const issues = issuesOf({
      method: "boleto",
      amountCents: 1000,
      customer: {},
      billingAddress: {},
    });
    expect(Object.keys(issues).sort()).toEqual(
      [
        "billingAddress.city",
        "billingAddress.neighborhood",
        "billingAddress.number",
        "billingAddress.state",
        "billingAddress.street",
        "billingAddress.zip",
        "customer.document",
        "customer.email",
        "customer.name",
        "customer.phone",
      ].sort(),
    );
  });

  it("rejects a CPF whose check digits are wrong", () => {
    const input = boletoInput();
    input.customer.document = "529.982.247-26";
    expect(issuesOf(input)["customer.document"]).toContain("check digits");
  });

  it("accepts an alphanumeric CNPJ and sends it unmasked", () => {
    const input = boletoInput();
    input.customer.document = "12.ABC.345/01DE-35";
    expect(validateCreateInput(input, "a").customer?.document).toBe("12ABC34501DE35");
  });

  it("rejects a 9-digit phone", () => {
    const input = boletoInput();
    input.customer.phone = "987654321";
    expect(issuesOf(input)["customer.phone"]).toContain("10 or 11 digits");
  });

  it("rejects a 7-digit CEP", () => {
    const input = boletoInput();
    input.billingAddress.zip = "0131010";
    expect(issuesOf(input)["billingAddress.zip"]).toContain("8 digits");
  });

  it("rejects two letters that are not a state", () => {
    const input = boletoInput();
    input.billingAddress.state = "XX";
    expect(issuesOf(input)["billingAddress.state"]).toContain("UF");
  });

  it("normalizes masks before sending", () => {
    const input = boletoInput();
    input.billingAddress.state = "sp";
    const valid = validateCreateInput(input, "a");
    expect(valid.customer).toMatchObject({ document: "52998224725", phone: "11987654321" });
    expect(valid.billingAddress).toMatchObject({ zip: "01310100", state: "SP" });
  });

  it("rejects an invalid e-mail on a Pix customer", () => {
    expect(
      issuesOf({ method: "pix", amountCents: 1000, customer: { email: "nope" } }),
    ).toHaveProperty("customer.email");
  });
});
