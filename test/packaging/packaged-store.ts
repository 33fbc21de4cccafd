// A merchant's store around the packed tarballs: the scratch app (config copied from the plugin
// README's own snippet, or from the DTC starter guide's, with the .env values it suggests), its
// node_modules (Medusa from wherever the caller says, the
// @pix-checkout packages only from the tarballs), migrated, set up, booted, and a Pix checkout
// taken from payment session to captured against the sandbox. tarball-install.test.ts runs it on
// the newest Medusa (the root install) and on the oldest the plugin supports.
import { execFileSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startSandbox, type Sandbox } from "@pix-checkout/sandbox";
import ts from "typescript";
import { afterAll, beforeAll, expect } from "vitest";
import {
  createDatabase,
  dropDatabase,
  medusa,
  startMedusa,
  stopProcess,
  writeApp,
} from "../../packages/medusa/scripts/lib/built-app.mjs";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const PG = process.env.PIX_TEST_PG_URL ?? "postgres://postgres@localhost:5432";
const API_KEY = "sk_live_packaging_test";
const WEBHOOK_SECRET = "packaging-test-webhook-secret";
export const PACKAGES = ["client", "sandbox", "medusa", "element"] as const;

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

/**
 * `config` with the plugin entry's options object replaced by `options`, whatever comments
 * stand between `resolve` and `options` (the guide's have some) and however nested the object.
 */
export function withPluginOptions(config: string, options: Record<string, unknown>): string {
  const entry = /resolve: "@pix-checkout\/medusa",[^{}]*?options: \{/.exec(config);
  if (!entry) throw new Error("the config's plugin entry changed shape");
  const open = entry.index + entry[0].length - 1;
  let depth = 0;
  for (let at = open; at < config.length; at++) {
    if (config[at] === "{") depth++;
    else if (config[at] === "}" && --depth === 0) {
      return config.slice(0, open) + JSON.stringify(options) + config.slice(at + 1);
    }
  }
  throw new Error("the plugin entry's options never close");
}

/**
 * The `medusa-config.ts` of the DTC starter guide (docs/guides/medusa-dtc-starter.md), as a
 * developer copies it into the starter's backend, with the starter's `projectConfig` (the
 * guide's comment says to keep it) standing in for what the test's database needs, and the
 * `.env` values the guide suggests for trying it against the sandbox: a secret it suggests
 * that the plugin refuses fails the test, as it would stop the starter's backend.
 */
export function configFromGuide(guide: string): { config: string; env: NodeJS.ProcessEnv } {
  const block = /```ts\n(import \{ loadEnv, defineConfig \}[\s\S]*?)```/.exec(guide)?.[1];
  const apiKey = /`PIX_API_KEY=([^`]+)`/.exec(guide)?.[1];
  const secret = /--webhook-url "[^"]*\?token=([^"]+)"/.exec(guide)?.[1];
  const starterProjectConfig =
    /projectConfig: \{\s*\/\/ \.\.\.the starter's projectConfig, as it is\s*\},/;
  if (!block || !apiKey || !secret || !starterProjectConfig.test(block)) {
    throw new Error("the guide's backend steps changed shape: update configFromGuide");
  }
  const js = ts.transpileModule(block, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  return {
    config: js.replace(
      /projectConfig: \{[^}]*\},/,
      `projectConfig: {
    databaseUrl: process.env.DATABASE_URL,
    http: { storeCors: "*", adminCors: "*", authCors: "*", jwtSecret: "pkg", cookieSecret: "pkg" },
  },
  admin: { disable: true },`,
    ),
    env: { PIX_API_KEY: apiKey, PIX_WEBHOOK_SECRET: secret },
  };
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
  fs.writeFileSync(process.env.SEED_OUT, JSON.stringify({
    publishableKey: keys[0].token, cartId: cart.id,
    runtime: { node: process.version, medusa: require("@medusajs/medusa/package.json").version },
  }));
};
`;

/** `npm pack` of the four packages into `into`, as a release would (prepack hooks included). */
export function packTarballs(into: string): void {
  mkdirSync(into, { recursive: true });
  for (const name of PACKAGES) {
    execFileSync("npm", ["pack", "--silent", "--pack-destination", into], {
      cwd: path.join(root, "packages", name),
      stdio: ["ignore", "ignore", "inherit"],
    });
  }
}

export type PackagedStoreOptions = {
  /** The scratch app's folder (created; its parent must exist). */
  app: () => string;
  /** Where packTarballs put the tarballs. */
  tarballs: () => string;
  /** Fills `modules` (the app's node_modules) with everything but the @pix-checkout packages. */
  installMedusa: (modules: string) => void;
  /** The app's package.json; by default one on the root install's Medusa. */
  packageJson?: Record<string, unknown>;
  /** Extra files of the app (path → content). */
  files?: Record<string, string>;
  /** The medusa CLI to run; by default the root install's. */
  cli?: (app: string) => string;
  /** The Node.js binary Medusa runs on (another major); by default this process's. */
  node?: () => string;
  /**
   * Whose `medusa-config` the app runs: the plugin README's (by default), or the DTC starter
   * guide's with the values the guide suggests for `.env`.
   */
  config?: "readme" | "guide";
  /** Started once the app is installed, alongside db:migrate and the boot (an admin build). */
  alongside?: (app: string, env: NodeJS.ProcessEnv) => Promise<unknown>;
};

export type PackagedStore = {
  app: string;
  /** Seconds per phase so far ("npm pack 4.7 s", …), for the figures in the root README. */
  phases: string[];
  /** What `alongside` returned; awaited by the caller's test. */
  alongside: Promise<unknown> | undefined;
  /** The Node.js and Medusa versions the store's own code saw (a `medusa exec` script). */
  runtime: { node: string; medusa: string };
  /** Payment session → order → paid in the sandbox → the payment captured in Medusa. */
  checkoutToCaptured: () => Promise<void>;
  /**
   * The same app with a plugin option changed to `wrong`, started (`medusa exec` of a script
   * that does nothing): the start's failure, or "started" when it did not fail.
   */
  startWithPluginOptions: (wrong: Record<string, unknown>) => Promise<string>;
};

/**
 * The dependencies npm nests under a package because the app's own copy is of another major
 * (lru-cache 11 beside the 5 Medusa hoists, ipaddr.js 2 beside Express's 1): the repository's
 * lock nests them under packages/<name>/node_modules, and a merchant's `npm install` of the
 * tarball nests the same ones under node_modules/@pix-checkout/<name>. Copied from there, since
 * no version of the tarballs exists on the registry for npm to resolve.
 */
function nestOwnDependencies(name: string, unpacked: string): void {
  const nested = path.join(root, "packages", name, "node_modules");
  if (!existsSync(nested)) return;
  const manifest = JSON.parse(readFileSync(path.join(unpacked, "package.json"), "utf8"));
  const declared = Object.keys(manifest.dependencies ?? {});
  for (const dep of declared) {
    const from = path.join(nested, dep);
    if (dep.startsWith("@pix-checkout/") || !existsSync(from)) continue;
    cpSync(from, path.join(unpacked, "node_modules", dep), { recursive: true, dereference: true });
  }
}

/**
 * Registers, in the calling `describe`, the hooks that stand the store up and take it down.
 * The returned object is filled in by the time the describe's tests run.
 */
export function packagedStore(options: PackagedStoreOptions): PackagedStore {
  // Set when this store's hooks start: the describe is collected before any test file runs.
  let started = 0;
  let mark = 0;
  const store: PackagedStore = {
    app: "",
    phases: [],
    alongside: undefined,
    runtime: { node: "", medusa: "" },
    checkoutToCaptured: () => checkoutToCaptured(),
    startWithPluginOptions: (wrong) => startWithPluginOptions(wrong),
  };
  const phase = (name: string) => {
    store.phases.push(`${name} ${((Date.now() - mark) / 1000).toFixed(1)} s`);
    mark = Date.now();
  };
  const dbName = `pix_packaging_${process.pid}_${Date.now()}`;
  let sandbox: Sandbox | undefined;
  let server: Awaited<ReturnType<typeof startMedusa>> | undefined;
  let seed: { publishableKey: string; cartId: string; runtime: PackagedStore["runtime"] };
  let node: string | undefined;
  const guide =
    options.config === "guide"
      ? configFromGuide(readFileSync(path.join(root, "docs/guides/medusa-dtc-starter.md"), "utf8"))
      : undefined;
  const apiKey = guide?.env.PIX_API_KEY ?? API_KEY;
  const webhookSecret = guide?.env.PIX_WEBHOOK_SECRET ?? WEBHOOK_SECRET;
  const env = (): NodeJS.ProcessEnv => ({
    ...process.env,
    // Whatever Medusa spawns with `node` from the PATH runs on the same Node.js as Medusa.
    ...(node ? { PATH: `${path.dirname(node)}${path.delimiter}${process.env.PATH ?? ""}` } : {}),
    DATABASE_URL: `${PG}/${dbName}`,
    NODE_ENV: "production",
    MEDUSA_DISABLE_TELEMETRY: "true",
    LOG_LEVEL: "error",
    PIX_API_KEY: apiKey,
    PIX_WEBHOOK_SECRET: webhookSecret,
    ...(sandbox ? { PIX_BASE_URL: sandbox.baseUrl } : {}),
  });

  beforeAll(async () => {
    started = mark = Date.now();
    const app = (store.app = options.app());
    const cli = options.cli?.(app);
    node = options.node?.();
    sandbox = await startSandbox({ variant: "a", keys: [apiKey], port: 0 });

    const readme = readFileSync(path.join(root, "packages/medusa/README.md"), "utf8");
    writeApp(app, "pix-packaging-store", {
      ...(options.packageJson
        ? { "package.json": JSON.stringify(options.packageJson, null, 2) }
        : {}),
      "medusa-config.js": guide?.config ?? configFromReadme(readme, sandbox.baseUrl),
      "src/scripts/seed.js": SEED,
      ...options.files,
    });
    const modules = path.join(app, "node_modules");
    options.installMedusa(modules);
    mkdirSync(path.join(modules, "@pix-checkout"), { recursive: true });
    for (const file of readdirSync(options.tarballs())) {
      const name = /^pix-checkout-(\w+)-/.exec(file)?.[1];
      if (!name) continue;
      const into = path.join(app, ".unpacked", name);
      mkdirSync(into, { recursive: true });
      execFileSync("tar", ["xzf", path.join(options.tarballs(), file), "-C", into]);
      const unpacked = path.join(modules, "@pix-checkout", name);
      renameSync(path.join(into, "package"), unpacked);
      nestOwnDependencies(name, unpacked);
    }
    phase("install");

    store.alongside = options.alongside?.(app, env());
    // Settled here so a failure surfaces in the caller's test, not as an unhandled rejection.
    store.alongside?.catch(() => undefined);

    await createDatabase(PG, dbName);
    await medusa(["db:migrate"], { cwd: app, env: env(), cli, node });
    phase("db:migrate");
    const seedOut = path.join(app, "seed.json");
    await medusa(["exec", "./src/scripts/seed.js"], {
      cwd: app,
      env: { ...env(), SEED_OUT: seedOut },
      cli,
      node,
    });
    seed = JSON.parse(readFileSync(seedOut, "utf8"));
    store.runtime = seed.runtime;
    phase("store setup");
    server = await startMedusa({ cwd: app, env: env(), port: await freePort(), cli, node });
    phase("boot");
    await fetch(`${sandbox.url}/__sandbox/webhook-urls`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        url: `${server.url}/hooks/pix-checkout/pix-checkout?token=${webhookSecret}`,
      }),
    });
  });

  afterAll(async () => {
    await store.alongside?.catch(() => undefined);
    if (server) await stopProcess(server.child);
    await sandbox?.close();
    await dropDatabase(PG, dbName).catch(() => undefined);
    console.log(
      `packaging test (${path.basename(store.app)}) wall time: ${((Date.now() - started) / 1000).toFixed(1)} s (${store.phases.join(", ")})`,
    );
  }, 60_000);

  async function startWithPluginOptions(wrong: Record<string, unknown>): Promise<string> {
    // A sibling app sharing the installed node_modules: the store's own config stays as it is
    // for whatever else still reads it (the admin build running alongside).
    const sibling = `${store.app}-options`;
    rmSync(sibling, { recursive: true, force: true });
    mkdirSync(path.join(sibling, "src/scripts"), { recursive: true });
    symlinkSync(path.join(store.app, "node_modules"), path.join(sibling, "node_modules"));
    writeFileSync(
      path.join(sibling, "package.json"),
      readFileSync(path.join(store.app, "package.json")),
    );
    const config = readFileSync(path.join(store.app, "medusa-config.js"), "utf8");
    writeFileSync(path.join(sibling, "medusa-config.js"), withPluginOptions(config, wrong));
    writeFileSync(
      path.join(sibling, "src/scripts/nothing.js"),
      "exports.default = async () => {};",
    );
    try {
      await medusa(["exec", "./src/scripts/nothing.js"], {
        cwd: sibling,
        env: env(),
        cli: options.cli?.(store.app),
        node,
      });
      return "started";
    } catch (error) {
      return (error as Error).message;
    } finally {
      rmSync(sibling, { recursive: true, force: true });
    }
  }

  async function checkoutToCaptured(): Promise<void> {
    const headers = {
      "content-type": "application/json",
      "x-publishable-api-key": seed.publishableKey,
    };
    const post = async (route: string, body: unknown) => {
      const response = await fetch(`${server!.url}/store${route}`, {
        method: "POST",
        headers,
        body: JSON.stringify(body),
      });
      expect(response.status, await response.clone().text()).toBeLessThan(300);
      return (await response.json()) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    };

    // The storefront's one call to choose the method answers the cart's total, which Medusa
    // computes only from the lines the plugin asks for with it (before 2.21 it answered 0).
    const chosen = await post(`/pix-checkout/carts/${seed.cartId}/payment-method`, {
      method: "pix",
    });
    expect({ method: chosen.method, total: chosen.total }).toEqual({ method: "pix", total: 4990 });

    const { payment_collection: collection } = await post("/payment-collections", {
      cart_id: seed.cartId,
    });
    const { payment_collection: withSession } = await post(
      `/payment-collections/${collection.id}/payment-sessions`,
      { provider_id: "pp_pix_pix-checkout" },
    );
    const chargeId = withSession.payment_sessions[0].data.charge_id as string;
    expect(chargeId).toMatch(/^[0-9a-f-]{36}$/);

    const completed = await post(`/carts/${seed.cartId}/complete`, {});
    expect(completed.type).toBe("order");

    await fetch(`${sandbox!.url}/__sandbox/charges/${chargeId}/pay`, { method: "POST" });
    await sandbox!.webhooksIdle();
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
  }

  return store;
}
