import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http";
import { redact } from "@pix-checkout/client";
import { isOurProviderId } from "../platform/provider-registry";
import { toCents } from "../platform/money";
import { clientOfRequest } from "../create-line/client-of-request";
import { whyNotPayable } from "../checkout/order-collection";
import { liveSessionsOf } from "../medusa/collection-links";
import { readMedusaSide } from "../medusa/collection-snapshot";
import {
  collectionPurpose,
  ownedCollection,
  publishableKeyFor,
  storeName,
  type OwnedCollection,
} from "../medusa/order-collections";
import { providersOfRegion } from "../medusa/region-providers";
import { collectionStanding } from "../settlement/snapshot";
import { settleContext, type SettleContext } from "../settlement/context";
import { elementAssets } from "./element-assets";
import { collectionPageHtml, pageNonce, collectionPageHeaders } from "./collection-page-html";
import type { CollectionPage } from "./collection-page-model";
import { queuedView } from "./store-session";
import { MemoryHits } from "../platform/memory-hits";
import { isStoreFailure } from "../platform/store-failure";

/*
 * The page Medusa's "Copy payment link" opens when `admin.storefrontUrl` is the Medusa server's
 * `/pix-checkout`: `GET /pix-checkout/payment-collection/:id?order_id=…`, for what an order
 * edit, exchange, claim or return left owed, or a converted draft order's total. In Portuguese,
 * for a phone. Opening it only reads (mail scanners and link previews open links): the code is
 * made by the page's button, which calls Medusa's own store route
 * (`POST /store/payment-collections/:id/payment-sessions`) with one of the store's publishable
 * keys, so every rule of that route applies (the create line's refusals and admission, one
 * request per collection, the payer from the order). A collection that already has a live code
 * of the plugin shows it at once; paid, it says so with the order's number.
 */

// Medusa ids: a prefix and a ULID. Anything else is not looked up.
const COLLECTION_ID = /^pay_col_[A-Za-z0-9]{10,40}$/;
const ORDER_ID = /^order_[A-Za-z0-9]{10,40}$/;

/**
 * What collection `collectionId` of order `orderId` shows now. `unknown` for anything that is
 * not an order's own collection of that order (a cart's collection, another order's id, an
 * unknown id): one answer, so the page tells nobody which ids exist.
 */
export async function collectionPage(
  ctx: SettleContext,
  collectionId: string,
  orderId: string,
): Promise<CollectionPage> {
  if (!COLLECTION_ID.test(collectionId) || !ORDER_ID.test(orderId)) return { kind: "unknown" };
  const owned = await ownedCollection(ctx.container, collectionId);
  // The merchant deleted it (Medusa deletes the collection with its order's link), or nothing
  // owns it any more: a collection that had codes of the plugin is said canceled, whatever
  // order the link named; one Medusa never had is unknown.
  const gone = owned
    ? !owned.cartId && !owned.order
    : (await ctx.records.charges.ofCollection(collectionId)).length > 0;
  if (gone) {
    return {
      kind: "closed",
      order: null,
      store: await storeName(ctx.container),
      refusal: { code: "collection_canceled", message: "This payment collection was deleted." },
    };
  }
  const order = owned?.order ?? owned?.cartOrder;
  if (!owned || !order || order.id !== orderId) return { kind: "unknown" };
  const pageOrder = { id: order.id, displayId: order.displayId };
  const store = await storeName(ctx.container);
  const standing = await collectionStanding(
    ctx.records,
    ctx.config,
    owned.id,
    await readMedusaSide(ctx.db, owned.id),
  );
  if (standing.paid || (owned.status === "completed" && !standing.remainingCents)) {
    return { kind: "paid", order: pageOrder, store, byCode: standing.paid === "charge" };
  }
  const refusal = whyNotPayable(owned);
  if (refusal) return { kind: "closed", order: pageOrder, store, refusal };
  const notOffered = (why: "no_key" | "no_pix" | "no_element" | "currency") =>
    ({ kind: "not_offered", order: pageOrder, store, why }) as const;
  if (owned.currencyCode.toLowerCase() !== "brl") return notOffered("currency");
  const assets = elementAssets();
  if (!assets) return notOffered("no_element");
  const providers = order.regionId
    ? (await providersOfRegion(ctx.container, order.regionId)).filter((id) =>
        isOurProviderId(ctx.config, id),
      )
    : [];
  const pix = providers.find((id) => id.startsWith("pp_pix_"));
  if (!pix) return notOffered("no_pix");
  const publishableKey = await publishableKeyFor(ctx.container, order.salesChannelId);
  if (!publishableKey) return notOffered("no_key");
  const boleto = providers.find((id) => id.startsWith("pp_boleto_"));
  return {
    kind: "open",
    order: pageOrder,
    store,
    purpose: (await collectionPurpose(ctx.db, collectionId)) ?? "order",
    collectionId,
    // What is still asked: an order edited up after its code was paid asks the rest only.
    amountCents: standing.remainingCents ?? owned.amountCents,
    publishableKey,
    pix: { providerId: pix },
    boleto:
      boleto && hasPrintableAddress(owned)
        ? { providerId: boleto, askPhone: !phoneOf(owned) }
        : null,
    session: await currentSession(ctx, owned),
    elementEntry: assets.entry,
  };
}

/** A boleto prints the payer's address: the order's billing address, else its shipping one. */
function hasPrintableAddress(owned: OwnedCollection): boolean {
  const address = owned.order?.billingAddress?.address_1
    ? owned.order.billingAddress
    : owned.order?.shippingAddress;
  return Boolean(address?.address_1 && address.city && address.province && address.postal_code);
}

function phoneOf(owned: OwnedCollection): string | null {
  const order = owned.order;
  return (
    order?.billingAddress?.phone || order?.shippingAddress?.phone || order?.customer?.phone || null
  );
}

/**
 * The collection's newest live session of this plugin for what the collection asks now, if
 * the plugin holds its code (or its place in the create line): a reload shows the same code,
 * never a second one. A session of an older amount (the order changed since) is not shown: the
 * button makes a code of the current amount, and Medusa replaces the old session.
 */
async function currentSession(
  ctx: SettleContext,
  owned: OwnedCollection,
): Promise<{ id: string; method: "pix" | "boleto" } | null> {
  const live = (await liveSessionsOf(ctx.container, owned.id))
    .filter((session) => isOurProviderId(ctx.config, session.provider_id))
    .filter((session) => toCents(session.amount) === owned.amountCents)
    .sort((a, b) => String(b.created_at).localeCompare(String(a.created_at)));
  for (const session of live) {
    const known =
      (await ctx.records.charges.bySessionId(session.id)) ??
      (await queuedView(ctx.container, session.id));
    if (known) {
      return {
        id: session.id,
        method: session.provider_id.startsWith("pp_boleto_") ? "boleto" : "pix",
      };
    }
  }
  return null;
}

/** The window the page's limits count in. */
const PAGE_WINDOW_MS = 10 * 60_000;
/** Opens of one collection's page a window, from any address: a customer reloading, a scanner. */
const COLLECTION_HITS_PER_WINDOW = 60;
/** Opens of any collection's page a window from one client address (carrier NAT shares them). */
const ADDRESS_HITS_PER_WINDOW = 120;

/**
 * The page's limits, counted in this process's memory: opening the page is a GET, which writes
 * nothing (a made-up id must leave no row behind); see MemoryHits for what that costs.
 */
const pageHits = new MemoryHits();

/**
 * Serves `GET /pix-checkout/payment-collection/:id`: its headers (no cache, no referrer, a CSP
 * that runs only the element's files and the page's own script), its limits (per collection
 * and per client, in this instance's memory), then the page. Whatever happens a page in
 * Portuguese answers: a 429 past the limits, a 503 when the store cannot read, never a 500.
 */
export async function serveCollectionPage(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const ctx = settleContext(req.scope);
  const nonce = pageNonce();
  res.set(collectionPageHeaders(nonce));
  const collectionId = String(req.params.id ?? "").slice(0, 64);
  const orderId = typeof req.query.order_id === "string" ? req.query.order_id.slice(0, 64) : "";
  let page: CollectionPage | { kind: "too_many"; retryAfterMs: number } | { kind: "unavailable" };
  try {
    const hit = pageHits.take(
      [
        { key: `collection-page:${collectionId}`, limit: COLLECTION_HITS_PER_WINDOW },
        { key: `collection-page-address:${clientOfRequest(req)}`, limit: ADDRESS_HITS_PER_WINDOW },
      ],
      PAGE_WINDOW_MS,
    );
    page = hit.allowed
      ? await collectionPage(ctx, collectionId, orderId)
      : { kind: "too_many", retryAfterMs: hit.retryAfterMs };
  } catch (error) {
    // The store's database away: the one translation (route-failures.ts) answers the page that
    // reloads itself after `Retry-After`.
    if (isStoreFailure(error)) throw error;
    ctx.logger.warn(
      `payment page: could not answer (${redact((error as Error)?.message ?? String(error))})`,
    );
    page = { kind: "unavailable" };
  }
  if (page.kind === "too_many") res.set("retry-after", String(Math.ceil(page.retryAfterMs / 1000)));
  if (page.kind === "unavailable") res.set("retry-after", "60");
  const { status, html } = collectionPageHtml(page, nonce);
  res.status(status).type("html").send(html);
}
