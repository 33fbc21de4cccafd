import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error -- plain JS module with JSDoc types
import { startStorefront } from "../../lib/storefront.mjs";

const file = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));
// A file of the demo's data folder, made for the test: a refusal must not be a missing file.
const SECRET_FILE = `dev-server-test-${process.pid}.json`;
const MARKER = "admin-password-that-must-not-leak";

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

// The server `npm run demo` runs (lib/storefront.mjs: Vite in middleware mode behind the demo's
// own HTTP server), not a standalone Vite built from the shared config.
describe("the demo's storefront server serves the storefront, not the workspace", () => {
  let storefront: { url: string; close: () => Promise<void> };
  let base: string;
  beforeAll(async () => {
    mkdirSync(file("../../.data"), { recursive: true });
    writeFileSync(file(`../../.data/${SECRET_FILE}`), JSON.stringify({ password: MARKER }));
    const port = await freePort();
    storefront = await startStorefront({
      host: "127.0.0.1",
      port,
      config: { backendUrl: "http://127.0.0.1:9", publishableKey: "pk_test" },
    });
    base = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    await storefront?.close();
    rmSync(file(`../../.data/${SECRET_FILE}`), { force: true });
  });

  for (const [what, path] of [
    ["the store's config with its API key", "../../medusa-config.ts"],
    ["the demo's data folder (admin password, sandbox state)", `../../.data/${SECRET_FILE}`],
    ["another package's source", "../../../../packages/medusa/src/internal/platform/options.ts"],
    ["the repository's root package.json", "../../../../package.json"],
  ] as const) {
    it(`refuses ${what} under /@fs/`, async () => {
      const res = await fetch(`${base}/@fs${file(path)}`);
      expect(res.status).toBe(403);
      expect(await res.text()).not.toContain(MARKER);
    });
  }

  it("still serves the storefront's own modules", async () => {
    const res = await fetch(`${base}/src/format.ts`);
    expect(res.status).toBe(200);
  });
});
