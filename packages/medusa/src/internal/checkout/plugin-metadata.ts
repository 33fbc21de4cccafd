import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http";
import { sendError } from "../platform/errors";
import { BUYER_DOCUMENT_METADATA_KEY, type BuyerDocument } from "../platform/buyer-document";
import { METHOD_METADATA_KEY } from "../medusa/pix-discount";

/*
 * The plugin's keys in Medusa's metadata: every key that starts with `pix_checkout_` is the
 * plugin's to write. Medusa copies a cart's metadata onto its order, and the admin's order
 * widget, the books' CSV and OFX and any NF-e integration read the order's
 * `pix_checkout_buyer_document` as the buyer's document: a key a shopper could write there
 * would be believed. So Medusa's store routes may not write one, and an order keeps only the
 * keys the plugin's own records stand behind.
 */

/** What every key of the plugin's starts with, in cart and order metadata. */
export const PLUGIN_METADATA_PREFIX = "pix_checkout_";

/**
 * Whether a metadata key is the plugin's, or would pass for one with a person or an
 * integration that reads it: case aside, and after Unicode's compatibility folding (a
 * full-width `ｐｉｘ＿checkout＿` reads as `pix_checkout_`).
 */
export function isPluginMetadataKey(key: string): boolean {
  return key.normalize("NFKC").trim().toLowerCase().startsWith(PLUGIN_METADATA_PREFIX);
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The first of the plugin's keys a store request's body writes, as the path a developer finds it
 * at (`metadata.pix_checkout_buyer_document`, `items[0].metadata.PIX_CHECKOUT_X`), or undefined.
 * It looks where Medusa's cart and line-item routes take metadata: the cart's own (copied onto
 * the order), a new line's and a line's (the order's lines), and each address's (the order's
 * addresses).
 */
export function pluginKeyInBody(body: unknown): string | undefined {
  if (!isObject(body)) return undefined;
  const places: [string, unknown][] = [["metadata", body.metadata]];
  if (Array.isArray(body.items)) {
    body.items.forEach((item, index) => {
      if (isObject(item)) places.push([`items[${index}].metadata`, item.metadata]);
    });
  }
  for (const address of ["shipping_address", "billing_address"]) {
    const value = body[address];
    if (isObject(value)) places.push([`${address}.metadata`, value.metadata]);
  }
  for (const [path, metadata] of places) {
    if (!isObject(metadata)) continue;
    const key = Object.keys(metadata).find(isPluginMetadataKey);
    if (key !== undefined) return `${path}.${key}`;
  }
  return undefined;
}

/** What a refusal tells the developer to do instead, for the key it names. */
function whatToDo(path: string): string {
  if (path === `metadata.${METHOD_METADATA_KEY}`) {
    return "it is set by POST /store/pix-checkout/carts/:id/payment-method";
  }
  if (path.endsWith(`.${BUYER_DOCUMENT_METADATA_KEY}`)) {
    return "the buyer's CPF or CNPJ goes in the payment session's data.document, and the plugin writes it on the order";
  }
  return `keys starting ${PLUGIN_METADATA_PREFIX} are written by the Pix Checkout plugin only`;
}

/**
 * Middleware for Medusa's store routes that write a cart's or its lines' metadata
 * (`POST /store/carts`, `/store/carts/:id`, `/store/carts/:id/line-items[/:line_id]`): a body
 * with a key of the plugin's anywhere it writes metadata is refused with
 * `400 reserved_cart_metadata`, before Medusa changes anything. The plugin's own writes go
 * through its own routes and workflows, never through these.
 */
export function refusePluginMetadata(
  req: MedusaRequest,
  res: MedusaResponse,
  next: MedusaNextFunction,
): void {
  const path = pluginKeyInBody(req.body);
  if (path === undefined) return next();
  // The key is echoed as sent, cut short: a developer finds it, a long one fills no log.
  const named = path.length > 120 ? `${path.slice(0, 117)}...` : path;
  sendError(
    res,
    "reserved_cart_metadata",
    `${named} is the Pix Checkout plugin's (${whatToDo(path)}); remove it from this request.`,
  );
}

/** The chosen method as the plugin writes it on a cart (the Pix discount's rule reads it). */
const isChosenMethod = (value: unknown) =>
  value === "pix" || value === "boleto" || value === "other";

const isDocument = (value: unknown, document: BuyerDocument) =>
  isObject(value) &&
  Object.keys(value).length === 2 &&
  value.type === document.type &&
  value.number === document.number;

/**
 * The change that leaves a placed order with only the plugin's keys as its records stand behind
 * them, or undefined when the order already has exactly those (most orders: no write). Keys are
 * set to `""`, which Medusa's metadata merge takes as "remove"; every other key is left alone.
 *
 * - `pix_checkout_buyer_document`: the `document` of the order's charges (the plugin's record of
 *   what the charge was created with), or removed when they carry none. Whatever the cart said is
 *   never kept, even when it looks like a valid CPF or CNPJ.
 * - `pix_checkout_method`: the cart's chosen method, which only the plugin writes on a cart (the
 *   store routes refuse it) and Medusa copied; kept while it is one of the words the plugin
 *   writes, removed otherwise.
 * - Any other key starting `pix_checkout_` (case aside): the plugin writes none, so it is removed.
 */
export function orderMetadataUpdate(
  metadata: Record<string, unknown> | null | undefined,
  document: BuyerDocument | undefined,
): Record<string, unknown> | undefined {
  const update: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(metadata ?? {})) {
    if (!isPluginMetadataKey(key)) continue;
    if (key === METHOD_METADATA_KEY && isChosenMethod(value)) continue;
    if (key === BUYER_DOCUMENT_METADATA_KEY && document && isDocument(value, document)) continue;
    update[key] = "";
  }
  if (document && !isDocument(metadata?.[BUYER_DOCUMENT_METADATA_KEY], document)) {
    update[BUYER_DOCUMENT_METADATA_KEY] = { type: document.type, number: document.number };
  }
  return Object.keys(update).length > 0 ? update : undefined;
}
