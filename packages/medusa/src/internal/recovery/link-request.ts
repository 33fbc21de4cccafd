import { randomBytes } from "node:crypto";
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http";
import { redact } from "@pix-checkout/client";
import { clientOfRequest } from "../create-line/client-of-request";
import type { LinkHitVerdict } from "../records/link-hits";
import { settleContext, type SettleContext } from "../settlement/context";
import { notifyOptions } from "../storefront/notify-options";
import { recoveryOptions } from "../checkout/recovery-options";
import {
  newCodePage,
  optOutPage,
  pageHeaders,
  secondChancePage,
  tooManyPage,
  unavailablePage,
  type StorePlace,
} from "./pages";
import { storeName } from "../medusa/store-name";
import { optOutByLink, secondChance } from "./second-chance";
import { MemoryHits } from "../platform/memory-hits";
import { isStoreFailure } from "../platform/store-failure";

/**
 * How a reminder's links are served: counted per message and per client before anything is
 * read, answered with a page in Portuguese whatever happens (a 429 past the limits, a 503 when
 * the store cannot read, never a 500), and kept out of Medusa's access log.
 */

/** The window the links' limits count in. */
export const LINK_WINDOW_MS = 10 * 60_000;
/**
 * Requests one message's links may take in a window, from any address: a shopper opens the
 * page, taps its button, and may come back; mail scanners open it a few times on delivery.
 */
export const TOKEN_HITS_PER_WINDOW = 10;
/**
 * Requests one client address may make to any message's links in a window. High enough for
 * many shoppers behind one carrier-grade NAT address (common on Brazilian mobile networks),
 * low enough that nobody walks the token space or loads the database through these pages.
 */
export const ADDRESS_HITS_PER_WINDOW = 60;

/**
 * Middleware on every `/pix-checkout/recovery` path, any method: writes the request's
 * `originalUrl` with the token redacted. Medusa's access log (morgan, in `express-loader`)
 * writes `req.originalUrl` when the response ends, so the token never reaches it; the route
 * reads its token from the path Express matched (`req.url`, untouched).
 */
export function hideLinkToken(
  req: { originalUrl?: string },
  _res: unknown,
  next: () => void,
): void {
  if (typeof req.originalUrl === "string") req.originalUrl = redact(req.originalUrl);
  next();
}

/**
 * Every request is counted in this process's memory, and opening a link (GET) only there, so it
 * writes nothing: a scanner or a made-up token leaves no row behind (MemoryHits says what that
 * costs). The buttons (POST), which act, are also counted in Postgres, across instances.
 */
const localHits = new MemoryHits();

/** Counts one request against the message's token and the client's address. */
async function takeHit(
  ctx: SettleContext,
  req: MedusaRequest,
  token: string,
  act: boolean,
): Promise<LinkHitVerdict> {
  const counts = [
    { key: `token:${token}`, limit: TOKEN_HITS_PER_WINDOW },
    { key: `address:${clientOfRequest(req)}`, limit: ADDRESS_HITS_PER_WINDOW },
  ];
  const local = localHits.take(counts, LINK_WINDOW_MS);
  if (!act || !local.allowed) return local;
  return ctx.records.linkHits.take(counts, LINK_WINDOW_MS);
}

/**
 * Serves one request to a reminder's link: its headers, its limits, then `answer`'s page or a
 * redirect. A failure to read (the database away) answers 503 with `Retry-After`, logged with
 * its message redacted and without the URL.
 */
async function serveLink(
  req: MedusaRequest,
  res: MedusaResponse,
  act: boolean,
  answer: (
    ctx: SettleContext,
    token: string,
    nonce: string,
  ) => Promise<{ status: number; html: string; script?: boolean } | { redirect: string }>,
): Promise<void> {
  const ctx = settleContext(req.scope);
  const token = String(req.params.token ?? "").slice(0, 128);
  const nonce = randomBytes(16).toString("base64");
  const formTargets = [
    notifyOptions(ctx.config).paymentPageUrl,
    recoveryOptions(ctx.config).checkoutUrl,
    // An order's own collection's page (storefront/collection-link.ts).
    (ctx.config.admin as { storefrontUrl?: string } | undefined)?.storefrontUrl,
  ];
  res.set(pageHeaders(formTargets));
  let outcome: { status: number; html: string; script?: boolean } | { redirect: string };
  try {
    const hit = await takeHit(ctx, req, token, act);
    if (!hit.allowed) {
      res.set("retry-after", String(Math.ceil(hit.retryAfterMs / 1000)));
      outcome = tooManyPage(hit.retryAfterMs);
    } else {
      outcome = await answer(ctx, token, nonce);
    }
  } catch (error) {
    // The store's database away: the one translation (route-failures.ts) answers the page that
    // reloads itself after `Retry-After`.
    if (isStoreFailure(error)) throw error;
    ctx.logger.warn(
      `recovery link: could not answer (${redact((error as Error)?.message ?? String(error))})`,
    );
    res.set("retry-after", "60");
    outcome = unavailablePage();
  }
  if ("redirect" in outcome) {
    res.redirect(303, outcome.redirect);
    return;
  }
  // Only a page that runs its script (newCodePage) gets a policy allowing it.
  if (outcome.script) res.set(pageHeaders(formTargets, nonce));
  res.status(outcome.status).type("html").send(outcome.html);
}

/**
 * A reminder's new-code link. `act: false` (opening it, GET): where the cart stands and a
 * button, nothing written. `act: true` (the button's POST): prices the cart again as Medusa
 * would, then sends the shopper to the payment page, or says what changed.
 */
export function serveNewCodeLink(
  req: MedusaRequest,
  res: MedusaResponse,
  act: boolean,
): Promise<void> {
  return serveLink(req, res, act, async (ctx, token, nonce) => {
    const found = await secondChance(ctx, token, { reprice: act });
    const store = await storePlace(ctx);
    // The cart's Pix code is over: this answer makes the new one and opens it (one tap in all).
    if (found.kind === "ready" && found.newCode) {
      return { ...newCodePage(found.newCode, nonce, store), script: true };
    }
    // Straight to the payment page, unless a boleto's shopper also has Pix to choose.
    if (found.kind === "ready" && found.paymentPageUrl && !found.checkoutUrl) {
      return { redirect: found.paymentPageUrl };
    }
    return secondChancePage(found, store);
  });
}

/**
 * A reminder's opt-out link. `act: false` (GET): a button; `act: true` (the button's POST, or a
 * mail client's one-click unsubscribe, RFC 8058): the mailbox gets no more reminders.
 */
export function serveOptOutLink(
  req: MedusaRequest,
  res: MedusaResponse,
  act: boolean,
): Promise<void> {
  return serveLink(req, res, act, async (ctx, token) =>
    optOutPage(await optOutByLink(ctx, token, { act }), act, await storePlace(ctx)),
  );
}

/**
 * The store the pages name in their header: its name from Medusa and the storefront's home,
 * the origin of `checkoutUrl`, else of the payment page.
 */
async function storePlace(ctx: SettleContext): Promise<StorePlace> {
  let home: string | null = null;
  for (const url of [
    recoveryOptions(ctx.config).checkoutUrl,
    notifyOptions(ctx.config).paymentPageUrl,
  ]) {
    if (!url || home) continue;
    try {
      home = `${new URL(url.replace("{session_id}", "x")).origin}/`;
    } catch {
      // Not a URL: the options check refuses those at start-up.
    }
  }
  return { name: await storeName(ctx.container), home };
}
