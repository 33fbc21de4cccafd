import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type ViteDevServer } from "vite";
// @ts-expect-error -- plain JS module with JSDoc types
import { storefrontConfig } from "../demo-config-plugin.mjs";

const file = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));
// A file of the demo's data folder, made for the test: a refusal must not be a missing file.
const SECRET_FILE = `dev-server-test-${process.pid}.json`;
const MARKER = "admin-password-that-must-not-leak";

describe("the storefront's dev server serves the storefront, not the workspace", () => {
  let server: ViteDevServer;
  let base: string;
  beforeAll(async () => {
    mkdirSync(file("../../.data"), { recursive: true });
    writeFileSync(file(`../../.data/${SECRET_FILE}`), JSON.stringify({ password: MARKER }));
    server = await createServer({
      ...storefrontConfig({ backendUrl: "http://127.0.0.1:9", publishableKey: "pk_test" }),
      server: {
        ...storefrontConfig({ backendUrl: "", publishableKey: "" }).server,
        port: 0,
        strictPort: false,
      },
      logLevel: "silent",
    });
    await server.listen();
    const address = server.httpServer!.address() as { port: number };
    base = `http://127.0.0.1:${address.port}`;
  });
  afterAll(async () => {
    await server?.close();
    rmSync(file(`../../.data/${SECRET_FILE}`), { force: true });
  });

  for (const [what, path] of [
    ["the store's config with its API key", "../../medusa-config.ts"],
    ["the demo's data folder (admin password, sandbox state)", `../../.data/${SECRET_FILE}`],
    ["another package's source", "../../../../packages/medusa/src/internal/options.ts"],
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
