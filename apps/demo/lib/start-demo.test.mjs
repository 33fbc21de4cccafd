import net from "node:net";
import { once } from "node:events";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDemo } from "./index.mjs";

// Boots the real demo (Medusa with the plugin, the sandbox, the storefront) against the
// PostgreSQL at localhost:5432, on free ports, in a database of its own.
const server = "postgres://postgres@localhost:5432";
const databaseName = `pix_demo_start_${process.pid}`;

async function freePort() {
  const probe = net.createServer();
  probe.listen({ host: "127.0.0.1", port: 0 });
  await once(probe, "listening");
  const { port } = /** @type {net.AddressInfo} */ (probe.address());
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

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
    ports: {
      store: await freePort(),
      storefront: await freePort(),
      sandbox: await freePort(),
      mailSmtp: await freePort(),
      mailWeb: await freePort(),
    },
    databaseName,
    dataDir: await mkdtemp(join(tmpdir(), "pix-demo-")),
    sandboxStatePath: null,
  };
  demo = await startDemo(options);
});

afterAll(async () => {
  await demo?.stop();
  await (await restart?.catch(() => undefined))?.stop();
  const client = new pg.Client({ connectionString: `${server}/postgres` });
  await client.connect();
  await client.query(
    `DROP DATABASE IF EXISTS ${client.escapeIdentifier(databaseName)} WITH (FORCE)`,
  );
  await client.end();
});

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

  it("stops everything it started", async () => {
    await demo.stop();
    const ports = /** @type {Required<import("./index.mjs").DemoPorts>} */ (options.ports);
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
    restart = startDemo(options);
    demo = await restart;
    const after = await query(
      "SELECT (SELECT count(*) FROM product) AS products, (SELECT count(*) FROM region) AS regions, " +
        "(SELECT count(*) FROM shipping_option) AS options, (SELECT count(*) FROM api_key) AS keys, " +
        '(SELECT count(*) FROM "user") AS users, (SELECT count(*) FROM inventory_level) AS levels',
    );
    expect(after).toEqual(before);
    expect(demo.publishableKey).toBe(firstKey);
  }, 240_000);
});
