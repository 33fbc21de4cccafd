import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "vite";

const ROOT = join(import.meta.dirname, "..", "..");
// A secret key a merchant would have in the environment when building the storefront.
const ENV_KEY = "sk_live_bundle_scan_5ecret_in_env";
/** Any secret key literal, including the sandbox's documented default. */
const SECRET_KEY = /sk_live_[A-Za-z0-9_]+/;
/**
 * Code that only the server-side client has: it builds authenticated API calls and reads the
 * service's rate-limit headers. (Store error codes such as `charge_outcome_unknown` are not
 * markers: the element turns them into shopper words.)
 */
const CLIENT_MARKERS = ["findAfterUnknownOutcome", "Idempotency-Key", "x-ratelimit-remaining"];

/** Every .js/.mjs/.css/.html file under `dir`. */
function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return /\.(m?js|css|html)$/.test(name) ? [path] : [];
  });
}

function offenders(paths: string[]): string[] {
  return paths.flatMap((path) => {
    const text = readFileSync(path, "utf8");
    const found = [
      ...(SECRET_KEY.exec(text)?.slice(0, 1) ?? []),
      ...(text.includes(ENV_KEY) ? [ENV_KEY] : []),
      ...CLIENT_MARKERS.filter((marker) => text.includes(marker)),
    ];
    return found.map((what) => `${path.slice(ROOT.length + 1)}: ${what}`);
  });
}

describe("browser bundles", () => {
  let storefrontOut: string;

  beforeAll(async () => {
    // Build the demo storefront the way `npm run demo` configures Vite, with a secret key in
    // the environment: Vite must not carry it (or the client) into what shoppers download.
    process.env.PIX_API_KEY = ENV_KEY;
    storefrontOut = mkdtempSync(join(tmpdir(), "pix-storefront-"));
    const { storefrontConfig } = (await import(
      join(ROOT, "apps/demo/storefront/demo-config-plugin.mjs")
    )) as { storefrontConfig: (config: Record<string, string>) => Record<string, unknown> };
    const config = storefrontConfig({
      backendUrl: "http://localhost:9000",
      publishableKey: "pk_bundle_scan",
      sandboxUrl: "http://127.0.0.1:4010",
    });
    await build({
      ...config,
      logLevel: "silent",
      build: { ...(config.build as object), outDir: storefrontOut, emptyOutDir: true },
    });
  }, 120_000);

  afterAll(() => {
    delete process.env.PIX_API_KEY;
    if (storefrontOut) rmSync(storefrontOut, { recursive: true, force: true });
  });

  it("the element's shipped build holds no secret key and no API-client code", () => {
    const dist = join(ROOT, "packages/element/dist");
    expect(existsSync(dist), "build packages/element first").toBe(true);
    const shipped = files(dist);
    expect(shipped.length).toBeGreaterThan(0);
    expect(offenders(shipped)).toEqual([]);
  });

  it("the demo storefront's production build holds no secret key and no API-client code", () => {
    const built = files(storefrontOut);
    expect(built.some((path) => path.endsWith(".js"))).toBe(true);
    expect(offenders(built)).toEqual([]);
  });

  it("the plugin's admin bundle (run in the merchant's browser) holds no secret key", () => {
    const admin = join(ROOT, "packages/medusa/.medusa/server/src/admin");
    expect(existsSync(admin), "build packages/medusa first").toBe(true);
    expect(offenders(files(admin))).toEqual([]);
  });
});
