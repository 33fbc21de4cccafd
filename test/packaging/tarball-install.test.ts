// A merchant's install, proved: the four packages packed with `npm pack`, ONLY the tarballs
// installed into a scratch Medusa 2.21 app outside the repository (no workspace links), the
// app configured from the plugin README's own snippet, migrated, booted, and one Pix checkout
// taken to captured against the sandbox. Medusa itself (and every third-party package) comes
// from the root node_modules through symlinks, which keeps the install to seconds; the
// @pix-checkout packages are the tarballs' contents and nothing else.
import { execFileSync } from "node:child_process";
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
} from "node:fs";
import { isBuiltin } from "node:module";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startSandbox, type Sandbox } from "@pix-checkout/sandbox";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createDatabase,
  dropDatabase,
  medusa,
  startMedusa,
  stopProcess,
  writeApp,
} from "../../packages/medusa/scripts/lib/built-app.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const PG = process.env.PIX_TEST_PG_URL ?? "postgres://postgres@localhost:5432";
const API_KEY = "sk_live_packaging_test";
const WEBHOOK_SECRET = "packaging-test-webhook-secret";
const PACKAGES = ["client", "sandbox", "medusa", "element"] as const;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * The `medusa-config.ts` block of packages/medusa/README.md, as a merchant copies it, made
 * runnable: TypeScript syntax stripped, the sandbox as `baseUrl` (as the README's "Try it
 * locally" says), and what any real store adds around it (CORS, secrets, no admin build).
 */
export function configFromReadme(readme: string, sandboxBaseUrl: string): string {
  const block = /`medusa-config\.ts`:\s*```ts\n([\s\S]*?)```/.exec(readme)?.[1];
  if (!block) throw new Error("packages/medusa/README.md has no medusa-config.ts snippet");
  const js = ts.transpileModule(block, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  const projectConfig = /projectConfig: \{[^\n]*\},/;
  if (!projectConfig.test(js) || !js.includes("https://api.example.com/v1")) {
    throw new Error("the README snippet changed shape: update configFromReadme");
  }
  return js
    .replace(
      projectConfig,
      `projectConfig: {
    databaseUrl: process.env.DATABASE_URL,
    http: { storeCors: "*", adminCors: "*", authCors: "*", jwtSecret: "pkg", cookieSecret: "pkg" },
  },
  admin: { disable: true },`,
    )
    .replace("https://api.example.com/v1", sandboxBaseUrl);
}

// Runs inside the app (medusa exec): what a merchant sets up in the admin (a BRL region with
// the Pix provider enabled, a publishable key) and a shopper's cart.
const SEED = `const core = require("@medusajs/medusa/core-flows");
const fs = require("node:fs");
exports.default = async function seed({ container }) {
  const { result: channels } = await core.createSalesChannelsWorkflow(container).run({ input: { salesChannelsData: [{ name: "Web" }] } });
  const { result: regions } = await core.createRegionsWorkflow(container).run({
    input: { regions: [{ name: "Brasil", currency_code: "brl", countries: ["br"], payment_providers: ["pp_pix_pix-checkout"] }] },
  });
  const { result: keys } = await core.createApiKeysWorkflow(container).run({
    input: { api_keys: [{ title: "storefront", type: "publishable", created_by: "" }] },
  });
  await core.linkSalesChannelsToApiKeyWorkflow(container).run({ input: { id: keys[0].id, add: [channels[0].id] } });
  const { result: cart } = await core.createCartWorkflow(container).run({
    input: { region_id: regions[0].id, sales_channel_id: channels[0].id, currency_code: "brl", email: "ana@example.com",
      items: [{ title: "Camiseta", quantity: 1, unit_price: 49.9, requires_shipping: false }] },
  });
  fs.writeFileSync(process.env.SEED_OUT, JSON.stringify({ publishableKey: keys[0].token, cartId: cart.id }));
};
`;

describe("the packed tarballs installed into a scratch Medusa app", () => {
  const started = Date.now();
  // Seconds per phase, printed at the end: the figures quoted in the root README.
  const phases: string[] = [];
  let mark = started;
  const phase = (name: string) => {
    phases.push(`${name} ${((Date.now() - mark) / 1000).toFixed(1)} s`);
    mark = Date.now();
  };
  const dbName = `pix_packaging_${process.pid}_${Date.now()}`;
  let work: string;
  let app: string;
  let sandbox: Sandbox;
  let server: Awaited<ReturnType<typeof startMedusa>> | undefined;
  let seed: { publishableKey: string; cartId: string };
  const env = (): NodeJS.ProcessEnv => ({
    ...process.env,
    DATABASE_URL: `${PG}/${dbName}`,
    NODE_ENV: "production",
    MEDUSA_DISABLE_TELEMETRY: "true",
    LOG_LEVEL: "error",
    PIX_API_KEY: API_KEY,
    PIX_WEBHOOK_SECRET: WEBHOOK_SECRET,
  });

  beforeAll(async () => {
    work = mkdtempSync(path.join(tmpdir(), "pix-packaging-"));
    app = path.join(work, "store");
    sandbox = await startSandbox({ variant: "a", keys: [API_KEY], port: 0 });

    // 1. npm pack, as a release would (prepack hooks included).
    const tarballs = path.join(work, "tarballs");
    mkdirSync(tarballs);
    for (const name of PACKAGES) {
      execFileSync("npm", ["pack", "--silent", "--pack-destination", tarballs], {
        cwd: path.join(root, "packages", name),
        stdio: ["ignore", "ignore", "inherit"],
      });
    }

    phase("npm pack");

    // 2. The app, then its node_modules: every third-party package linked from the root, the
    // @pix-checkout packages extracted from the tarballs only.
    const readme = readFileSync(path.join(root, "packages/medusa/README.md"), "utf8");
    writeApp(app, "pix-packaging-store", {
      "medusa-config.js": configFromReadme(readme, sandbox.baseUrl),
      "src/scripts/seed.js": SEED,
    });
    const modules = path.join(app, "node_modules");
    mkdirSync(path.join(modules, "@pix-checkout"), { recursive: true });
    for (const entry of readdirSync(path.join(root, "node_modules"))) {
      if (entry === "@pix-checkout" || entry === ".package-lock.json") continue;
      symlinkSync(path.join(root, "node_modules", entry), path.join(modules, entry));
    }
    for (const file of readdirSync(tarballs)) {
      const name = /^pix-checkout-(\w+)-/.exec(file)?.[1];
      if (!name) continue;
      const into = path.join(work, "unpacked", name);
      mkdirSync(into, { recursive: true });
      execFileSync("tar", ["xzf", path.join(tarballs, file), "-C", into]);
      renameSync(path.join(into, "package"), path.join(modules, "@pix-checkout", name));
    }

    phase("install");

    // 3. Migrate, set the store up, boot.
    await createDatabase(PG, dbName);
    await medusa(["db:migrate"], { cwd: app, env: env() });
    phase("db:migrate");
    const seedOut = path.join(app, "seed.json");
    await medusa(["exec", "./src/scripts/seed.js"], {
      cwd: app,
      env: { ...env(), SEED_OUT: seedOut },
    });
    seed = JSON.parse(readFileSync(seedOut, "utf8"));
    phase("store setup");
    server = await startMedusa({ cwd: app, env: env(), port: await freePort() });
    phase("boot");
    await fetch(`${sandbox.url}/__sandbox/webhook-urls`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        url: `${server.url}/hooks/pix-checkout/pix-checkout?token=${WEBHOOK_SECRET}`,
      }),
    });
  });

  afterAll(async () => {
    if (server) await stopProcess(server.child);
    await sandbox?.close();
    await dropDatabase(PG, dbName).catch(() => undefined);
    if (work) rmSync(work, { recursive: true, force: true });
    console.log(
      `packaging test wall time: ${((Date.now() - started) / 1000).toFixed(1)} s (${phases.join(", ")})`,
    );
  }, 60_000);

  it("loads the plugin and the client from the tarballs, not from the workspace", () => {
    const resolved = execFileSync(
      process.execPath,
      [
        "-e",
        `for (const id of ["@pix-checkout/medusa/providers/pix-checkout", "@pix-checkout/client"]) console.log(require("node:fs").realpathSync(require.resolve(id)));`,
      ],
      { cwd: app, encoding: "utf8" },
    );
    for (const file of resolved.trim().split("\n")) expect(file.startsWith(app)).toBe(true);
  });

  // The app links every third-party package from the root, so a dependency missing from a
  // package.json would go unnoticed at run time; this reads the shipped code instead.
  it.each(PACKAGES)("@pix-checkout/%s declares every package its shipped code imports", (name) => {
    const dir = path.join(app, "node_modules", "@pix-checkout", name);
    const manifest = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8"));
    const declared = new Set([
      manifest.name,
      ...Object.keys(manifest.dependencies ?? {}),
      ...Object.keys(manifest.peerDependencies ?? {}),
    ]);
    const undeclared = new Set<string>();
    for (const file of readdirSync(dir, { recursive: true, encoding: "utf8" })) {
      if (!/\.(c|m)?js$/.test(file)) continue;
      const code = readFileSync(path.join(dir, file), "utf8");
      // TypeScript's import scanner: import/export from, import() and require(), not strings.
      const specifiers = ts
        .preProcessFile(code, true, true)
        .importedFiles.map((ref) => ref.fileName)
        .filter((specifier) => !specifier.startsWith("."));
      for (const specifier of specifiers) {
        if (specifier.startsWith("node:") || isBuiltin(specifier)) continue;
        const parts = specifier.split("/");
        const pkg = specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
        if (!declared.has(pkg)) undeclared.add(`${pkg} (${file})`);
      }
    }
    expect([...undeclared]).toEqual([]);
  });

  it("takes a Pix checkout from payment session to captured", async () => {
    const headers = {
      "content-type": "application/json",
      "x-publishable-api-key": seed.publishableKey,
    };
    const store = async (route: string, body: unknown) => {
      const response = await fetch(`${server!.url}/store${route}`, {
        method: "POST",
        headers,
        body: JSON.stringify(body),
      });
      expect(response.status, await response.clone().text()).toBeLessThan(300);
      return (await response.json()) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    };

    const { payment_collection: collection } = await store("/payment-collections", {
      cart_id: seed.cartId,
    });
    const { payment_collection: withSession } = await store(
      `/payment-collections/${collection.id}/payment-sessions`,
      { provider_id: "pp_pix_pix-checkout" },
    );
    const chargeId = withSession.payment_sessions[0].data.charge_id as string;
    expect(chargeId).toMatch(/^[0-9a-f-]{36}$/);

    const completed = await store(`/carts/${seed.cartId}/complete`, {});
    expect(completed.type).toBe("order");

    await fetch(`${sandbox.url}/__sandbox/charges/${chargeId}/pay`, { method: "POST" });
    await sandbox.webhooksIdle();
    const { knex } = await import("@medusajs/framework/mikro-orm/knex");
    const db = knex({ client: "pg", connection: `${PG}/${dbName}` });
    try {
      let captured: unknown;
      for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
        captured = await db("payment")
          .where({ payment_collection_id: collection.id })
          .whereNotNull("captured_at")
          .first();
        if (captured) break;
        await new Promise((r) => setTimeout(r, 250));
      }
      expect(captured, "the payment was captured").toBeTruthy();
      phase("checkout to captured");
    } finally {
      await db.destroy();
    }
  });
});
