import type { ChildProcess } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { knex, type Knex } from "@medusajs/framework/mikro-orm/knex";

const PG = process.env.PIX_TEST_PG_URL ?? "postgres://postgres@localhost:5432";

// Runs inside the app (medusa exec): one cart with a Pix session.
const SEED_BODY = `
  const cart = await newCart("ana@example.com", "Camiseta", 49.9);
  const session = await pixSession(cart.id);
  fs.writeFileSync(process.env.SCALE_SEED_OUT, JSON.stringify({
    publishableKey, cartId: cart.id, sessionId: session.id, chargeId: session.data.charge_id,
  }));
`;

/** A port nothing listens on now, for an instance to take. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** What the seed created. */
export interface ScaledSeed {
  publishableKey: string;
  cartId: string;
  sessionId: string;
  chargeId: string;
}

/** A migrated, seeded Medusa app whose instances share one Postgres database and one Redis. */
export interface ScaledApp {
  seed: ScaledSeed;
  db: Knex;
  /** The provider's webhook token: `?token=` on every delivery URL registered for the app. */
  webhookSecret: string;
  /**
   * Starts `medusa start` in `mode` on `port`; resolves when /health answers. `shared` (one
   * process serving HTTP and running jobs and subscribers) is for an app without Redis.
   */
  start(mode: "server" | "worker" | "shared", port: number): Promise<string>;
  /** Everything the started instances printed on stdout so far (Medusa's access log...). */
  stdout(): string;
  close(): Promise<void>;
}

/**
 * Creates the app directory (plain JS, under the ignored .medusa/), its database and seed.
 * Without `redisUrl` the app is one process in Medusa's default topology (in-memory event bus
 * and workflow engine, jobs in the server). `files` are added to the app (an
 * instrumentation.js...), `seedBody` replaces the seed's one cart with a Pix session (it writes
 * its JSON to SCALE_SEED_OUT), and `env` is added to every process's environment.
 */
export async function createScaledApp(options: {
  apiKey: string;
  baseUrl: string;
  redisUrl?: string;
  webhookSecret?: string;
  /** The plugin entry's options (`recovery`, `fairness`...). */
  pluginOptions?: Record<string, unknown>;
  files?: Record<string, string>;
  seedBody?: string;
  env?: NodeJS.ProcessEnv;
}): Promise<ScaledApp> {
  // A CommonJS module reaches the ESM helper (shared with the benches) through import().
  const {
    createDatabase,
    dropDatabase,
    medusa,
    packageDir,
    APP_WEBHOOK_SECRET,
    pixAppConfig,
    pixSeedScript,
    startMedusa,
    stopProcess,
    writeApp,
  } = await import("../../scripts/lib/built-app.mjs");
  const name = `pix_scale_${process.pid}`;
  const dir = path.join(packageDir, ".medusa", `scale-app-${process.pid}`);
  const { files = {}, seedBody = SEED_BODY, env: extraEnv = {}, ...config } = options;
  writeApp(dir, "pix-scale-app", {
    // With redisUrl, Medusa's production topology: Redis event bus, workflow engine and locking.
    "medusa-config.js": pixAppConfig({ ...config, secret: "scale" }),
    "src/scripts/seed.js": pixSeedScript(seedBody),
    ...files,
  });
  await createDatabase(PG, name);

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: `${PG}/${name}`,
    MEDUSA_DISABLE_TELEMETRY: "true",
    LOG_LEVEL: "error",
    NODE_ENV: "production",
    ...extraEnv,
  };
  delete env.NODE_OPTIONS;
  delete env.VITEST;
  delete env.VITEST_POOL_ID;
  delete env.VITEST_WORKER_ID;
  await medusa(["db:migrate"], { cwd: dir, env });
  const seedOut = path.join(dir, "seed.json");
  await medusa(["exec", "./src/scripts/seed.js"], {
    cwd: dir,
    env: { ...env, SCALE_SEED_OUT: seedOut },
  });
  const seed = JSON.parse(readFileSync(seedOut, "utf8")) as ScaledSeed;
  const db = knex({ client: "pg", connection: env.DATABASE_URL! });

  const children: ChildProcess[] = [];
  let printed = "";
  return {
    seed,
    db,
    webhookSecret: config.webhookSecret ?? APP_WEBHOOK_SECRET,
    async start(mode, port) {
      const { url, child } = await startMedusa({
        cwd: dir,
        env: { ...env, MEDUSA_WORKER_MODE: mode },
        port,
        label: `medusa start (${mode})`,
        onStdout: (text: string) => {
          printed += text;
        },
      });
      children.push(child);
      return url;
    },
    stdout: () => printed,
    async close() {
      await Promise.all(children.map(stopProcess));
      await db.destroy();
      await dropDatabase(PG, name);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
