#!/usr/bin/env node
// Prints the element's bundle sizes, minified and gzipped (level 9, as servers commonly
// send them): the initial JS a Pix checkout loads (Lit included) and, separately, the
// lazily loaded QR view and encoder, the new-code-after-expiry call, the "Já paguei" re-check, the stream reader (loaded while the first status request
// is in flight), the check that tells a CORS refusal from a lost connection (after a failed call), the boleto helpers, the preparing, superseded and refund views' words and each
// extra language.
// Builds first unless --no-build. With BENCH_OUT set, also writes the figures there as JSON.
// Exits with 1 when the initial JS is over its budget, so that a regression fails the run.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

const root = new URL("..", import.meta.url).pathname;
const dist = join(root, "dist");
if (!process.argv.includes("--no-build"))
  execFileSync("node", ["build.mjs"], { cwd: root, stdio: "inherit" });

const read = (file) => readFileSync(join(dist, file));
const gz = (buf) => gzipSync(buf, { level: 9 }).length;

/** `file` and every chunk it imports statically, transitively (what loads before it runs). */
function closure(file, seen = new Set()) {
  if (seen.has(file)) return seen;
  seen.add(file);
  const dir = file.includes("/") ? file.slice(0, file.lastIndexOf("/") + 1) : "";
  const code = read(file).toString();
  for (const [, spec] of code.matchAll(
    /(?:^|[;}])\s*(?:import|export)\s*(?:[^"'()]*?from\s*)?["'](\.[^"']+)["']/g,
  )) {
    closure(join(dir, spec).replace(/^\.\//, ""), seen);
  }
  return seen;
}

const sizeOf = (files) => {
  const list = [...files];
  return {
    files: list,
    raw: list.reduce((n, f) => n + read(f).length, 0),
    gzip: list.reduce((n, f) => n + gz(read(f)), 0),
  };
};

const chunks = readdirSync(join(dist, "chunks")).map((f) => `chunks/${f}`);
const lazy = (prefix) => {
  const name = new RegExp(`^chunks/${prefix}(-[A-Z0-9]{8})?\\.js$`);
  const file = chunks.find((f) => name.test(f));
  if (!file) throw new Error(`no ${prefix} chunk in dist/chunks`);
  return file;
};

const initial = sizeOf(closure("index.js"));
const initialSet = new Set(initial.files);
const extra = (prefix) => sizeOf([...closure(lazy(prefix))].filter((f) => !initialSet.has(f)));

const figures = {
  initial_gzip_bytes: initial.gzip,
  initial_min_bytes: initial.raw,
  qr_view_gzip_bytes: extra("qr").gzip,
  qr_encoder_gzip_bytes: extra("qr-encoder").gzip,
  renew_gzip_bytes: extra("renew").gzip,
  recheck_gzip_bytes: extra("recheck").gzip,
  stream_gzip_bytes: extra("stream").gzip,
  cors_gzip_bytes: extra("cors").gzip,
  boleto_gzip_bytes: extra("boleto-view").gzip,
  notice_gzip_bytes: extra("notice-view").gzip,
  lang_en_gzip_bytes: extra("en").gzip,
  lang_es_gzip_bytes: extra("es").gzip,
  react_wrapper_gzip_bytes: sizeOf(["react.js"]).gzip,
  // Lit as published (no patched third-party code) and the phone-first view: 12,800 B,
  // still more than 4x smaller than Adyen's Pix component.
  initial_budget_gzip_bytes: 12_800,
};

const kb = (n) => `${(n / 1024).toFixed(2)} KiB`;
const within = initial.gzip <= figures.initial_budget_gzip_bytes;
console.log("@pix-checkout/element bundle sizes (minified + gzip -9, Lit as published)");
console.log(
  `  initial JS, Lit included (${initial.files.join(" + ")}): ${kb(initial.gzip)} (${initial.gzip} B; ${kb(initial.raw)} minified)`,
);
console.log(`  QR view, lazy (inline SVG):       ${kb(figures.qr_view_gzip_bytes)}`);
console.log(`  QR encoder, lazy (qrcode):        ${kb(figures.qr_encoder_gzip_bytes)}`);
console.log(`  new code after expiry, lazy:      ${kb(figures.renew_gzip_bytes)}`);
console.log(`  "Já paguei", lazy:                ${kb(figures.recheck_gzip_bytes)}`);
console.log(`  stream reader, after first paint: ${kb(figures.stream_gzip_bytes)}`);
console.log(`  no answer: CORS or connection?:   ${kb(figures.cors_gzip_bytes)}`);
console.log(`  boleto view, lazy:                ${kb(figures.boleto_gzip_bytes)}`);
console.log(`  words under past-code titles: ${kb(figures.notice_gzip_bytes)}`);
console.log(`  en strings, lazy:                 ${kb(figures.lang_en_gzip_bytes)}`);
console.log(`  es strings, lazy:                 ${kb(figures.lang_es_gzip_bytes)}`);
console.log(`  React wrapper (react.js):         ${kb(figures.react_wrapper_gzip_bytes)}`);
console.log(
  `  budget for initial JS:            ${figures.initial_budget_gzip_bytes} B -> ${within ? "within" : "OVER"}`,
);

if (process.env.BENCH_OUT) {
  writeFileSync(
    process.env.BENCH_OUT,
    `${JSON.stringify({ name: "element-size", figures }, null, 2)}\n`,
  );
}

if (!within) process.exitCode = 1;
