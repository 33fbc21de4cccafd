#!/usr/bin/env node
// Builds dist/: minified ESM with Lit bundled in (the element is usually the only Lit
// user on a storefront, and a self-contained file also works from a CDN).
// - dist/index.js holds Lit and the element in one file: one request, one gzip stream.
// - `qrcode` (dist/chunks/qr-encoder.js), the en/es strings, the boleto helpers and the
//   preparing, superseded and refund views' words are imported dynamically: each is a chunk under
//   dist/chunks/ that loads only when needed.
// - dist/react.js imports the element from ./index.js (never a second copy); React stays external.
// - Lit's hooks for other scripts' globals (polyfills, SSR hydration, version lists) are left
//   out of the browser build: see withoutLitGlobalHooks.
import { build, transform } from "esbuild";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

const root = new URL(".", import.meta.url).pathname;
// Chunk names carry content hashes: clear old ones. The .d.ts files from tsc stay.
rmSync(`${root}dist/chunks`, { recursive: true, force: true });
rmSync(`${root}dist/server`, { recursive: true, force: true });

const common = {
  absWorkingDir: root,
  outdir: "dist",
  bundle: true,
  format: "esm",
  platform: "browser",
  target: "es2022",
  minify: true,
  legalComments: "none",
  write: false,
  logLevel: "warning",
  plugins: [minifyLitCss()],
};

const element = await build({
  ...common,
  entryPoints: { index: "src/index.ts" },
  chunkNames: "chunks/[name]-[hash]",
  splitting: true,
  plugins: [
    ...common.plugins,
    external(/\/qr-encoder\.js$/, "./chunks/qr-encoder.js"),
    withoutLitGlobalHooks(),
  ],
});
// qrcode is CommonJS: built on its own, so esbuild's CJS shim stays out of index.js.
const qr = await build({
  ...common,
  entryPoints: { "chunks/qr-encoder": "src/internal/qr-encoder.ts" },
});
const react = await build({
  ...common,
  entryPoints: { react: "src/react.ts" },
  external: ["react"],
  plugins: [...common.plugins, external(/^\.\/pix-checkout\.js$/, "./index.js")],
});

// The server build (dist/server/): what Node, Next's server layers and Vite's SSR load
// through the `node` and `react-server` export conditions. Lit and @lit/react resolve to
// their own node builds, which carry Lit's DOM shim instead of touching HTMLElement, so a
// storefront can import the element or its React wrapper while rendering on the server.
// The React wrapper there renders a bare <pix-checkout> tag that the browser build
// hydrates and upgrades.
const server = await build({
  ...common,
  entryPoints: { "server/index": "src/index.ts", "server/react": "src/react.ts" },
  platform: "node",
  conditions: ["node"],
  external: ["react"],
  chunkNames: "server/chunks/[name]-[hash]",
  // The QR encoder is bundled here as its own lazy chunk: a path out to dist/chunks/ would
  // depend on which file esbuild puts the import in. A server never draws a QR anyway.
  splitting: true,
});

for (const file of [
  ...element.outputFiles,
  ...qr.outputFiles,
  ...react.outputFiles,
  ...server.outputFiles,
]) {
  // Minified output has raw newlines only inside template literals. A newline plus
  // indentation occurs only in our html`` templates, where it means no more than one
  // space, and whitespace between two tags means nothing there, nor before the `>` that
  // closes a start tag whose attributes prettier put on lines of their own. (A bare
  // newline can be a real "\n" that esbuild wrote as a template literal: it is left alone.)
  // SWC, Turbopack's parser, rejects a private name `#_` ("duplicate private name #_"),
  // which esbuild's minifier hands out: rename it to one the minifier has not used.
  if (/#_0(?![\w$])/.test(file.text)) throw new Error(`${file.path}: #_0 is taken`);
  const text = file.text
    .replace(/\n {2,}>/g, ">")
    .replace(/\n {2,}/g, " ")
    .replace(/> </g, "><")
    .replace(/#_(?![\w$])/g, "#_0");
  mkdirSync(dirname(file.path), { recursive: true });
  writeFileSync(file.path, text);
}

/**
 * Minifies the CSS inside src/*.styles.ts (one css`` literal without interpolations) and
 * hands it to Lit's `unsafeCSS` instead of the `css` tag. Both make the same CSSResult;
 * the tag only adds checks of interpolated values (with a long error message) that a
 * literal without any never needs. "Unsafe" is about untrusted text, and this is ours.
 * The source keeps `css` so that editors and prettier still treat the literal as CSS.
 */
function minifyLitCss() {
  const litImport = 'import { css } from "lit";';
  return {
    name: "minify-lit-css",
    setup(pluginBuild) {
      pluginBuild.onLoad({ filter: /\.styles\.ts$/ }, async ({ path }) => {
        const source = readFileSync(path, "utf8");
        const match = /\bcss`([^`$]*)`/.exec(source);
        if (!match || !source.includes(litImport)) {
          throw new Error(`${path}: expected ${litImport} and one css\`\` literal without \${}`);
        }
        const { code } = await transform(match[1], { loader: "css", minify: true });
        // esbuild keeps the spaces in custom property values (`--a: var(--x, #fff)`), but
        // such a value is trimmed, and a space after a comma means nothing outside strings.
        const css = code
          .trim()
          .split(/("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')/)
          .map((part, i) =>
            i % 2 ? part : part.replace(/(--[\w-]+): /g, "$1:").replace(/, /g, ","),
          )
          .join("");
        const contents = source
          .replace(litImport, 'import { unsafeCSS } from "lit";')
          .replace(match[0], `unsafeCSS(\`${css}\`)`);
        return { contents, loader: "ts" };
      });
    },
  };
}

/**
 * Leaves out of the browser build the three statements by which Lit's modules offer
 * themselves to globals of other scripts: the ShadyDOM polyfill hooks
 * (`@webcomponents/polyfill-support`, for browsers without shadow DOM, none of which runs
 * this ES2022 build), the SSR hydration hook (`@lit-labs/ssr-client`; the server build renders
 * a bare tag, never Lit SSR markup to hydrate) and the `lit*Versions` lists (read only by
 * Lit's development build, to warn about two copies on one page). None of them changes what
 * the element does; together they are about 120 B of the gzipped initial JS. Each must be
 * found once: a Lit release that writes them otherwise fails the build instead of shipping
 * them unnoticed (or half removed).
 */
function withoutLitGlobalHooks() {
  const hooks = {
    "lit-element/lit-element.js": [
      [/,\w+\.litElementHydrateSupport\?\.\(\{LitElement:\w+\}\);/, ";"],
      [/const (\w+)=\w+\.litElementPolyfillSupport;\1\?\.\(\{LitElement:\w+\}\);/, ""],
      [/\(\w+\.litElementVersions\?\?=\[\]\)\.push\("[\d.]+"\);/, ""],
    ],
    "lit-html/lit-html.js": [
      [
        /,(\w+)=\w+\.litHtmlPolyfillSupport;\1\?\.\(\w+,\w+\),\(\w+\.litHtmlVersions\?\?=\[\]\)\.push\("[\d.]+"\);/,
        ";",
      ],
    ],
    "@lit/reactive-element/reactive-element.js": [
      [/,(\w+)=\w+\.reactiveElementPolyfillSupport(?=,)/, ""],
      [
        /,\w+\?\.\(\{ReactiveElement:\w+\}\),\(\w+\.reactiveElementVersions\?\?=\[\]\)\.push\("[\d.]+"\)/,
        "",
      ],
    ],
  };
  return {
    name: "without-lit-global-hooks",
    setup(pluginBuild) {
      const files =
        /node_modules\/(lit-element\/lit-element|lit-html\/lit-html|@lit\/reactive-element\/reactive-element)\.js$/;
      pluginBuild.onLoad({ filter: files }, ({ path }) => {
        const [file, edits] = Object.entries(hooks).find(([name]) => path.endsWith(name));
        let contents = readFileSync(path, "utf8");
        for (const [pattern, replacement] of edits) {
          const found = contents.match(new RegExp(pattern, "g"))?.length ?? 0;
          if (found !== 1) throw new Error(`${file}: expected one ${pattern}, found ${found}`);
          contents = contents.replace(pattern, replacement);
        }
        return { contents, loader: "js" };
      });
    },
  };
}

/** Leaves imports matching `filter` to be loaded at run time from `path` (relative to dist/). */
function external(filter, path) {
  return {
    name: `external-${path}`,
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter }, () => ({ path, external: true }));
    },
  };
}
