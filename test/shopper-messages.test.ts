// Every code the store's routes can answer has words for a shopper, in Portuguese, in the one
// module the element and both storefronts share (`@pix-checkout/element/messages`): the
// plugin's error table (packages/medusa/docs/errors.md) and its one error tree
// (src/internal/platform/errors.ts) are walked code by code.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { developerText, shopperMessage, shopperMessageFor } from "@pix-checkout/element/messages";

const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), "utf8");

/** Every code the error table names: each backticked word of its first column. */
function tableCodes(): string[] {
  const rows = read("packages/medusa/docs/errors.md")
    .split("\n")
    .filter((line) => line.startsWith("| ") && !line.startsWith("| Code") && !/^\|\s*-/.test(line));
  const codes = rows.flatMap((row) =>
    [...(row.split("|")[1] ?? "").matchAll(/`([a-z][a-z0-9_]*)`/g)].map((match) => match[1]!),
  );
  return [...new Set(codes)];
}

/** Every code of the plugin's one error tree (`ERROR_STATUS`). */
function treeCodes(): string[] {
  const source = read("packages/medusa/src/internal/platform/errors.ts");
  const block = source.slice(source.indexOf("ERROR_STATUS = {"), source.indexOf("} as const"));
  return [...block.matchAll(/^\s+([a-z][a-z0-9_]*): \d{3},/gm)].map((match) => match[1]!);
}

// Words a Portuguese sentence for a shopper does not hold: English, or a developer's.
const ENGLISH =
  /\b(the|and|or|to|of|is|was|are|be|try|again|please|your|you|not|cannot|could|would|payment|order|cart|error|request|session|store|code|failed|invalid|missing|found)\b/i;
// A route, a method, a status word or an identifier: nothing a shopper should read.
const DEVELOPER = /\/store\/|\/admin\/|\b(GET|POST|HTTP|Medusa|API|JSON|null|undefined)\b|\w_\w/;
// A Portuguese sentence: an accented letter, or one of the words every message here uses.
const PORTUGUESE = /[ãõçáéíóúâêô]|\b(de|do|da|em|com|para|o|a|os|as|você|seu|sua|tente|pedido)\b/i;

/** Why `text` is not a message for a shopper, or null when it is one. */
function notForShoppers(text: string | undefined): string | null {
  if (!text) return "no message";
  // "QR code" is what Brazilians call it.
  if (ENGLISH.test(text.replaceAll("QR code", "QR"))) return `English: ${text}`;
  if (DEVELOPER.test(text)) return `a developer's words: ${text}`;
  if (!PORTUGUESE.test(text)) return `not Portuguese: ${text}`;
  return null;
}

// Codes only the admin's MED routes answer (`POST /admin/pix-checkout/charges/:id/med...`,
// behind the merchant's login): no store route a shopper's page calls can answer them, so the
// element's table does not carry their words; should one reach a shopper anyway, the element's
// fallback words for an unknown code speak (checked below).
const ADMIN_ONLY = new Set([
  "invalid_med",
  "med_not_contestable",
  "med_already_open",
  "med_amount_exceeds_captured",
  "med_not_open",
]);

// Codes the element never provokes: `invalid_path` answers a path with a broken %-escape (the
// element encodes every id it puts in a path), and `asset_not_found` a file the payment page's
// own loader never names. Should a shopper meet one, the fallback's words speak (checked below).
const NEVER_FROM_THE_ELEMENT = new Set(["invalid_path", "asset_not_found"]);

describe("the shopper's words for every code the store can answer", () => {
  const codes = [...new Set([...tableCodes(), ...treeCodes()])].filter(
    (code) => !ADMIN_ONLY.has(code) && !NEVER_FROM_THE_ELEMENT.has(code),
  );

  it("gives an admin-only code, should a shopper meet one, the fallback's Portuguese words", () => {
    for (const code of [...ADMIN_ONLY, ...NEVER_FROM_THE_ELEMENT]) {
      expect(treeCodes()).toContain(code);
      expect(notForShoppers(shopperMessage({ code, status: 409, message: "MED" }))).toBeNull();
    }
  });

  it("reads the plugin's error table and its error tree, and they name the same codes", () => {
    // The walk proves nothing if it found no table.
    expect(tableCodes().length).toBeGreaterThan(50);
    expect(treeCodes().length).toBeGreaterThan(50);
    expect(treeCodes().filter((code) => !tableCodes().includes(code))).toEqual([]);
  });

  it("has a Portuguese message, with no English and no route, for every code", () => {
    const problems = codes
      .map((code) => [code, notForShoppers(shopperMessageFor(code))] as const)
      .filter(([, problem]) => problem !== null)
      .map(([code, problem]) => `${code}: ${problem}`);
    expect(problems).toEqual([]);
  });

  it("never shows the store's own message, whatever its code or status", () => {
    const message =
      "The cart has no e-mail; set the shopper's e-mail on the cart (POST /store/carts/:id) before asking for a Pix code or boleto.";
    for (const refusal of [
      { code: "cart_email_missing", message, status: 400 },
      { code: "a_code_of_a_newer_plugin", message, status: 400 },
      { message, status: 400 },
      { message, status: 409 },
      { message, status: 429 },
      { message, status: 503 },
      { message },
    ]) {
      expect(notForShoppers(shopperMessage(refusal))).toBeNull();
    }
    expect(shopperMessage({ code: "cart_email_missing", message, status: 400 })).toBe(
      "Informe o seu e-mail na etapa de entrega para continuar.",
    );
  });

  it("tells a shopper that a bug of the store is not fixed by asking again, unlike a busy store", () => {
    const bug = shopperMessage({
      code: "internal_error",
      status: 500,
      message: "The store failed unexpectedly (error id 4b0e…). This is a bug in the store.",
    });
    expect(bug).not.toBe(shopperMessage({ code: "store_unavailable", status: 503 }));
    expect(bug).not.toBe(shopperMessage({ code: "unknown_error", status: 500 }));
    expect(bug).toMatch(/não resolve/);
    expect(bug).toMatch(/fale com a loja/);
  });

  it("names, in Portuguese, the boleto payer fields the store named", () => {
    expect(
      shopperMessage({
        code: "missing_payer_data",
        status: 400,
        message:
          "A boleto needs the payer's document, neighborhood, number. Send data.document (CPF or CNPJ), data.neighborhood, data.number when creating the payment session.",
      }),
    ).toBe("Para gerar o boleto, preencha o CPF ou CNPJ, o bairro e o número.");
    expect(
      shopperMessage({
        code: "invalid_payer_data",
        status: 400,
        message: "document is not a valid CPF or CNPJ.",
      }),
    ).toBe("Confira o CPF ou CNPJ.");
  });

  it("keeps the store's own words for the developer, in one line", () => {
    expect(developerText({ code: "collection_busy", status: 409, message: "Retry." })).toBe(
      "collection_busy (409): Retry.",
    );
  });
});
