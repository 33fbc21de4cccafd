#!/usr/bin/env node
// Builds dist/: minified ESM with Lit bundled in (the element is usually the only Lit
// user on a storefront, and a self-contained file also works from a CDN).
// - dist/index.js holds Lit and the element in one file: one request, one gzip stream.
// - `qrcode` (dist/chunks/qr-encoder.js), the en/es strings, the boleto helpers, "Já paguei" and the
//   preparing, superseded and refund views' words are imported dynamically: each is a chunk under
//   dist/chunks/ that loads only when needed.
// - dist/react.js imports the element from ./index.js (never a second copy); React stays external.
// - Lit ships as published: no third-party file is edited. The only text rewrites are the
//   whitespace inside the element's own html`` templates (minifyHtmlTemplates, on the sources)
//   and the rename of the private name `#_` in the files built from them (renamePrivateUnderscore).
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
  plugins: [minifyLitCss(), minifyHtmlTemplates()],
};

const element = await build({
  ...common,
  // The shopper messages are their own entry: storefronts import them, and the element's
  // lazily loaded chunks share them, never its first file.
  entryPoints: { index: "src/index.ts", messages: "src/messages.ts" },
  chunkNames: "chunks/[name]-[hash]",
  splitting: true,
  // Only src/internal/qr.ts imports the encoder, and it is itself a chunk in dist/chunks/.
  plugins: [...common.plugins, external(/\/qr-encoder\.js$/, "./qr-encoder.js")],
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
  splitting: true,
  // A server never draws a QR: `qrcode`'s Node build (fs, zlib, streams) stays out, so the
  // same files also serve an edge runtime (the `edge-light` condition), which has none of those.
  plugins: [...common.plugins, noQrOnServer()],
});

// qrcode's chunk is third-party code: written as esbuild made it.
for (const file of qr.outputFiles) write(file.path, file.text);
for (const file of [...element.outputFiles, ...react.outputFiles, ...server.outputFiles]) {
  write(file.path, renamePrivateUnderscore(file.path, file.text));
}

function write(path, text) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/**
 * SWC, Turbopack's parser, rejects a private name `#_` ("duplicate private name #_"), which
 * esbuild's minifier hands out to our classes' private fields: rename it to one the minifier
 * has not used. Lit's published modules declare no private names, so every `#_` is ours;
 * the count of renames must equal the count found by a stricter look (a private name after
 * `.`, `#_ in`, or a class-body declaration, getters included), or the build stops.
 */
function renamePrivateUnderscore(path, text) {
  if (/#_0(?![\w$])/.test(text)) throw new Error(`${path}: #_0 is taken`);
  const all = text.match(/#_(?![\w$])/g)?.length ?? 0;
  const asNames =
    text.match(/(?:[.{};,(*]|\b(?:get|set|static|async)|^)\s*#_(?![\w$])|#_(?=\s+in\b)/gm)
      ?.length ?? 0;
  if (all !== asNames) {
    const where = [...text.matchAll(/.{12}#_(?![\w$]).{12}/g)].map((m) => m[0]).join(" | ");
    throw new Error(`${path}: ${all} "#_" found, ${asNames} where a private name goes: ${where}`);
  }
  return text.replace(/#_(?![\w$])/g, "#_0");
}

/**
 * Squeezes the whitespace of the html`` templates in src/ (not of any other string, and
 * never of Lit's files): a newline plus indentation means no more than one space in a
 * template, whitespace between two tags means nothing, nor before the `>` that closes a
 * start tag whose attributes prettier put on lines of their own. The scanner reads strings,
 * comments and nested templates; the count of template literals and `${` must come out as it
 * went in, or the build stops.
 */
function minifyHtmlTemplates() {
  return {
    name: "minify-html-templates",
    setup(pluginBuild) {
      pluginBuild.onLoad({ filter: /\/src\/.*\.ts$/ }, ({ path }) => {
        if (/\.(styles|test)\.ts$/.test(path)) return undefined;
        const source = readFileSync(path, "utf8");
        if (!source.includes("html`")) return undefined;
        const contents = squeezeHtmlTemplates(source);
        const marks = (text) => [text.split("`").length, text.split("${").length].join();
        if (marks(contents) !== marks(source)) {
          throw new Error(`${path}: the template scan lost a \` or \${`);
        }
        return { contents, loader: "ts" };
      });
    },
  };
}

function squeezeHtmlTemplates(src) {
  let i = 0;
  let out = "";
  const squeeze = (text) =>
    text
      .replace(/\n\s+>/g, ">")
      .replace(/\n\s*/g, " ")
      .replace(/> </g, "><");
  const code = (nested) => {
    let depth = 0;
    while (i < src.length) {
      const c = src[i];
      const next = src[i + 1];
      let end = i + 1;
      if (c === "/" && next === "/") {
        end = src.indexOf("\n", i);
        if (end < 0) end = src.length;
      } else if (c === "/" && next === "*") end = src.indexOf("*/", i) + 2;
      else if (c === '"' || c === "'") {
        end = i + 1;
        while (src[end] !== c) end += src[end] === "\\" ? 2 : 1;
        end += 1;
      } else if (c === "`") {
        template(/\bhtml\s*$/.test(src.slice(Math.max(0, i - 8), i)));
        continue;
      } else if (c === "{") depth += 1;
      else if (c === "}") {
        if (nested && depth === 0) return;
        depth -= 1;
      }
      out += src.slice(i, Math.min(end, src.length));
      i = Math.min(end, src.length);
    }
  };
  const template = (isHtml) => {
    out += "`";
    i += 1;
    let chunk = "";
    const flush = () => {
      out += isHtml ? squeeze(chunk) : chunk;
      chunk = "";
    };
    while (i < src.length) {
      const c = src[i];
      if (c === "\\") {
        chunk += src.slice(i, i + 2);
        i += 2;
      } else if (c === "`") {
        flush();
        out += "`";
        i += 1;
        return;
      } else if (c === "$" && src[i + 1] === "{") {
        flush();
        out += "${";
        i += 2;
        code(true);
        out += "}";
        i += 1;
      } else {
        chunk += c;
        i += 1;
      }
    }
  };
  code(false);
  return out;
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

/** Replaces the QR encoder in the server build by one that says a server draws no QR. */
function noQrOnServer() {
  return {
    name: "no-qr-on-server",
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /\/qr-encoder\.js$/ }, () => ({
        path: "qr-encoder",
        namespace: "no-qr-on-server",
      }));
      pluginBuild.onLoad({ filter: /.*/, namespace: "no-qr-on-server" }, () => ({
        contents:
          'export function qrSvg() { return Promise.reject(new Error("no QR is drawn on a server")); }',
        loader: "js",
      }));
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
