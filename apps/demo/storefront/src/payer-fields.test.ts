import { describe, expect, it } from "vitest";
import {
  boletoFields,
  emptyPayer,
  formatDocument,
  shippingFields,
  validateField,
  validatePayer,
  type PayerFields,
} from "./payer-fields";

const complete: PayerFields = {
  email: "ana@example.com",
  firstName: "Ana",
  lastName: "Souza",
  phone: "(11) 98765-4321",
  document: "529.982.247-25",
  postalCode: "01310-100",
  street: "Avenida Paulista",
  number: "1000",
  complement: "",
  neighborhood: "Bela Vista",
  city: "São Paulo",
  province: "SP",
};

describe("boleto payer validation", () => {
  it("accepts a complete payer with a CPF", () => {
    expect(validatePayer(complete, boletoFields)).toEqual({});
  });

  it("accepts an alphanumeric CNPJ, typed with or without punctuation", () => {
    expect(validateField("document", "12.ABC.345/01DE-35")).toBeNull();
    expect(validateField("document", "12abc34501de35")).toBeNull();
  });

  it("accepts a numeric CNPJ", () => {
    expect(validateField("document", "11.222.333/0001-81")).toBeNull();
  });

  it("rejects a CPF with a wrong check digit and says CNPJs may have letters", () => {
    expect(validateField("document", "529.982.247-24")).toMatch(/CPF ou CNPJ inválido/);
  });

  it("asks for the document when it is empty", () => {
    expect(validateField("document", "  ")).toBe("Informe o CPF ou CNPJ.");
  });

  it("names every missing field of an empty form, except the optional complement", () => {
    const errors = validatePayer(emptyPayer(), boletoFields);
    expect(Object.keys(errors).sort()).toEqual(
      boletoFields.filter((field) => field !== "complement").sort(),
    );
  });

  it("rejects a phone without area code", () => {
    expect(validateField("phone", "98765-4321")).toMatch(/DDD/);
  });

  it("rejects a CEP that is not 8 digits", () => {
    expect(validateField("postalCode", "0131-010")).toMatch(/CEP inválido/);
  });

  it("rejects a state that is not a UF", () => {
    expect(validateField("province", "São Paulo")).toMatch(/UF/);
    expect(validateField("province", "SP")).toBeNull();
  });

  it("does not ask shipping for a document", () => {
    expect(validatePayer({ ...complete, document: "" }, shippingFields)).toEqual({});
  });
});

describe("formatDocument", () => {
  it("punctuates a complete CPF and an alphanumeric CNPJ", () => {
    expect(formatDocument("52998224725")).toBe("529.982.247-25");
    expect(formatDocument("12abc34501de35")).toBe("12.ABC.345/01DE-35");
  });

  it("leaves an incomplete document as typed", () => {
    expect(formatDocument("5299822")).toBe("5299822");
  });
});
