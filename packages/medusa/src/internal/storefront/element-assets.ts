import { createHash } from "node:crypto";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http";
import { sendError } from "../platform/errors";

/*
 * The `<pix-checkout>` element's browser files, served by the Medusa server for the plugin's
 * own payment page (collection-page.ts): same origin as the store routes, so the page needs no
 * CDN, no CORS and a CSP of `script-src 'self'`. Only the element's browser build is served,
 * by name from a list made once at start: `dist/index.js` and the chunks it imports
 * (`dist/chunks/*.js`, their names hashed by content). Never its server build, its types, the
 * React wrapper, or any path a client writes.
 */

/** One file the page may load. */
export interface ElementAsset {
  body: Buffer;
  /** A strong validator: the first 16 hex digits of the content's SHA-256. */
  etag: string;
}

/** The element's browser files by URL path under `/pix-checkout/assets/`. */
export interface ElementAssets {
  files: ReadonlyMap<string, ElementAsset>;
  /** `index.js` with its content's version, for the page's `<script src>`. */
  entry: string;
}

/** A file name the assets route answers for; anything else is not looked up. */
const NAME = /^[A-Za-z0-9_-]{1,80}\.js$/;

let loaded: ElementAssets | null | undefined;

/**
 * The element's browser build, read once (the files never change in a running process); null
 * when `@pix-checkout/element` is not installed or not built: the page then says so instead of
 * loading a script that is not there.
 */
export function elementAssets(): ElementAssets | null {
  if (loaded !== undefined) return loaded;
  try {
    const dist = path.join(
      path.dirname(require.resolve("@pix-checkout/element/package.json")),
      "dist",
    );
    const files = new Map<string, ElementAsset>();
    const add = (urlPath: string, file: string) => {
      const body = readFileSync(file);
      files.set(urlPath, {
        body,
        etag: createHash("sha256").update(body).digest("hex").slice(0, 16),
      });
    };
    add("index.js", path.join(dist, "index.js"));
    for (const name of readdirSync(path.join(dist, "chunks"))) {
      if (NAME.test(name)) add(`chunks/${name}`, path.join(dist, "chunks", name));
    }
    loaded = { files, entry: `index.js?v=${files.get("index.js")!.etag}` };
  } catch {
    loaded = null;
  }
  return loaded;
}

/** The asset at `urlPath` (`index.js`, `chunks/<name>.js`); undefined for anything else. */
export function elementAsset(urlPath: string): ElementAsset | undefined {
  const [first, second, ...rest] = urlPath.split("/");
  if (rest.length > 0) return undefined;
  const name = second ?? first;
  if (!name || !NAME.test(name) || (second !== undefined && first !== "chunks")) return undefined;
  return elementAssets()?.files.get(urlPath);
}

/**
 * Whether the URL of an asset changes with its content, so it may be cached for good: a chunk
 * whose name carries its hash (`stream-WDHZ3SM5.js`), or the entry asked for with its version.
 */
export function isVersioned(urlPath: string, version: unknown, asset: ElementAsset): boolean {
  if (urlPath === "index.js") return version === asset.etag;
  return /-[A-Z0-9]{8}\.js$/.test(urlPath);
}

/**
 * The headers of an asset: JavaScript, cached for a year when its URL is versioned
 * (`isVersioned`), for five minutes otherwise (revalidated by its ETag), and usable by the
 * store's own pages alone.
 */
export function assetHeaders(asset: ElementAsset, versioned: boolean): Record<string, string> {
  return {
    "content-type": "text/javascript; charset=utf-8",
    "cache-control": versioned ? "public, max-age=31536000, immutable" : "public, max-age=300",
    etag: `"${asset.etag}"`,
    "x-content-type-options": "nosniff",
    "cross-origin-resource-policy": "same-origin",
  };
}

/**
 * Answers a request for an asset: the file with its headers, `304` when the client holds this
 * version, `404 asset_not_found` for any name that is not one of the element's browser files.
 */
export function serveElementAsset(req: MedusaRequest, res: MedusaResponse, urlPath: string): void {
  const asset = elementAsset(urlPath);
  if (!asset) {
    sendError(res, "asset_not_found", "No such file of the payment page's element.");
    return;
  }
  res.set(assetHeaders(asset, isVersioned(urlPath, req.query.v, asset)));
  if (req.headers["if-none-match"] === `"${asset.etag}"`) {
    res.status(304).end();
    return;
  }
  res.status(200).send(asset.body);
}
