import net from "node:net";
import { execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, readdirSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDemo } from "./index.mjs";

// Boots the real demo (Medusa with the plugin, the sandbox, the storefront) against the
// PostgreSQL at localhost:5432, in a database of its own, on the default ports when they are
// free (else on free ones, as `npm run demo` does), so a second demo beside it must move.
const server = "postgres://postgres@localhost:5432";
const databaseName = `pix_demo_start_${process.pid}`;
const demoBin = fileURLToPath(new URL("../bin/demo.mjs", import.meta.url));

async function isListening(port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

async function query(sql) {
  const client = new pg.Client({ connectionString: `${server}/${databaseName}` });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

/** @type {import("./index.mjs").Demo} */
let demo;
/** A second start in flight, so that cleanup stops it even if its test timed out. */
/** @type {Promise<import("./index.mjs").Demo> | undefined} */
let restart;
/** @type {import("./index.mjs").StartDemoOptions} */
let options;

beforeAll(async () => {
  options = {
    databaseName,
    dataDir: await mkdtemp(join(tmpdir(), "pix-demo-")),
    sandboxStatePath: null,
    // As `npm run demo` does: the restart below must serve the admin built.
    adminBuild: true,
  };
  demo = await startDemo(options);
});

afterAll(async () => {
  second?.kill("SIGTERM");
  await demo?.stop();
  await (await restart?.catch(() => undefined))?.stop();
  if (second && second.exitCode === null && second.signalCode === null) await once(second, "exit");
  const client = new pg.Client({ connectionString: `${server}/postgres` });
  await client.connect();
  for (const name of [databaseName, `${databaseName}_2`]) {
    await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`);
  }
  await client.end();
});

/** A second `npm run demo`, started beside the first. */
/** @type {import("node:child_process").ChildProcess | undefined} */
let second;

describe("startDemo", () => {
  it("serves the seeded catalog in reais through the store API", async () => {
    const response = await fetch(
      `${demo.urls.store}/store/products?region_id=${demo.regionId}&fields=handle,*variants.calculated_price`,
      { headers: { "x-publishable-api-key": demo.publishableKey } },
    );
    expect(response.status).toBe(200);
    const { products } = await response.json();
    const prices = Object.fromEntries(
      products.map((product) => [
        product.handle,
        product.variants[0].calculated_price.calculated_amount,
      ]),
    );
    expect(prices).toEqual({
      "cafe-especial": 39.9,
      "camiseta-pix": 79.9,
      "caneca-esmaltada": 54.9,
      "rede-de-descanso": 189,
    });
  });

  it("serves the product images itself", async () => {
    const response = await fetch(`${demo.urls.store}/static/products/cafe-especial.svg`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("<svg");
  });

  it("enables Pix and boleto on the BRL region", async () => {
    expect(demo.paymentProviders).toEqual(["pp_pix_pix-checkout", "pp_boleto_pix-checkout"]);
    const response = await fetch(
      `${demo.urls.store}/store/payment-providers?region_id=${demo.regionId}`,
      { headers: { "x-publishable-api-key": demo.publishableKey } },
    );
    const { payment_providers } = await response.json();
    expect(payment_providers.map((provider) => provider.id).sort()).toEqual([
      "pp_boleto_pix-checkout",
      "pp_pix_pix-checkout",
    ]);
  });

  it("lets the admin log in with the credentials it reports", async () => {
    const response = await fetch(`${demo.urls.store}/auth/user/emailpass`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(demo.admin),
    });
    expect(response.status).toBe(200);
    expect((await response.json()).token).toEqual(expect.any(String));
  });

  it("builds the admin in the background on a first start with these settings, and keeps that start's admin compiled", async () => {
    // A build of this key left by an earlier run of this suite is served from the first start.
    if (demo.adminBundle.serving === "built") return;
    expect(demo.adminBundle.why).toMatch(/first start/);
    // Compiled by Vite at the first visit: its page loads Vite's client.
    expect(await (await fetch(demo.urls.admin)).text()).toContain("/@vite/client");
    expect(await demo.adminBundle.building).toMatchObject({ built: true });
  }, 240_000);

  it("starts a mailbox whose inbox answers, and the store delivers its e-mails there", async () => {
    expect(demo.urls.mail).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await demo.mailbox?.messages()).toEqual([]);
  });

  it("mails 'Recebemos seu pedido' and the paid e-mail of a Pix order, each listing its items, delivery, Pix discount and total", async () => {
    const headers = {
      "content-type": "application/json",
      "x-publishable-api-key": demo.publishableKey,
    };
    const call = async (method, path, body, extra = {}) => {
      const response = await fetch(`${demo.urls.store}${path}`, {
        method,
        headers: { ...headers, ...extra },
        body: body ? JSON.stringify(body) : undefined,
      });
      const json = await response.json();
      if (!response.ok)
        throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
      return json;
    };
    // The merchant turns on 5 % off by Pix in the admin.
    const { token } = await call("POST", "/auth/user/emailpass", demo.admin);
    await call(
      "POST",
      "/admin/pix-checkout/pix-discount",
      { enabled: true, type: "percentage", value: 5 },
      { authorization: `Bearer ${token}` },
    );
    // A shopper orders two shirts, delivered by the first option, and pays by Pix.
    const { products } = await call(
      "GET",
      `/store/products?region_id=${demo.regionId}&handle=camiseta-pix&fields=title,*variants`,
    );
    const shirt = products[0];
    const email = `ana.${Date.now()}@example.com`;
    const { cart } = await call("POST", "/store/carts", { region_id: demo.regionId, email });
    await call("POST", `/store/carts/${cart.id}/line-items`, {
      variant_id: shirt.variants[0].id,
      quantity: 2,
    });
    const address = {
      first_name: "Ana",
      last_name: "Souza",
      address_1: "Rua Augusta, 100",
      city: "São Paulo",
      province: "SP",
      postal_code: "01305-000",
      country_code: "br",
    };
    await call("POST", `/store/carts/${cart.id}`, {
      shipping_address: address,
      billing_address: address,
    });
    const { shipping_options } = await call("GET", `/store/shipping-options?cart_id=${cart.id}`);
    const option = shipping_options[0];
    await call("POST", `/store/carts/${cart.id}/shipping-methods`, { option_id: option.id });
    await call("POST", `/store/pix-checkout/carts/${cart.id}/payment-method`, { method: "pix" });
    const { payment_collection } = await call("POST", "/store/payment-collections", {
      cart_id: cart.id,
    });
    const created = await call(
      "POST",
      `/store/payment-collections/${payment_collection.id}/payment-sessions`,
      { provider_id: "pp_pix_pix-checkout" },
    );
    const session = created.payment_collection.payment_sessions.at(-1);
    const paid = await fetch(
      `${demo.urls.sandbox}/__sandbox/charges/${session.data.charge_id}/pay`,
      {
        method: "POST",
      },
    );
    expect(paid.ok).toBe(true);

    const find = async (pattern) => {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const found = (await demo.mailbox?.messages())?.find(
          (message) =>
            message.to?.some((to) => to.address === email) && pattern.test(message.subject),
        );
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no e-mail ${pattern} to ${email}`);
        // The mailbox has no event to await; a short poll is the honest option.
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
    };
    const received = await find(/^Recebemos seu pedido #\d+$/);
    const confirmed = await find(/^Pagamento confirmado: pedido #\d+$/);
    expect(confirmed.subject.split("#")[1]).toBe(received.subject.split("#")[1]);
    // 2 × R$ 79,90 + the option − 5 % of R$ 159,80 (R$ 7,99) = the total, to the cent.
    const shipping = Math.round(option.amount * 100);
    const reais = (cents) => {
      const digits = String(cents).padStart(3, "0");
      return `R$ ${digits.slice(0, -2).replace(/\B(?=(\d{3})+$)/g, ".")},${digits.slice(-2)}`;
    };
    const lines = [
      `2 × ${shirt.title} (${shirt.variants[0].title}), R$ 79,90 cada: R$ 159,80`,
      `Entrega: ${option.name}: ${reais(shipping)}`,
      "Desconto no Pix: -R$ 7,99",
      `Total: ${reais(15980 + shipping - 799)}`,
    ].join("\n");
    for (const mail of [received, confirmed]) {
      expect(mail.text).toContain(lines);
      expect(mail.text).toContain(
        "Entrega em: Ana Souza, Rua Augusta, 100, São Paulo - SP, CEP 01305-000",
      );
      expect(mail.html).toContain("Desconto no Pix");
    }
    // Medusa's order says what "Recebemos" says of its payment: "Pago" only once it is paid.
    expect(received.text).toMatch(/Pagamento: (Pago\.|recebido, em confirmação\.)/);
  }, 120_000);

  it("serves the storefront page", async () => {
    const response = await fetch(/** @type {string} */ (demo.urls.storefront));
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("Loja Pix Checkout");
  });

  it("keeps every server on loopback", () => {
    for (const url of [demo.urls.sandbox, demo.urls.webhook, String(demo.urls.mail)]) {
      expect(new URL(url).hostname).toBe("127.0.0.1");
    }
  });

  it("lets a second `npm run demo` with no flags start beside it, on free ports, in a folder and database of its own, and stop alone", async () => {
    // The first demo holds the default ports, or free ones if something else had those.
    // The same data folder, so the two must not share mail, seed output or logs.
    second = spawn(
      process.execPath,
      [demoBin, "--data-dir", /** @type {string} */ (options.dataDir), "--fresh-sandbox"],
      {
        env: { ...process.env, DATABASE_URL: `${server}/${databaseName}` },
        stdio: ["pipe", "pipe", "pipe"],
      },
    );
    let output = "";
    second.stdout?.on("data", (chunk) => (output += chunk));
    second.stderr?.on("data", (chunk) => (output += chunk));
    const exited = once(second, "exit");
    await Promise.race([
      new Promise((resolve) => {
        const poll = setInterval(() => {
          if (!output.includes("Press Ctrl-C")) return;
          clearInterval(poll);
          resolve(undefined);
        }, 200);
      }),
      exited.then(([code]) => {
        throw new Error(`the second demo exited (${code}):\n${output}`);
      }),
    ]);
    const line = (label) => output.match(new RegExp(`^  ${label} +(\\S+)`, "m"))?.[1];
    const store = String(line("Store API"));
    const storefront = String(line("Storefront"));
    const mail = String(line("E-mails"));
    const smtp = Number(output.match(/\(SMTP (\d+)\)/)?.[1]);
    const publishableKey = output.match(/publishable key (\S+)/)?.[1];
    const port = (url) => Number(new URL(url).port);

    expect(output).toContain("Pix Checkout demo is ready");
    // Every part on a port of its own, none of the first demo's; the banner names the moves.
    const theirs = [port(store), port(storefront), port(line("Sandbox")), port(mail), smtp];
    const ours = [
      demo.ports.store,
      demo.ports.storefront,
      demo.ports.sandbox,
      demo.ports.mailWeb,
      demo.ports.mailSmtp,
    ];
    expect(new Set([...theirs, ...ours]).size).toBe(10);
    if (demo.movedPorts.length === 0) {
      expect(output).toContain(`store 9000 → ${port(store)} (--store-port)`);
      expect(output).toContain(`mailSmtp 1025 → ${smtp} (--mail-smtp-port)`);
    }

    // It serves its own store and storefront, and its own mailbox (web inbox and SMTP).
    const products = await fetch(`${store}/store/products?fields=handle`, {
      headers: { "x-publishable-api-key": String(publishableKey) },
    });
    expect(products.status).toBe(200);
    expect((await products.json()).products).toHaveLength(4);
    expect(await (await fetch(storefront)).text()).toContain("Loja Pix Checkout");
    expect(await (await fetch(`${mail}/email`)).json()).toEqual([]);
    const greeting = net.connect({ host: "127.0.0.1", port: smtp });
    const [hello] = await once(greeting, "data");
    greeting.destroy();
    expect(String(hello)).toMatch(/^220 /);

    // Its data in a folder and a database of its own; the first demo's logs stay alone.
    const secondDir = join(/** @type {string} */ (options.dataDir), "demo-2");
    expect(demo.dataDir).toBe(options.dataDir);
    expect(line("Data")).toBe(secondDir);
    expect(line("Logs")?.startsWith(join(secondDir, "logs"))).toBe(true);
    expect(existsSync(join(secondDir, "seed-output.json"))).toBe(true);
    expect(existsSync(join(secondDir, "mail"))).toBe(true);
    expect(readdirSync(join(/** @type {string} */ (options.dataDir), "logs"))).toEqual([
      demo.logDir.split("/").pop(),
    ]);
    expect(line("Database")).toBe(`${server}/${databaseName}_2`);

    // Ctrl-C's signal stops it alone: every port it had is free, the first demo still serves.
    second.kill("SIGTERM");
    const [code] = await exited;
    expect(code).toBe(0);
    for (const free of theirs) expect(await isListening(free)).toBe(false);
    const left = execFileSync("ps", ["-eo", "args"], { encoding: "utf8" })
      .split("\n")
      .filter((args) => args.includes(secondDir));
    expect(left).toEqual([]);
    expect((await fetch(`${demo.urls.store}/health`)).status).toBe(200);
  }, 240_000);

  it("stops everything it started", async () => {
    await demo.stop();
    const ports = demo.ports;
    for (const port of [
      ports.store,
      ports.storefront,
      ports.sandbox,
      ports.mailSmtp,
      ports.mailWeb,
    ]) {
      expect(await isListening(port)).toBe(false);
    }
  });

  it("starts again on the same database without duplicating what the seed made", async () => {
    const before = await query(
      "SELECT (SELECT count(*) FROM product) AS products, (SELECT count(*) FROM region) AS regions, " +
        "(SELECT count(*) FROM shipping_option) AS options, (SELECT count(*) FROM api_key) AS keys, " +
        '(SELECT count(*) FROM "user") AS users, (SELECT count(*) FROM inventory_level) AS levels',
    );
    const firstKey = demo.publishableKey;
    // On the same store port: the admin's build is made for its origin.
    restart = startDemo({ ...options, ports: { store: demo.ports.store } });
    demo = await restart;
    const after = await query(
      "SELECT (SELECT count(*) FROM product) AS products, (SELECT count(*) FROM region) AS regions, " +
        "(SELECT count(*) FROM shipping_option) AS options, (SELECT count(*) FROM api_key) AS keys, " +
        '(SELECT count(*) FROM "user") AS users, (SELECT count(*) FROM inventory_level) AS levels',
    );
    expect(after).toEqual(before);
    expect(demo.publishableKey).toBe(firstKey);
  }, 240_000);

  it("serves the admin built on the next start: its page and scripts at once, nothing compiled", async () => {
    expect(demo.adminBundle).toMatchObject({ serving: "built", why: null, building: null });
    const page = await fetch(demo.urls.admin);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).not.toContain("/@vite/client");
    // The demo's Portuguese default for a Brazilian browser is in the built page too.
    expect(html).toContain('localStorage.setItem("lng", "ptBR")');
    const entry = /** @type {string} */ (html.match(/src="(\/app\/assets\/index-[^"]+\.js)"/)?.[1]);
    expect(entry).toBeDefined();
    const script = await fetch(new URL(entry, demo.urls.store));
    expect(script.status).toBe(200);
    // Built for this store: the admin calls this origin's API.
    expect(await script.text()).toContain(demo.urls.store);
  });
});
