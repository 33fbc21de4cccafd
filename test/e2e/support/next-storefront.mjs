// The Next.js storefront (apps/next-storefront), built and served in production mode against
// a running store, the way a merchant deploys the DTC starter: `next build`, then `next start`
// behind a proxy that appends the caller to X-Forwarded-For (front-proxy.mjs).
import { spawn, spawnSync } from "node:child_process";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { startFrontProxy } from "./front-proxy.mjs";
import { payer } from "./shopper.mjs";

const app = fileURLToPath(new URL("../../../apps/next-storefront/", import.meta.url));

/**
 * Installs the app (element from its tarball), builds it for this store and starts it, with
 * its proxy in front on `port` (shoppers reach that; `next start` listens on a port of its own).
 * NEXT_PUBLIC_* values are inlined at build time, so the build needs the store's address
 * and publishable key. `storefrontSecret` is the store's `fairness.storefrontSecret`: the
 * server signs each shopper's address with it.
 * @param {{ storeUrl: string, publishableKey: string, storefrontSecret?: string, port: number }} options
 */
export async function startNextStorefront({ storeUrl, publishableKey, storefrontSecret, port }) {
  const env = {
    ...process.env,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    // Next otherwise tries to "patch" a lockfile this app does not keep.
    NEXT_IGNORE_INCORRECT_LOCKFILE: "1",
    MEDUSA_BACKEND_URL: storeUrl,
    NEXT_PUBLIC_MEDUSA_BACKEND_URL: storeUrl,
    NEXT_PUBLIC_MEDUSA_PUBLISHABLE_KEY: publishableKey,
    ...(storefrontSecret ? { PIX_STOREFRONT_SECRET: storefrontSecret } : {}),
  };
  for (const [what, command, args] of [
    ["install", "node", ["scripts/setup.mjs"]],
    ["build", "npx", ["next", "build"]],
  ]) {
    const result = spawnSync(command, args, { cwd: app, env, encoding: "utf8" });
    if (result.status !== 0) {
      throw new Error(`next-storefront ${what} failed:\n${result.stdout}\n${result.stderr}`);
    }
  }

  const lines = [];
  const nextPort = await freePort();
  const child = spawn("npx", ["next", "start", "-H", "127.0.0.1", "-p", String(nextPort)], {
    cwd: app,
    env,
    detached: true,
  });
  for (const stream of [child.stdout, child.stderr]) {
    stream.setEncoding("utf8");
    stream.on("data", (chunk) => lines.push(...chunk.split("\n").filter(Boolean)));
  }
  const direct = `http://127.0.0.1:${nextPort}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`next start exited:\n${lines.join("\n")}`);
    const up = await fetch(`${direct}/br`, { redirect: "manual" }).then(
      (res) => res.status < 500,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) throw new Error(`next start did not answer:\n${lines.join("\n")}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const proxy = await startFrontProxy(direct, port);
  return {
    url: proxy.url,
    /** Every line the Next.js server printed so far (server rendering errors land here). */
    logs: () => [...lines],
    stop: async () => {
      await proxy.close();
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      process.kill(-child.pid, "SIGTERM");
      await exited;
    },
  };
}

/** A port the OS says is free right now on 127.0.0.1. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/**
 * A shopper's cart, address and delivery on the storefront, as the starter's steps ask;
 * ends on the payment step.
 * @param {import("playwright-core").Page} page
 * @param {string} storefrontUrl
 * @param {string} email
 * @param {Partial<Record<"province" | "city" | "address_1" | "postal_code" | "phone", string>>} [address]
 *   fields typed otherwise than the payer's (`{ province: "" }`: the optional state left empty)
 */
export async function toPaymentStep(page, storefrontUrl, email, address = {}) {
  await page.goto(`${storefrontUrl}/br`);
  await page.getByTestId("add-to-cart").first().click();
  await page.waitForURL(/\/br\/checkout\?step=address/);
  const fields = {
    email,
    first_name: payer.firstName,
    last_name: payer.lastName,
    address_1: payer.street,
    postal_code: payer.postalCode,
    city: payer.city,
    province: payer.province,
    phone: payer.phone,
    ...address,
  };
  for (const [name, value] of Object.entries(fields)) {
    await page.getByTestId(`shipping-${name}-input`).fill(value);
  }
  await page.getByTestId("submit-address-button").click();
  await page.waitForURL(/step=delivery/);
  await page.getByTestId("submit-delivery-option-button").click();
  await page.waitForURL(/step=payment/);
}

/**
 * The boleto payer fields the cart cannot supply, filled in.
 * @param {import("playwright-core").Page} page
 */
export async function fillBoletoPayer(page) {
  await page.getByTestId("buyer-document-input").fill(payer.document);
  await page.getByTestId("boleto-neighborhood-input").fill(payer.neighborhood);
  await page.getByTestId("boleto-number-input").fill(payer.number);
}
