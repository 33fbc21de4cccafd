import { readFileSync } from "node:fs";
import path from "node:path";
import type { Sandbox } from "@pix-checkout/sandbox" with { "resolution-mode": "import" };
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import type { Json } from "../helpers/checkout";
import { createScaledApp, freePort, type ScaledApp } from "../helpers/scaled-app";
import {
  exportedMetricNames,
  exportedSpans,
  startOtlpReceiver,
  type OtlpReceiver,
} from "../helpers/otlp-receiver";
import { waitFor } from "../helpers/wait-for";

const API_KEY = "sk_live_exporters_test_key";
const TOKEN = "whtok_Exporters-Test_9f3a7c21b8";
const EMAIL = "ana@example.com";
// A reminder's link token: 32 URL-safe characters, as records/reminders.ts makes them.
const LINK_TOKEN = "Lk7_link-Token-Exporters-9f3a7c2";
const PACKAGE_DIR = path.resolve(__dirname, "..", "..");
const README = readFileSync(path.join(PACKAGE_DIR, "docs", "operations.md"), "utf8");
const DASHBOARD = readFileSync(path.join(PACKAGE_DIR, "docs", "grafana-dashboard.json"), "utf8");

/** The first ```ts block after `heading` in the README. */
function readmeBlock(heading: string): string {
  const from = README.indexOf(heading);
  const start = README.indexOf("```ts\n", from);
  if (from < 0 || start < 0) throw new Error(`no code block after ${heading}`);
  return README.slice(start + 6, README.indexOf("```", start + 6));
}

/** The README's instrumentation.ts as the CommonJS file a plain-JS Medusa app loads. */
function asCommonJs(ts: string): string {
  return ts
    .replace(/^import \{([^}]+)\} from ("[^"]+");$/gm, "const {$1} = require($2);")
    .replace(/^export function register\(\)/m, "exports.register = function register()");
}

/** Every metric name the dashboard's queries read. */
function dashboardMetrics(): string[] {
  const dashboard = JSON.parse(DASHBOARD) as { panels: { targets: { expr: string }[] }[] };
  const names = dashboard.panels.flatMap((p) =>
    // Label names sit in `by (...)`; series names are everything else of ours.
    p.targets.flatMap(
      (t) => t.expr.replace(/by \([^)]*\)/g, "").match(/\bpix_checkout_[a-z_]+/g) ?? [],
    ),
  );
  return [...new Set(names)];
}

const CPF_OR_CNPJ = /\b\d{3}\.?\d{3}\.?\d{3}-?\d{2}\b|\b\d{2}\.?\d{3}\.?\d{3}\/?\d{4}-?\d{2}\b/;
const E_MAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/;

describe("the README's instrumentation.ts against real exporters", () => {
  let sandbox: Sandbox;
  let receiver: OtlpReceiver;
  let app: ScaledApp;
  let store: string;
  let metricsUrl: string;
  let seed: { publishableKey: string; cartId: string; errorCartId: string; linkCartId: string };

  beforeAll(async () => {
    const { startSandbox } = await import("@pix-checkout/sandbox");
    sandbox = await startSandbox({ variant: "a", keys: [API_KEY], webhookRetryDelaysMs: [300] });
    receiver = await startOtlpReceiver();
    const [storePort, prometheusPort] = [await freePort(), await freePort()];
    metricsUrl = `http://127.0.0.1:${prometheusPort}/metrics`;
    app = await createScaledApp({
      apiKey: API_KEY,
      baseUrl: sandbox.baseUrl,
      webhookSecret: TOKEN,
      files: { "instrumentation.js": asCommonJs(readmeBlock("### Prometheus and Grafana")) },
      seedBody: `
        const cart = await newCart(${JSON.stringify(EMAIL)}, "Camiseta", 49.9);
        const other = await newCart("bia@example.com", "Boné", 29.9);
        const third = await newCart("cris@example.com", "Caneca", 19.9);
        fs.writeFileSync(process.env.SCALE_SEED_OUT, JSON.stringify({
          publishableKey, cartId: cart.id, errorCartId: other.id, linkCartId: third.id,
        }));
      `,
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_METRIC_EXPORT_INTERVAL: "1000",
        OTEL_EXPORTER_PROMETHEUS_HOST: "127.0.0.1",
        OTEL_EXPORTER_PROMETHEUS_PORT: String(prometheusPort),
        // Medusa's HTTP access log (its default level in production), read from stdout below.
        LOG_LEVEL: "http",
      },
    });
    seed = app.seed as unknown as typeof seed;
    store = await app.start("shared", storePort);
    await fetch(`${sandbox.url}/__sandbox/webhook-urls`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ url: `${store}/hooks/pix-checkout/a?token=${TOKEN}` }),
    });
  }, 400_000);

  afterAll(async () => {
    await app?.close();
    await receiver?.close();
    await sandbox?.close();
  }, 60_000);

  const storeCall = async (method: string, url: string, body?: unknown) => {
    const res = await fetch(`${store}${url}`, {
      method,
      headers: { "x-publishable-api-key": seed.publishableKey, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, data: (await res.json()) as Json };
  };
  const initiate = async (cartId: string) => {
    const collection = await storeCall("POST", "/store/payment-collections", { cart_id: cartId });
    return storeCall(
      "POST",
      `/store/payment-collections/${collection.data.payment_collection.id}/payment-sessions`,
      { provider_id: "pp_pix_a", data: {} },
    );
  };

  it("the Prometheus recipe is the OTLP example plus the Prometheus reader, at Medusa's SDK versions", () => {
    const otlp = readmeBlock("## OpenTelemetry");
    const prometheus = readmeBlock("### Prometheus and Grafana");
    for (const line of otlp.split("\n")) expect(prometheus).toContain(line);
    // The pins in the README are the versions Medusa's own SDK brings.
    const resolve = (name: string) =>
      JSON.parse(readFileSync(require.resolve(`${name}/package.json`), "utf8")).version as string;
    const sdkNode = resolve("@opentelemetry/sdk-node");
    for (const [, name, version] of README.matchAll(/(@opentelemetry\/[a-z-]+)@(\d+\.\d+\.\d+)/g)) {
      expect(resolve(name!), name).toBe(version);
    }
    expect(README).toContain(`\`@opentelemetry/sdk-node\` ${sdkNode}`);
  });

  it("exports no webhook token, key or payer data in any span or metric, and every dashboard metric", async () => {
    // An API error to count: every create answers 500 until the client gives up.
    await fetch(`${sandbox.url}/__sandbox/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ http_5xx_before_creates: 50 }),
    });
    const refused = await initiate(seed.errorCartId);
    expect(refused.status).toBeGreaterThanOrEqual(400);
    await fetch(`${sandbox.url}/__sandbox/faults`, { method: "DELETE" });

    // The checkout: a Pix code, the order, then the payment at the bank.
    const created = await initiate(seed.cartId);
    expect(created.status).toBe(200);
    const session = (
      created.data.payment_collection.payment_sessions as { data: { charge_id: string } }[]
    )[0]!;
    const chargeId = session.data.charge_id;
    const completed = await storeCall("POST", `/store/carts/${seed.cartId}/complete`);
    expect(completed.data.type).toBe("order");
    // Left pending past its first check (15 s), so reconciliation asks about it once.
    await waitFor(
      async () =>
        scrapedSeriesNames(await (await fetch(metricsUrl)).text()).has(
          "pix_checkout_reconcile_lag_bucket",
        ),
      "reconciliation to check the pending charge",
      60_000,
    ).catch(async (error) => {
      const row = await app.db("pix_checkout_charge").where({ charge_id: chargeId }).first();
      throw new Error(
        `${(error as Error).message}: ${JSON.stringify({ now: new Date(), status: row?.status, created_at: row?.created_at, next_check_at: row?.next_check_at, last_checked_at: row?.last_checked_at })}`,
      );
    });
    await fetch(`${sandbox.url}/__sandbox/charges/${chargeId}/pay`, { method: "POST" });
    await sandbox.webhooksIdle();
    await waitFor(
      async () => {
        const events = await app.db("pix_checkout_charge_event").where({ charge_id: chargeId });
        return events.some((e) => e.kind === "captured");
      },
      "the payment to be captured",
      60_000,
    );

    // Prometheus: every series the dashboard queries, and nothing secret in the exposition.
    const wanted = dashboardMetrics();
    expect(wanted.length).toBeGreaterThanOrEqual(8);
    const scrape = await waitFor(
      async () => {
        const text = await (await fetch(metricsUrl)).text();
        const names = scrapedSeriesNames(text);
        return wanted.every((name) => names.has(name)) && text;
      },
      "every dashboard metric in the scrape",
      60_000,
    ).catch(async (error) => {
      const names = scrapedSeriesNames(await (await fetch(metricsUrl)).text());
      throw new Error(
        `${(error as Error).message}; missing ${wanted.filter((n) => !names.has(n))}`,
      );
    });
    for (const family of parsePrometheusTextFormat(scrape)) {
      for (const sample of family.metrics) {
        for (const value of Object.values(sample.labels ?? {})) expectClean(String(value));
      }
    }
    expectClean(scrape);

    // OTLP: the plugin's spans and metrics arrive, Medusa's span of the webhook request is
    // there with its URL, and no body that left the store carries the token or the key.
    const spans = await waitFor(
      async () => {
        const all = exportedSpans(receiver.traces);
        const names = new Set(
          all.filter((s) => s.scope === "@pix-checkout/medusa").map((s) => s.name),
        );
        const hook = all.find((s) => String(s.attributes["http.url"] ?? "").startsWith("/hooks/"));
        return (
          [
            "pix_checkout.create",
            "pix_checkout.webhook",
            "pix_checkout.settle",
            "pix_checkout.capture",
          ].every((n) => names.has(n)) &&
          hook &&
          all
        );
      },
      "the plugin's spans and Medusa's webhook span at the OTLP receiver",
      30_000,
    );
    const hook = spans.find((s) => String(s.attributes["http.url"]).startsWith("/hooks/"))!;
    expect(hook.attributes["http.url"]).toBe("/hooks/pix-checkout/a?token=[redacted]");
    const otlpMetrics = await waitFor(
      async () => {
        const names = exportedMetricNames(receiver.metrics, "@pix-checkout/medusa");
        return wanted.every((n) => names.has(otlpName(n))) && names;
      },
      "the dashboard's metrics at the OTLP receiver",
      30_000,
    );
    expect(otlpMetrics.has("pix_checkout.webhook.lag")).toBe(true);
    for (const body of [...receiver.traces, ...receiver.metrics]) expectClean(body);
  }, 240_000);
  it("keeps a reminder link's token out of Medusa's access log and every exported span: its pages, their buttons, a path no route answers", async () => {
    // A code, and a message the reminders sent about it, as records/reminders.ts keeps it.
    const created = await initiate(seed.linkCartId);
    expect(created.status).toBe(200);
    const sessionId = created.data.payment_collection.payment_sessions[0].id as string;
    const charge = await waitFor(
      async () =>
        ((await app.db("pix_checkout_charge").where({ session_id: sessionId }).first()) as Json) ??
        false,
      "the code's row",
      30_000,
    );
    await app.db("pix_checkout_reminder").insert({
      id: "pxrm_exporters_link",
      charge_id: charge.charge_id,
      payment_collection_id: charge.payment_collection_id,
      step: "pix_expired",
      state: "sent",
      token: LINK_TOKEN,
      email_key: "0".repeat(32),
      sent_at: new Date(),
    });
    const link = `${store}/pix-checkout/recovery/${LINK_TOKEN}`;
    const visits: [string, string, number][] = [
      ["GET", link, 200],
      ["POST", link, 200], // same cart, same price; no payment page configured: a page
      ["GET", `${link}/opt-out`, 200],
      ["POST", `${link}/opt-out`, 200],
      ["GET", `${link}/anything-else`, 404],
      ["GET", `${store}/Pix-Checkout/Recovery/${LINK_TOKEN}`, 200],
    ];
    for (const [method, url, status] of visits) {
      expect((await fetch(url, { method, redirect: "manual" })).status, `${method} ${url}`).toBe(
        status,
      );
    }

    // Medusa's access log: one line per visit, each with the path redacted.
    const logged = await waitFor(
      async () => {
        const lines = app
          .stdout()
          .split("\n")
          .filter((line) => line.startsWith("{") && line.includes('"level":"http"'))
          .map((line) => JSON.parse(line) as { method: string; path: string; status: number })
          .filter((line) => /\/pix-checkout\/recovery\//i.test(line.path));
        return lines.length >= visits.length && lines;
      },
      "the visits in the access log",
      30_000,
    );
    expect(logged.map((line) => [line.method, line.path, line.status])).toEqual([
      ["GET", "/pix-checkout/recovery/[redacted]", 200],
      ["POST", "/pix-checkout/recovery/[redacted]", 200],
      ["GET", "/pix-checkout/recovery/[redacted]/opt-out", 200],
      ["POST", "/pix-checkout/recovery/[redacted]/opt-out", 200],
      ["GET", "/pix-checkout/recovery/[redacted]/anything-else", 404],
      ["GET", "/Pix-Checkout/Recovery/[redacted]", 200],
    ]);
    expect(app.stdout()).not.toContain(LINK_TOKEN);

    // The traces: Medusa's span of each visit, its URL redacted, and no body with the token.
    const spans = await waitFor(
      async () => {
        const found = exportedSpans(receiver.traces).filter((s) =>
          /^\/pix-checkout\/recovery\//i.test(String(s.attributes["http.url"] ?? "")),
        );
        return found.length >= visits.length && found;
      },
      "Medusa's spans of the visits at the OTLP receiver",
      30_000,
    );
    for (const span of spans) {
      expect(span.attributes["http.url"]).toMatch(/^\/pix-checkout\/recovery\/\[redacted\]/i);
    }
    for (const body of receiver.traces) expect(body).not.toContain(LINK_TOKEN);
  }, 120_000);
});

/** Series names a scrape offers: a histogram's `_bucket`, `_sum` and `_count`, others as named. */
function scrapedSeriesNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const family of parsePrometheusTextFormat(text)) {
    if (family.type === "HISTOGRAM") {
      for (const suffix of ["_bucket", "_sum", "_count"]) names.add(family.name + suffix);
    } else names.add(family.name);
  }
  return names;
}

/** The OTLP name of a Prometheus series name the dashboard queries. */
function otlpName(series: string): string {
  return series
    .replace(/_(bucket|sum|count|total)$/, "")
    .replace(/^pix_checkout_/, "pix_checkout.")
    .replace(
      /^pix_checkout\.(webhook|capture|reconcile|api|create|charges|ledger)_/,
      "pix_checkout.$1.",
    );
}

function expectClean(text: string): void {
  expect(text).not.toContain(TOKEN);
  expect(text).not.toContain(API_KEY);
  expect(text).not.toContain(EMAIL);
  expect(text).not.toMatch(E_MAIL);
  expect(text).not.toMatch(CPF_OR_CNPJ);
}
