import { readBuyerDocument, type BuyerDocument } from "../platform/buyer-document";
import { PixCheckoutError } from "../platform/errors";
import type { ChargeRow } from "../records/charges";

/**
 * The buyer's document a storefront sent, checked: a 400 `invalid_payer_data` when it is not a
 * valid CPF or CNPJ. The message never echoes what was typed (personal data, LGPD).
 */
export function buyerDocumentOf(typed: string): BuyerDocument {
  const document = readBuyerDocument(typed);
  if (!document) {
    throw new PixCheckoutError(
      "invalid_payer_data",
      "data.document is not a valid CPF or CNPJ (CPF ou CNPJ inválido: confira os dígitos; o CNPJ pode ter letras).",
    );
  }
  return document;
}

/**
 * The buyer's document an order is given, from the plugin's records of its collections'
 * charges: the one a paid charge was created with, else the newest code still offered (an
 * order placed before payment waits on it), else none. Rows come oldest first.
 */
export function buyerDocumentOfCharges(
  rows: readonly Pick<ChargeRow, "status" | "superseded_at" | "buyer_document">[],
): BuyerDocument | undefined {
  const withDocument = rows.filter((row) => row.buyer_document);
  const chosen =
    withDocument.find((row) => row.status === "paid") ??
    [...withDocument].reverse().find((row) => row.status === "pending" && !row.superseded_at) ??
    withDocument.at(-1);
  return chosen?.buyer_document ? readBuyerDocument(chosen.buyer_document) : undefined;
}
