// The demo storefront's "come back and pay" page (`/pagar/<session_id>`, the link in the
// demo's e-mails) for the accessibility suite (test-pages/served-pages.ts). What the shopper's
// browser runs is the storefront's own code: its index.html, and its src/main.ts bundled by
// esbuild with what Vite gives it in the demo (the `virtual:pix-demo-config` module from the
// demo's own plugin, the alias to the element's messages, the element's browser build from
// node_modules), its CSS in a stylesheet as `vite build` emits it. The page talks to the fake
// store backend across origins, as the storefront talks to Medusa. The bundle is made on the
// first request for it (about a second), so runs of the other groups do not pay for it.
// `?element=missing` serves a second bundle without the element's package, whose import then
// fails in the browser as it does in the demo before the element is built: the page's banner.
import { build } from "esbuild";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import {
  demoConfigPlugin,
  storefrontConfig,
} from "../../../apps/demo/storefront/demo-config-plugin.mjs";

const storefront = fileURLToPath(new URL("../../../apps/demo/storefront/", import.meta.url));
/** Where the bundle's files are served; its chunks import each other relative to it. */
const ASSETS = "/__demo-storefront/";
/** The publishable key the element's fake backend accepts. */
const PUBLISHABLE_KEY = "pk_test_element";

/**
 * The page in each state a shopper can find it in, for test-pages/served-pages.ts: `{session}`
 * in the path is replaced by the id of the session the test puts on the fake backend first.
 * @type {import("../test-pages/served-pages.ts").ServedPageCase[]}
 */
export const payLinkPageCases = [
  {
    path: "/pagar/{session}",
    title: "/pagar/: a cart's Pix code awaiting payment",
    session: { method: "pix", status: "pending" },
  },
  {
    path: "/pagar/{session}",
    title: "/pagar/: an order's boleto awaiting payment",
    session: { method: "boleto", status: "pending", order: { display_id: 1042 } },
    shows: "pedido #1042",
  },
  {
    path: "/pagar/{session}",
    title: "/pagar/: paid, the store's order paid",
    session: { method: "pix", status: "paid", order: { display_id: 1042, payment: "paid" } },
    shows: "Seu pedido #1042 está pago",
  },
  {
    path: "/pagar/{session}",
    title: "/pagar/: the code expired, a new one offered",
    session: { method: "pix", status: "expired", renewable: true },
  },
  {
    path: "/pagar/{session}",
    title: "/pagar/: the code replaced by the cart's current one",
    session: { method: "pix", status: "superseded", replaced: true },
  },
  {
    path: "/pagar/{session}",
    title: "/pagar/: no such session (404)",
    session: { method: "pix", status: "pending", store: "missing" },
  },
  {
    path: "/pagar/{session}",
    title: "/pagar/: the store unavailable (503)",
    session: { method: "pix", status: "pending", store: "down" },
  },
  {
    path: "/pagar/{session}?element=missing",
    title: "/pagar/: the element's package not built (the demo's banner)",
    session: { method: "pix", status: "pending" },
    element: "missing",
    shows: "O componente <pix-checkout> não foi carregado",
  },
];

/** The two bundles: the storefront as it runs, and without the element's package. */
const BUNDLES = { whole: "", "no-element": "no-element/" };

/** The storefront's index.html, loading bundle `dir` instead of Vite's dev module. */
function pageHtml(dir) {
  const html = readFileSync(`${storefront}index.html`, "utf8");
  const entry = '<script type="module" src="/src/main.ts"></script>';
  // A changed entry would leave the test reading a page that never runs: say so instead.
  if (!html.includes(entry))
    throw new Error(`apps/demo/storefront/index.html no longer has ${entry}`);
  return html
    .replace(entry, `<script type="module" src="${ASSETS}${dir}main.js"></script>`)
    .replace("</head>", `<link rel="stylesheet" href="${ASSETS}${dir}main.css" />\n  </head>`);
}

/**
 * The storefront bundled as Vite bundles it in the demo, against `backendUrl`: its files by
 * their path under /__demo-storefront/, both bundles.
 */
async function bundles(backendUrl) {
  const [whole, withoutElement] = await Promise.all([
    bundle(backendUrl, false),
    bundle(backendUrl, true),
  ]);
  return new Map([
    ...[...whole].map(([name, text]) => [`${BUNDLES.whole}${name}`, text]),
    ...[...withoutElement].map(([name, text]) => [`${BUNDLES["no-element"]}${name}`, text]),
  ]);
}

/** One bundle; `withoutElement` leaves `@pix-checkout/element` for the browser to fail on. */
async function bundle(backendUrl, withoutElement) {
  const settings = { backendUrl, publishableKey: PUBLISHABLE_KEY };
  const vite = storefrontConfig(settings);
  const config = demoConfigPlugin(settings);
  const result = await build({
    entryPoints: [`${storefront}src/main.ts`],
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "browser",
    target: vite.build.target,
    conditions: ["browser"],
    alias: vite.resolve.alias,
    outdir: "/out",
    write: false,
    logLevel: "warning",
    plugins: [
      {
        // The demo's own Vite plugin answers for `virtual:pix-demo-config`.
        name: "pix-demo-config",
        setup(esbuild) {
          esbuild.onResolve({ filter: /^virtual:pix-demo-config$/ }, ({ path }) => ({
            path: config.resolveId(path),
            namespace: "pix-demo-config",
          }));
          esbuild.onLoad({ filter: /.*/, namespace: "pix-demo-config" }, ({ path }) => ({
            contents: config.load(path),
            loader: "js",
          }));
        },
      },
      {
        name: "pix-element-missing",
        setup(esbuild) {
          if (!withoutElement) return;
          esbuild.onResolve({ filter: /^@pix-checkout\/element$/ }, ({ path }) => ({
            path,
            external: true,
          }));
        },
      },
    ],
  });
  return new Map(result.outputFiles.map((file) => [file.path.slice("/out/".length), file.text]));
}

/**
 * A Koa middleware for @web/test-runner's server serving the page at `/pagar/…` and its
 * bundle under /__demo-storefront/; `backendUrl` is the fake store backend.
 */
export function payLinkPageMiddleware(backendUrl) {
  /** @type {Promise<Map<string, string>> | undefined} */
  let files;
  return async function payLinkPage(ctx, next) {
    if (/^\/pagar\/[^/]+\/?$/.test(ctx.path)) {
      ctx.type = "html";
      ctx.set("cache-control", "no-store");
      ctx.body = pageHtml(BUNDLES[ctx.query.element === "missing" ? "no-element" : "whole"]);
      return;
    }
    if (ctx.path.startsWith(ASSETS)) {
      const file = (await (files ??= bundles(backendUrl))).get(ctx.path.slice(ASSETS.length));
      if (file !== undefined) {
        ctx.type = ctx.path.endsWith(".css") ? "css" : "js";
        ctx.body = file;
        return;
      }
    }
    return next();
  };
}
