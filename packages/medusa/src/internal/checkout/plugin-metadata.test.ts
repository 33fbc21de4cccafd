import { describe, expect, it, vi } from "vitest";
import {
  isPluginMetadataKey,
  orderMetadataUpdate,
  pluginKeyInBody,
  refusePluginMetadata,
} from "./plugin-metadata";

const CPF = { type: "cpf", number: "52998224725" } as const;
const PLANTED = { type: "cnpj", number: "11222333000181" };

describe("isPluginMetadataKey", () => {
  it.each([
    "pix_checkout_buyer_document",
    "pix_checkout_method",
    "pix_checkout_anything",
    "PIX_CHECKOUT_BUYER_DOCUMENT",
    "Pix_Checkout_Buyer_Document",
    " pix_checkout_buyer_document",
    // Full-width letters and low line, which a person reads as the same key.
    "ｐｉｘ＿ｃｈｅｃｋｏｕｔ＿buyer_document",
  ])("takes %j for the plugin's", (key) => {
    expect(isPluginMetadataKey(key)).toBe(true);
  });

  it.each(["gift_note", "pix_checkout", "pixcheckout_buyer_document", "my_pix_checkout_note", ""])(
    "leaves %j to the store",
    (key) => {
      expect(isPluginMetadataKey(key)).toBe(false);
    },
  );
});

describe("pluginKeyInBody", () => {
  it.each([
    [
      "the cart's metadata",
      { metadata: { pix_checkout_buyer_document: PLANTED } },
      "metadata.pix_checkout_buyer_document",
    ],
    [
      "a key in another case",
      { metadata: { gift_note: "x", PIX_CHECKOUT_BUYER_DOCUMENT: PLANTED } },
      "metadata.PIX_CHECKOUT_BUYER_DOCUMENT",
    ],
    [
      "a value that would remove the plugin's key",
      { metadata: { pix_checkout_method: "" } },
      "metadata.pix_checkout_method",
    ],
    [
      "a new cart's line",
      { items: [{ variant_id: "v", quantity: 1 }, { metadata: { pix_checkout_x: 1 } }] },
      "items[1].metadata.pix_checkout_x",
    ],
    [
      "an address",
      { shipping_address: { city: "São Paulo", metadata: { pix_checkout_x: 1 } } },
      "shipping_address.metadata.pix_checkout_x",
    ],
    [
      "the billing address",
      { billing_address: { metadata: { pix_checkout_x: 1 } } },
      "billing_address.metadata.pix_checkout_x",
    ],
  ])("finds the plugin's key in %s", (_, body, path) => {
    expect(pluginKeyInBody(body)).toBe(path);
  });

  it.each([
    ["no body", undefined],
    ["no metadata", { email: "ana@example.com" }],
    ["metadata set to null", { metadata: null }],
    ["the store's own keys", { metadata: { gift_note: "Feliz aniversário" } }],
    ["a plugin key's name as a value", { metadata: { note: "pix_checkout_method" } }],
    ["an address by id", { shipping_address: "addr_1" }],
    // Only top-level keys are keys: the plugin reads no nested ones.
    ["a nested key", { metadata: { gift: { pix_checkout_method: "pix" } } }],
  ])("finds none with %s", (_, body) => {
    expect(pluginKeyInBody(body)).toBeUndefined();
  });
});

describe("refusePluginMetadata", () => {
  const run = (body: unknown) => {
    const res = { status: vi.fn(), json: vi.fn(), setHeader: vi.fn() };
    res.status.mockReturnValue(res);
    const next = vi.fn();
    refusePluginMetadata({ body } as never, res as never, next);
    return { res, next };
  };

  it("refuses the buyer's document with 400 reserved_cart_metadata, saying where it goes", () => {
    const { res, next } = run({ metadata: { pix_checkout_buyer_document: PLANTED } });
    expect(next).not.toHaveBeenCalled();
    expect(res.status).toHaveBeenCalledWith(400);
    const body = res.json.mock.calls[0]![0] as { code: string; message: string };
    expect(body.code).toBe("reserved_cart_metadata");
    expect(body.message).toMatch(/^metadata\.pix_checkout_buyer_document is the Pix Checkout/);
    expect(body.message).toMatch(/data\.document/);
    expect(body.message).toMatch(/remove it from this request/);
  });

  it("names the payment-method route for the chosen method", () => {
    const { res } = run({ metadata: { pix_checkout_method: "pix" } });
    const body = res.json.mock.calls[0]![0] as { message: string };
    expect(body.message).toMatch(/POST \/store\/pix-checkout\/carts\/:id\/payment-method/);
  });

  it("lets a body without the plugin's keys through untouched", () => {
    const { res, next } = run({ metadata: { gift_note: "x" } });
    expect(next).toHaveBeenCalledWith();
    expect(res.status).not.toHaveBeenCalled();
  });
});

describe("orderMetadataUpdate", () => {
  it.each([
    ["an order without metadata", null, undefined, undefined],
    ["an order with only the store's keys", { gift_note: "x" }, undefined, undefined],
    [
      "the cart's chosen method, as the plugin writes it",
      { pix_checkout_method: "pix" },
      undefined,
      undefined,
    ],
    [
      "the document the charges were created with, already there",
      { pix_checkout_buyer_document: { ...CPF } },
      CPF,
      undefined,
    ],
  ])("changes nothing on %s", (_, metadata, document, update) => {
    expect(orderMetadataUpdate(metadata, document)).toEqual(update);
  });

  it.each([
    [
      "a planted document on a Pix that carries none",
      { gift_note: "x", pix_checkout_buyer_document: PLANTED },
      undefined,
      { pix_checkout_buyer_document: "" },
    ],
    [
      "a planted document on a charge created with another",
      { pix_checkout_buyer_document: PLANTED },
      CPF,
      { pix_checkout_buyer_document: CPF },
    ],
    [
      "the charge's document in another shape",
      { pix_checkout_buyer_document: { type: "cpf", number: "529.982.247-25" } },
      CPF,
      { pix_checkout_buyer_document: CPF },
    ],
    [
      "the charge's document with a key of its own beside it",
      { pix_checkout_buyer_document: { ...CPF, verified: true } },
      CPF,
      { pix_checkout_buyer_document: CPF },
    ],
    [
      "an order without metadata, for a charge with a document",
      null,
      CPF,
      { pix_checkout_buyer_document: CPF },
    ],
    [
      "case variants and keys the plugin never writes",
      { PIX_CHECKOUT_BUYER_DOCUMENT: PLANTED, pix_checkout_paid: true, note: "x" },
      undefined,
      { PIX_CHECKOUT_BUYER_DOCUMENT: "", pix_checkout_paid: "" },
    ],
    [
      "a chosen method the plugin never writes",
      { pix_checkout_method: "card" },
      undefined,
      { pix_checkout_method: "" },
    ],
  ])("fixes %s", (_, metadata, document, update) => {
    expect(orderMetadataUpdate(metadata, document)).toEqual(update);
  });
});
