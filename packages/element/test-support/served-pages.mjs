// The plugin's own HTML pages for the accessibility suite (test-pages/served-pages.ts):
// packages/medusa/integration-tests/pages/served-pages.ts draws every page and state with the
// plugin's real render functions; this middleware serves them at the paths the plugin's routes
// serve them at, so every relative URL in them resolves as it does on a Medusa server:
// - the pages themselves (`/pix-checkout/payment-collection/…`, `/pix-checkout/recovery/…`),
// - the element's browser build under `/pix-checkout/assets/` (the plugin's assets route),
// - the element's store routes (`/store/pix-checkout/sessions/…`), passed on to the fake
//   store backend, which plays Medusa's part as it does for the element's own tests.
// The pages' Content-Security-Policy and `frame-ancestors 'none'` are left out: the test opens
// each page in a frame of its own page and runs axe-core inside it.
import { build } from "esbuild";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { payLinkPageCases } from "./pay-link-page.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const dist = fileURLToPath(new URL("../dist/", import.meta.url));
const axeSource = readFileSync(fileURLToPath(import.meta.resolve("axe-core/axe.min.js")), "utf8");

/** Loads the pages' module from plain Node: esbuild bundles the plugin's TypeScript for it. */
async function loadServedPages() {
  const bundled = await build({
    entryPoints: ["../medusa/integration-tests/pages/served-pages.ts"],
    bundle: true,
    platform: "node",
    format: "esm",
    packages: "external",
    write: false,
    absWorkingDir: root,
    logLevel: "warning",
  });
  const local = fileURLToPath(new URL(`./.served-pages-${process.pid}.tmp.mjs`, import.meta.url));
  writeFileSync(local, bundled.outputFiles[0].text);
  try {
    /** @type {typeof import("../../medusa/integration-tests/pages/served-pages.ts")} */
    const module = await import(local);
    return module;
  } finally {
    rmSync(local);
  }
}

/** A Koa middleware for @web/test-runner's server; `backendUrl` is the fake store backend. */
export async function servedPagesMiddleware(backendUrl) {
  const { renderServedPage, servedPageCases } = await loadServedPages();
  return async function servedPages(ctx, next) {
    const path = ctx.path;
    if (path === "/__served-pages.json") {
      ctx.type = "json";
      // With the demo storefront's `/pagar/` page (./pay-link-page.mjs), checked the same way.
      ctx.body = JSON.stringify([...servedPageCases, ...payLinkPageCases]);
      return;
    }
    // axe-core, loaded into a page's frame by the test (same origin, no policy to refuse it).
    if (path === "/__axe.js") {
      ctx.type = "js";
      ctx.body = axeSource;
      return;
    }
    const asset = /^\/pix-checkout\/assets\/((?:chunks\/)?[A-Za-z0-9_-]{1,80}\.js)$/.exec(path);
    if (asset) {
      ctx.type = "js";
      ctx.body = readFileSync(`${dist}${asset[1]}`);
      return;
    }
    if (path.startsWith("/store/pix-checkout/sessions/")) {
      const answer = await fetch(`${backendUrl}${ctx.url}`, {
        method: ctx.method,
        headers: Object.fromEntries(
          ["x-publishable-api-key", "content-type", "accept"]
            .filter((name) => ctx.get(name))
            .map((name) => [name, ctx.get(name)]),
        ),
        body: ctx.method === "POST" ? await readBody(ctx.req) : undefined,
      });
      ctx.status = answer.status;
      const type = answer.headers.get("content-type");
      if (type) ctx.type = type;
      ctx.body = Buffer.from(await answer.arrayBuffer());
      return;
    }
    if (path.startsWith("/pix-checkout/")) {
      const page = renderServedPage(path, ctx.query.session ?? null);
      if (page) {
        ctx.status = page.status;
        ctx.type = "html";
        ctx.set("cache-control", "no-store");
        ctx.body = page.html;
        return;
      }
    }
    return next();
  };
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}
