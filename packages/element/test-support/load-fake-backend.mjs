// Loads test-support/fake-backend.ts from plain Node (the test runner's config and the
// screenshot script are .mjs, and Node 20 cannot import TypeScript): esbuild bundles it
// to a temporary module next to it, so its bare imports (qrcode) resolve from node_modules.
import { build } from "esbuild";
import { rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** @returns {Promise<typeof import("./fake-backend.ts")>} */
export async function loadFakeBackend() {
  const root = fileURLToPath(new URL("..", import.meta.url));
  const bundled = await build({
    entryPoints: ["test-support/fake-backend.ts"],
    bundle: true,
    platform: "node",
    format: "esm",
    packages: "external",
    write: false,
    absWorkingDir: root,
    logLevel: "warning",
  });
  const local = fileURLToPath(new URL(`./.fake-backend-${process.pid}.tmp.mjs`, import.meta.url));
  writeFileSync(local, bundled.outputFiles[0].text);
  try {
    return await import(local);
  } finally {
    rmSync(local);
  }
}
