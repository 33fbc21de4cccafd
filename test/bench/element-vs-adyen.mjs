#!/usr/bin/env node
// What a shopper downloads before a Pix checkout can show: <pix-checkout> against Adyen Web's
// Pix component (the usual alternative in Brazil), both bundled the same way by esbuild from
// a one-line entry (ESM, browser, es2022, minified, code splitting on), then gzipped at level
// 9. "Initial" is the entry chunk plus every chunk it imports statically; lazily imported
// chunks are listed apart. Adyen's stylesheet is a separate file it needs, so it is counted
// in the "with CSS" line; the element carries its styles inside its JS.
// With BENCH_OUT set, also writes the figures there as JSON.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

const root = new URL("../..", import.meta.url).pathname;
const require = createRequire(join(root, "package.json"));
const gz = (buf) => gzipSync(buf, { level: 9 }).length;

/** Bundles `source` (an ES module) and returns the initial and lazy gzipped sizes. */
async function measure(name, source) {
  const dir = mkdtempSync(join(tmpdir(), `bench-${name}-`));
  const entry = join(dir, "entry.mjs");
  writeFileSync(entry, source);
  const result = await build({
    entryPoints: [entry],
    outdir: join(dir, "out"),
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    minify: true,
    metafile: true,
    logLevel: "silent",
    nodePaths: [join(root, "node_modules")],
    absWorkingDir: root,
  });
  const outputs = result.metafile.outputs;
  // The output of our one-line entry: a lazily imported chunk is an entry point of esbuild's
  // too (the element's QR view was once taken for the whole element here, at 0.6 KiB).
  const entryOut = Object.keys(outputs).find(
    (file) => outputs[file].entryPoint === relative(root, entry),
  );
  const initial = new Set();
  const visit = (file) => {
    if (initial.has(file)) return;
    initial.add(file);
    for (const imported of outputs[file].imports) {
      if (imported.kind === "import-statement" && !imported.external) visit(imported.path);
    }
  };
  visit(entryOut);
  const size = (files) => files.reduce((n, file) => n + gz(readFileSync(join(root, file))), 0);
  const js = Object.keys(outputs).filter((file) => file.endsWith(".js"));
  const figures = {
    initialGzip: size([...initial].filter((file) => file.endsWith(".js"))),
    initialMin: [...initial].reduce((n, file) => n + outputs[file].bytes, 0),
    lazyGzip: size(js.filter((file) => !initial.has(file))),
    chunks: js.length,
  };
  rmSync(dir, { recursive: true, force: true });
  return figures;
}

const element = await measure("element", `import "@pix-checkout/element";\n`);
const adyen = await measure(
  "adyen",
  `import { AdyenCheckout, Pix } from "@adyen/adyen-web";\nexport { AdyenCheckout, Pix };\n`,
);
const adyenCssPath = require.resolve("@adyen/adyen-web/styles/adyen.css");
const adyenCss = gz(readFileSync(adyenCssPath));
const adyenVersion = JSON.parse(
  readFileSync(join(root, "node_modules/@adyen/adyen-web/package.json"), "utf8"),
).version;

const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;
const ratio = (adyen.initialGzip / element.initialGzip).toFixed(1);
console.log("Initial download for a Pix checkout (esbuild, minified, gzip -9)");
console.log(
  `  <pix-checkout> JS:               ${kb(element.initialGzip)} (${element.initialGzip} B; lazy extras ${kb(element.lazyGzip)})`,
);
console.log(
  `  Adyen Web ${adyenVersion} Pix JS:     ${kb(adyen.initialGzip)} (${adyen.initialGzip} B; lazy extras ${kb(adyen.lazyGzip)})`,
);
console.log(`  Adyen Web stylesheet:            ${kb(adyenCss)} (${relative(root, adyenCssPath)})`);
console.log(`  Adyen JS ÷ element JS:           ${ratio}×`);

if (process.env.BENCH_OUT) {
  writeFileSync(
    process.env.BENCH_OUT,
    `${JSON.stringify(
      {
        name: "element-vs-adyen",
        figures: {
          element_initial_gzip: kb(element.initialGzip),
          [`adyen_web_${adyenVersion}_pix_initial_gzip`]: kb(adyen.initialGzip),
          adyen_web_pix_with_css_gzip: kb(adyen.initialGzip + adyenCss),
          adyen_to_element_ratio: `${ratio}×`,
        },
      },
      null,
      2,
    )}\n`,
  );
}
