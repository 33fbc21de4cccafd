import { describe, expect, it } from "vitest";
import {
  BUYER_DOCUMENT_METADATA_KEY,
  buyerDocumentOnOrder,
  printedBuyerDocument,
  readBuyerDocument,
} from "../platform/buyer-document";
import { optionsSchema } from "../platform/options";
import { buyerDocumentOf, buyerDocumentOfCharges } from "./buyer-document";
import { chargeInputOf } from "./charge-input";
import { parseSessionInput } from "./session-data";

const CPF = "529.982.247-25";
const CNPJ = "11.222.333/0001-81";
// The alphanumeric CNPJ the Receita Federal issues from July 2026.
const ALPHANUMERIC_CNPJ = "12.abc.345/01de-35";

describe("readBuyerDocument", () => {
  it.each([
    [CPF, { type: "cpf", number: "52998224725" }],
    ["52998224725", { type: "cpf", number: "52998224725" }],
    [CNPJ, { type: "cnpj", number: "11222333000181" }],
    [ALPHANUMERIC_CNPJ, { type: "cnpj", number: "12ABC34501DE35" }],
  ])("reads %s", (typed, read) => {
    expect(readBuyerDocument(typed)).toEqual(read);
  });

  it.each([
    ["a CPF with a wrong check digit", "529.982.247-26"],
    ["a CNPJ with a wrong check digit", "11.222.333/0001-82"],
    ["an alphanumeric CNPJ with a wrong check digit", "12.ABC.345/01DE-36"],
    ["all the same digit", "111.111.111-11"],
    ["too short", "5299822472"],
    ["letters in a CPF", "5299822472A"],
    ["empty", ""],
  ])("refuses %s", (_, typed) => {
    expect(readBuyerDocument(typed)).toBeUndefined();
  });

  it("prints a document with its kind", () => {
    expect(printedBuyerDocument("52998224725")).toBe("CPF 529.982.247-25");
    expect(printedBuyerDocument("12ABC34501DE35")).toBe("CNPJ 12.ABC.345/01DE-35");
  });
});

describe("buyerDocumentOf", () => {
  it("is a 400 invalid_payer_data that never echoes what was typed", () => {
    const error = (() => {
      try {
        buyerDocumentOf("529.982.247-26");
      } catch (caught) {
        return caught as { code: string; message: string };
      }
    })();
    expect(error?.code).toBe("invalid_payer_data");
    expect(error?.message).toContain("CPF ou CNPJ inválido");
    expect(error?.message).not.toContain("247");
  });
});

describe("buyerDocument option", () => {
  it("asks the document for a boleto only unless the merchant says every order", () => {
    const base = { apiKey: "sk_live_x", baseUrl: "http://127.0.0.1:1/v1", variant: "a" };
    expect(optionsSchema.parse(base).buyerDocument).toBe("boleto");
    expect(optionsSchema.parse({ ...base, buyerDocument: "every_order" }).buyerDocument).toBe(
      "every_order",
    );
    expect(optionsSchema.safeParse({ ...base, buyerDocument: "pix" }).success).toBe(false);
  });
});

describe("a Pix charge's document", () => {
  const pix = (data: unknown, option?: "boleto" | "every_order") =>
    chargeInputOf("pix", 5000, parseSessionInput(data), undefined, "payses_1", option);

  it("is refused missing when the store asks it on every order", () => {
    expect(() => pix({}, "every_order")).toThrow(
      expect.objectContaining({ code: "missing_payer_data" }),
    );
    expect(() => pix({ document: "  " }, "every_order")).toThrow(
      expect.objectContaining({ code: "missing_payer_data" }),
    );
  });

  it("is not asked by default: a Pix without it sends no customer", () => {
    expect(pix({})).not.toHaveProperty("customer");
  });

  it("is checked as a boleto's, with the option on or off", () => {
    for (const option of ["boleto", "every_order"] as const) {
      expect(() => pix({ document: "529.982.247-26" }, option)).toThrow(
        expect.objectContaining({ code: "invalid_payer_data" }),
      );
    }
  });

  it("is sent bare as customer.document, with the name and e-mail the session has", () => {
    expect(
      pix(
        {
          document: ALPHANUMERIC_CNPJ,
          email: "ana@example.com",
          billing_address: { first_name: "Ana", last_name: "Souza" },
        },
        "every_order",
      ),
    ).toMatchObject({
      method: "pix",
      customer: { name: "Ana Souza", email: "ana@example.com", document: "12ABC34501DE35" },
    });
  });
});

describe("the document an order is given", () => {
  const row = (
    status: "pending" | "paid" | "expired",
    buyer_document: string | null,
    superseded = false,
  ) => ({ status, buyer_document, superseded_at: superseded ? new Date() : null });

  it("is the paid charge's, else the newest code still offered, else none", () => {
    expect(
      buyerDocumentOfCharges([row("paid", "52998224725"), row("pending", "11222333000181")]),
    ).toEqual({ type: "cpf", number: "52998224725" });
    expect(
      buyerDocumentOfCharges([
        row("pending", "52998224725", true),
        row("pending", "11222333000181"),
      ]),
    ).toEqual({ type: "cnpj", number: "11222333000181" });
    expect(buyerDocumentOfCharges([row("pending", null)])).toBeUndefined();
  });

  it("is read back from the order only as the plugin wrote it", () => {
    const written = { [BUYER_DOCUMENT_METADATA_KEY]: { type: "cpf", number: "52998224725" } };
    expect(buyerDocumentOnOrder(written)).toEqual({ type: "cpf", number: "52998224725" });
    expect(
      buyerDocumentOnOrder({
        [BUYER_DOCUMENT_METADATA_KEY]: { type: "cnpj", number: "52998224725" },
      }),
    ).toBeUndefined();
    expect(buyerDocumentOnOrder({ [BUYER_DOCUMENT_METADATA_KEY]: "52998224725" })).toBeUndefined();
    expect(buyerDocumentOnOrder(null)).toBeUndefined();
  });
});
