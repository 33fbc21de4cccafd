import { formatCnpj, formatCpf, isValidCnpj, isValidCpf } from "@brazilian-utils/brazilian-utils";

/*
 * The buyer's CPF or CNPJ as the plugin keeps it and Medusa's order carries it (README "Nota
 * fiscal"): pure reading, no store. Checking what a storefront sent is checkout/buyer-document.ts.
 */

/**
 * The buyer's CPF or CNPJ, as a nota fiscal (NF-e) needs it: which kind, and its digits (a
 * CNPJ's letters too, since the 2026 alphanumeric CNPJ), without punctuation.
 */
export interface BuyerDocument {
  type: "cpf" | "cnpj";
  number: string;
}

/**
 * The key of Medusa's order `metadata` where the plugin writes the buyer's document
 * (`{ type, number }`): Medusa v2 has no tax-id field, and an NF-e integration reads the order
 * through Medusa's own API. Only the plugin writes it, from its own record of the charge.
 */
export const BUYER_DOCUMENT_METADATA_KEY = "pix_checkout_buyer_document";

/** CPF or CNPJ without dots, dashes, slashes or spaces, letters upper-cased. */
export function bareDocument(typed: string): string {
  return typed.replace(/[.\-/\s]/g, "").toUpperCase();
}

/**
 * Reads a typed CPF or CNPJ (numeric, or the alphanumeric CNPJ of 2026): its kind and bare
 * number, or undefined when it is neither (a wrong check digit, a wrong length, anything else).
 */
export function readBuyerDocument(typed: string): BuyerDocument | undefined {
  const number = bareDocument(typed);
  if (/^\d{11}$/.test(number) && isValidCpf(number)) return { type: "cpf", number };
  if (number.length === 14 && isValidCnpj(number, { version: 2 })) return { type: "cnpj", number };
  return undefined;
}

/**
 * The document on an order's `metadata` as the plugin wrote it, or undefined: a value of
 * another shape (a hand edit) is not read as one.
 */
export function buyerDocumentOnOrder(
  metadata: Record<string, unknown> | null | undefined,
): BuyerDocument | undefined {
  const value = metadata?.[BUYER_DOCUMENT_METADATA_KEY] as Partial<BuyerDocument> | undefined;
  if (!value || typeof value !== "object" || typeof value.number !== "string") return undefined;
  const read = readBuyerDocument(value.number);
  return read && read.type === value.type ? read : undefined;
}

/**
 * A bare document as a person reads it, with its kind: `CPF 529.982.247-25`,
 * `CNPJ 12.ABC.345/01DE-35`; anything that is neither comes back as it was.
 */
export function printedBuyerDocument(bare: string): string {
  const document = readBuyerDocument(bare);
  if (!document) return bare;
  return document.type === "cpf"
    ? `CPF ${formatCpf(document.number)}`
    : `CNPJ ${formatCnpj(document.number, { version: 2 })}`;
}
