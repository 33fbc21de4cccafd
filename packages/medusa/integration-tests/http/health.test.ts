import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { medusaIntegrationTestRunner } from "@medusajs/test-utils";
import { Modules } from "@medusajs/framework/utils";
import { updateRegionsWorkflow } from "@medusajs/medusa/core-flows";
import type { Sandbox } from "@pix-checkout/sandbox" with { "resolution-mode": "import" };
import { startAppSandboxes } from "../helpers/sandboxes";
import { createStoreFixture, createCart, type StoreFixture } from "../helpers/store-fixture";
import {
  capturesOfSession,
  control,
  db,
  storefront,
  type Api,
  type Json,
} from "../helpers/checkout";
import { adminLogin } from "../helpers/admin-login";
import { reconcilePass } from "../helpers/reconcile-pass";
import { waitFor } from "../helpers/wait-for";
import { startSmtpInbox, type SmtpInbox } from "../helpers/smtp-inbox";
import { evaluateHealthAlerts } from "../../src/jobs/pix-checkout-health-alerts";
import {
  HEALTH_CHANGED_EVENT,
  claimAlerts,
  observeLines,
} from "../../src/internal/operations/health-alerts";
import type { HealthLine } from "../../src/internal/operations/health";
import { saoPauloDay } from "@pix-checkout/client/books";

/** The admin's words for the health card, as the dashboard loads them. */
const cardWords = (language: "ptBR" | "en") =>
  (
    JSON.parse(
      readFileSync(
        path.join(__dirname, "..", "..", "src", "admin", "i18n", "json", `${language}.json`),
        "utf8",
      ),
    ) as { health: Record<string, Record<string, string>> }
  ).health;

// The health card against a real Medusa and the sandbox: a healthy store first, then each
// thing broken in turn (the key, the webhook URL, a capture, the create budget), and the
// card's JSON must name the broken line with its state and what to do. The store also e-mails
// its health alerts through a real SMTP provider to an SMTP server this file starts.

const API_KEY = "sk_live_health_5ecret_key";
const OTHER_KEY = "sk_live_not_this_store_key";
const WEBHOOK_SECRET = "whsec-test-a-0123456789";
const ALERTS_TO = "financeiro@loja.example.com";
const HOLD_SECONDS = 2;

let sandbox: Sandbox;
let sandboxB: Sandbox;
let inbox: SmtpInbox;

beforeAll(async () => {
  ({ a: sandbox, b: sandboxB } = await startAppSandboxes(API_KEY, {
    a: { webhookRetryDelaysMs: [300] },
  }));
  inbox = await startSmtpInbox();
  process.env.PIX_SMTP_PORT = String(inbox.port);
  process.env.PIX_ALERTS_TO = ALERTS_TO;
  process.env.PIX_ALERTS_HOLD_SECONDS = String(HOLD_SECONDS);
  // The Variant B service is broken on purpose from the key test on; the merchant silenced it.
  process.env.PIX_ALERTS_IGNORE = "service:b";
});

afterAll(async () => {
  await sandbox?.close();
  await sandboxB?.close();
  await inbox?.close();
  delete process.env.PIX_SMTP_PORT;
  delete process.env.PIX_ALERTS_TO;
  delete process.env.PIX_ALERTS_HOLD_SECONDS;
  delete process.env.PIX_ALERTS_IGNORE;
});

medusaIntegrationTestRunner({
  cwd: path.join(__dirname, "..", "app"),
  testSuite: ({ api, getContainer }) => {
    const container = () => getContainer();
    let store: StoreFixture;
    let adminHeaders: Record<string, string>;
    let hook: string;
    const http = api as unknown as Api;
    const health = async (query = "") => {
      const response = await http.request({
        method: "get",
        url: `/admin/pix-checkout/health${query}`,
        headers: adminHeaders,
        validateStatus: () => true,
      });
      expect(response.status).toBe(200);
      return response.data as {
        state: string;
        lines: { id: string; state: string; value: Json; detail: Json; action: string | null }[];
      };
    };
    const lineOf = async (id: string) => {
      const line = (await health()).lines.find((l) => l.id === id);
      expect(line, id).toBeDefined();
      return line!;
    };

    /** An order-first Pix of `reais`, completed into an order; returns its charge and session. */
    async function orderFirstPix(reais: number) {
      const shop = storefront(http, store);
      const cartId = await createCart(container(), store, reais);
      const created = await shop.initiate(cartId, "pp_pix_a");
      const session = created.data.payment_collection.payment_sessions[0] as Json;
      expect((await shop.complete(cartId)).data.type).toBe("order");
      return { chargeId: session.data.charge_id as string, sessionId: session.id as string };
    }

    beforeAll(async () => {
      store = await createStoreFixture(container());
      adminHeaders = await adminLogin(container(), "saude@example.com");
      const base = http.defaults.baseURL;
      hook = `${base}/hooks/pix-checkout/a?token=${WEBHOOK_SECRET}`;
      await control(sandbox.url, "webhook-urls", { url: hook });
      await control(sandboxB.url, "webhook-urls", { url: `${base}/hooks/pix-checkout/b` });
    });

    it("answers only a logged-in admin, and refuses an unknown query with invalid_query", async () => {
      const anonymous = await http.request({
        method: "get",
        url: "/admin/pix-checkout/health",
        validateStatus: () => true,
      });
      expect(anonymous.status).toBe(401);
      const bad = await http.request({
        method: "get",
        url: "/admin/pix-checkout/health?since=yesterday",
        headers: adminHeaders,
        validateStatus: () => true,
      });
      expect(bad.status).toBe(400);
      expect(bad.data.code).toBe("invalid_query");
    });

    it("says every line is ok once a Pix is paid through its webhook and captured", async () => {
      const { chargeId, sessionId } = await orderFirstPix(49.9);
      await control(sandbox.url, `charges/${chargeId}/pay`, {});
      await waitFor(
        async () => (await capturesOfSession(container(), sessionId)) === 1,
        "the capture",
      );
      const card = await health();
      expect(card.lines.map((l) => [l.id, l.state])).toEqual([
        ["service:a", "ok"],
        ["variant:a", "ok"],
        ["service:b", "ok"],
        ["variant:b", "ok"],
        ["region:pp_boleto_a", "ok"],
        ["region:pp_pix_a", "ok"],
        ["region:pp_pix_b", "ok"],
        ["webhooks", "ok"],
        ["checks", "ok"],
        ["captures", "ok"],
        ["carts", "ok"],
        ["attention", "ok"],
        ["refund_deadline", "ok"],
        ["create_budget:a", "ok"],
        ["create_budget:b", "ok"],
        ["med", "ok"],
        ["redis", "ok"],
      ]);
      expect(card.state).toBe("ok");
      // This app runs Medusa's local event bus and in-memory cache: no Redis, and the line
      // says so rather than calling it an error.
      expect(card.lines.find((l) => l.id === "redis")).toEqual({
        id: "redis",
        state: "ok",
        value: null,
        detail: { in_use: false },
        action: null,
      });
      expect([cardWords("ptBR").line?.redis, cardWords("ptBR").value?.redisNone]).toEqual([
        "Redis da loja",
        "A loja roda sem Redis (barramento de eventos e cache locais): nada a verificar",
      ]);
      const service = card.lines[0]!;
      expect(service.detail).toMatchObject({ provider: "a", latency_ms: expect.any(Number) });
      expect(Date.parse(service.detail.checked_at)).toBeGreaterThan(Date.now() - 60_000);
      const webhooks = card.lines.find((l) => l.id === "webhooks")!;
      expect(webhooks.detail).toMatchObject({ paid_by_webhook: 1, paid_by_reconciliation: 0 });
      expect(webhooks.detail.last_received_at).toEqual(expect.any(String));
      expect(webhooks.value).toEqual(expect.any(Number));
    });

    it("puts the money first: what a paid Pix brought in today, codes shown and paid, and what waits for the merchant", async () => {
      const overview = async () => {
        const response = await http.request({
          method: "get",
          url: "/admin/pix-checkout/overview",
          headers: adminHeaders,
          validateStatus: () => true,
        });
        expect(response.status).toBe(200);
        return response.data as Json;
      };
      const before = await overview();
      const shop = storefront(http, store);
      const { chargeId, sessionId } = await orderFirstPix(49.9);
      // The shopper's page shows the code (it counts as shown), then the bank pays it.
      expect((await shop.shown(sessionId)).status).toBe(204);
      await control(sandbox.url, `charges/${chargeId}/pay`, {});
      await waitFor(
        async () => (await capturesOfSession(container(), sessionId)) === 1,
        "the capture",
      );
      // The figures read the ledger: the capture recorded there too.
      await waitFor(
        async () =>
          Number(
            (await db(container())("pix_checkout_charge").where({ charge_id: chargeId }).first())
              ?.captured_cents,
          ) > 0,
        "the capture in the ledger",
      );
      const after = await overview();
      for (const period of ["today", "week", "month"]) {
        const pix = after.periods[period].pix;
        const was = before.periods[period].pix;
        expect(pix.paid - was.paid, period).toBe(1);
        expect(pix.income_cents - was.income_cents, period).toBe(4990);
        expect(pix.received_cents - was.received_cents, period).toBe(4990);
        expect(pix.shown - was.shown, period).toBe(1);
        // The code shown today was paid: it counts in the conversion.
        expect(pix.shown_paid - was.shown_paid, period).toBe(1);
        expect(pix.median_seconds_to_pay).toEqual(expect.any(Number));
        expect(after.periods[period].boleto.income_cents).toBe(
          before.periods[period].boleto.income_cents,
        );
      }
      // Thirty São Paulo days for the charts, today last, adding up to the month.
      expect(after.days).toHaveLength(30);
      expect(after.days.at(-1).day).toBe(after.today);
      const sum = after.days.reduce(
        (total: number, d: Json) => total + d.pix_cents + d.boleto_cents,
        0,
      );
      expect(sum).toBe(
        after.periods.month.pix.income_cents + after.periods.month.boleto.income_cents,
      );
      expect(after.waiting_for_merchant).toEqual(expect.any(Number));
      const anonymous = await http.request({
        method: "get",
        url: "/admin/pix-checkout/overview",
        validateStatus: () => true,
      });
      expect(anonymous.status).toBe(401);
    });

    it("counts a code paid that no page said it showed (a reminder's e-mail, say) as shown and paid, so the codes shown never trail the codes paid", async () => {
      const overview = async () =>
        (
          await http.request({
            method: "get",
            url: "/admin/pix-checkout/overview",
            headers: adminHeaders,
          })
        ).data as Json;
      const before = await overview();
      const { chargeId, sessionId } = await orderFirstPix(19.9);
      await control(sandbox.url, `charges/${chargeId}/pay`, {});
      await waitFor(
        async () => (await capturesOfSession(container(), sessionId)) === 1,
        "the capture",
      );
      const after = await overview();
      for (const period of ["today", "week", "month"]) {
        const pix = after.periods[period].pix;
        const was = before.periods[period].pix;
        expect(
          {
            paid: pix.paid - was.paid,
            shown: pix.shown - was.shown,
            shown_paid: pix.shown_paid - was.shown_paid,
          },
          period,
        ).toEqual({ paid: 1, shown: 1, shown_paid: 1 });
      }
    });

    it("calls the service broken and says to check apiKey when the service refuses the key", async () => {
      // The Variant B service comes back on the same address knowing only another key.
      const port = sandboxB.port;
      await sandboxB.close();
      const { startSandbox } = await import("@pix-checkout/sandbox");
      sandboxB = await startSandbox({ variant: "b", keys: [OTHER_KEY], port });
      const line = await waitFor(async () => {
        const found = await lineOf("service:b");
        return found.action === "check_api_key" && found;
      }, "the service line to name the key");
      expect(line).toMatchObject({
        state: "broken",
        action: "check_api_key",
        detail: { reason: "key_refused", code: "invalid_api_key" },
      });
      expect((await lineOf("service:a")).state).toBe("ok");
    });

    it("warns that payments are being found by reconciliation when the webhook URL is gone", async () => {
      // Each case starts from an empty database: first a payment whose webhook arrives.
      const first = await orderFirstPix(30);
      await control(sandbox.url, `charges/${first.chargeId}/pay`, {});
      await waitFor(
        async () => (await capturesOfSession(container(), first.sessionId)) === 1,
        "the capture of the payment whose webhook arrived",
      );
      await fetch(`${sandbox.url}/__sandbox/webhook-urls`, { method: "DELETE" });
      try {
        const charges = [await orderFirstPix(31), await orderFirstPix(32)];
        for (const { chargeId } of charges) {
          await control(sandbox.url, `charges/${chargeId}/pay`, {});
        }
        await sandbox.webhooksIdle();
        // A pass as if the charges' next checks were due.
        await reconcilePass(container(), new Date(Date.now() + 5 * 60_000 + 1_000));
        await waitFor(async () => {
          const paid = await db(container())("pix_checkout_charge")
            .whereIn(
              "charge_id",
              charges.map((c) => c.chargeId),
            )
            .where({ status: "paid" });
          return paid.length === 2;
        }, "both charges to be found paid");
        for (const { sessionId } of charges) {
          await waitFor(
            async () => (await capturesOfSession(container(), sessionId)) === 1,
            "the capture of a charge found by reconciliation",
          );
        }
        expect(await lineOf("webhooks")).toMatchObject({
          state: "warning",
          action: "check_webhook_url",
          detail: {
            reason: "found_by_reconciliation",
            paid_by_webhook: 1,
            paid_by_reconciliation: 2,
          },
        });
      } finally {
        await control(sandbox.url, "webhook-urls", { url: hook });
      }
    });

    it("tells no one of a blip, takes a held change once however many evaluate at once, and reminds at most daily", async () => {
      const knex = db(container());
      const options = { holdSeconds: HOLD_SECONDS, reminderHours: 24 as const };
      // Lines of their own, so the store's own alert job (running meanwhile) never takes them.
      const line = (id: string, state: HealthLine["state"]): HealthLine => ({
        id,
        state,
        value: null,
        detail: state === "ok" ? {} : { reason: "checks_overdue" },
        action: state === "ok" ? null : "check_worker",
      });
      const claim = (id: string) => claimAlerts(knex, [id], options);

      await observeLines(knex, [line("test:blip", "ok")]);
      expect(await claim("test:blip")).toEqual([]); // a first ok is nothing to tell
      await observeLines(knex, [line("test:blip", "broken")]);
      expect(await claim("test:blip")).toEqual([]); // not held yet
      await sleep(HOLD_SECONDS * 500);
      await observeLines(knex, [line("test:blip", "ok")]);
      await sleep(HOLD_SECONDS * 1000);
      expect(await claim("test:blip")).toEqual([]); // bad for under the hold, then ok again

      await observeLines(knex, [line("test:race", "broken")]);
      await sleep(HOLD_SECONDS * 1000 + 200);
      const racing = await Promise.all(
        Array.from({ length: 6 }, () => claimAlerts(db(container()), ["test:race"], options)),
      );
      expect(racing.flat().map((r) => [r.line_id, r.told_state, r.alert_kind])).toEqual([
        ["test:race", "broken", "changed"],
      ]);
      expect(await claim("test:race")).toEqual([]);

      // A day later, still broken: one reminder, and not another until the next day.
      await knex("pix_checkout_health_alert")
        .where({ line_id: "test:race" })
        .update({ told_at: knex.raw("now() - interval '23 hours'") });
      expect(await claim("test:race")).toEqual([]);
      await knex("pix_checkout_health_alert")
        .where({ line_id: "test:race" })
        .update({ told_at: knex.raw("now() - interval '24 hours 1 second'") });
      const reminded = await Promise.all([claim("test:race"), claim("test:race")]);
      expect(reminded.flat().map((r) => r.alert_kind)).toEqual(["reminder"]);
      expect(await claim("test:race")).toEqual([]);
    });

    it("e-mails the merchant once when the webhook URL breaks, and once when it works again, in pt-BR", async () => {
      const knex = db(container());
      const subject = "Avisos de pagamento (webhooks)";
      const webhookMails = () => inbox.mails.filter((m) => m.subject?.includes(subject));
      const changed: Json[] = [];
      container()
        .resolve(Modules.EVENT_BUS)
        .subscribe(HEALTH_CHANGED_EVENT, async (event: { data: Json }) => {
          if (event.data.line === "webhooks") changed.push(event.data);
        });

      // A store whose webhooks arrive; a first reading of an ok line tells no one.
      const first = await orderFirstPix(30);
      await control(sandbox.url, `charges/${first.chargeId}/pay`, {});
      await waitFor(
        async () => (await capturesOfSession(container(), first.sessionId)) === 1,
        "the capture of the payment whose webhook arrived",
      );
      await evaluateHealthAlerts(container());

      // The URL registered at the service stops working: it carries a token the store no
      // longer accepts (rotated in medusa-config, not in the service's dashboard).
      await fetch(`${sandbox.url}/__sandbox/webhook-urls`, { method: "DELETE" });
      await control(sandbox.url, "webhook-urls", {
        url: hook.replace(WEBHOOK_SECRET, "whsec-rotated-away-000000"),
      });
      const charges = [await orderFirstPix(31), await orderFirstPix(32)];
      for (const { chargeId } of charges) {
        await control(sandbox.url, `charges/${chargeId}/pay`, {});
      }
      await sandbox.webhooksIdle();
      await reconcilePass(container(), new Date(Date.now() + 5 * 60_000 + 1_000));
      for (const { sessionId } of charges) {
        await waitFor(
          async () => (await capturesOfSession(container(), sessionId)) === 1,
          "the capture of a charge found by reconciliation",
        );
      }
      expect((await lineOf("webhooks")).state).toBe("warning");

      // Seen, not yet held: nobody is paged.
      expect((await evaluateHealthAlerts(container()))?.claimed).not.toContain("webhooks");
      expect(webhookMails()).toHaveLength(0);
      await sleep(HOLD_SECONDS * 1000 + 200);
      // Two workers evaluating at once (and the store's own job, every minute): one e-mail.
      await Promise.all([evaluateHealthAlerts(container()), evaluateHealthAlerts(container())]);
      // Evaluating on until it arrives: a reading the minute job took just before the change
      // may land after it and start the hold again, as it may in a store.
      await waitFor(async () => {
        if (webhookMails().length === 0) await evaluateHealthAlerts(container());
        return webhookMails().length === 1;
      }, "the alert e-mail");
      await evaluateHealthAlerts(container());
      await sleep(500);
      expect(webhookMails()).toHaveLength(1);

      const alert = webhookMails()[0]!;
      expect(alert.subject).toBe(`[Pix Checkout] Atenção: ${subject}`);
      expect(alert.to && "text" in alert.to ? alert.to.text : "").toBe(ALERTS_TO);
      expect(alert.text).toContain(
        "Os pagamentos estão sendo encontrados pela conciliação, e não por webhooks (2 contra 1).",
      );
      expect(alert.text).toContain("O que fazer: Cadastre de novo a URL de webhook");
      expect(alert.html).toContain("https://loja.example.com/app/pix-checkout");
      for (const secret of [WEBHOOK_SECRET, API_KEY]) {
        expect(JSON.stringify([alert.text, alert.html, alert.subject])).not.toContain(secret);
      }
      // The delivered message, for the README's screenshot (scripts/alert-email-screenshot.mjs).
      if (process.env.ALERT_EMAIL_OUT) {
        const { subject: delivered, from, to, date, html } = alert;
        const address = (a: typeof from | typeof to) => (a && "text" in a ? a.text : "");
        writeFileSync(
          process.env.ALERT_EMAIL_OUT,
          JSON.stringify({ subject: delivered, from: address(from), to: address(to), date, html }),
        );
      }
      await waitFor(async () => changed.length === 1, "the health.changed event");
      expect(changed[0]).toMatchObject({
        line: "webhooks",
        state: "warning",
        previous_state: null,
        kind: "changed",
        reason: "found_by_reconciliation",
        action: "check_webhook_url",
        locale: "pt-BR",
      });

      // The merchant registers the URL again; a payment arrives by webhook, and the line is ok.
      // The mail server refuses for a while: the recovery is retried, not lost, and not doubled.
      inbox.refuse = true;
      await fetch(`${sandbox.url}/__sandbox/webhook-urls`, { method: "DELETE" });
      await control(sandbox.url, "webhook-urls", { url: hook });
      const fixed = await orderFirstPix(33);
      await control(sandbox.url, `charges/${fixed.chargeId}/pay`, {});
      await waitFor(
        async () => (await capturesOfSession(container(), fixed.sessionId)) === 1,
        "the capture of the payment whose webhook arrived again",
      );
      expect((await lineOf("webhooks")).state).toBe("ok");
      await evaluateHealthAlerts(container());
      await sleep(HOLD_SECONDS * 1000 + 200);
      await evaluateHealthAlerts(container());
      const failed = await waitFor(async () => {
        const row = await knex("pix_checkout_health_alert").where({ line_id: "webhooks" }).first();
        if (row?.told_state === "ok" && row.last_error) return row;
        await evaluateHealthAlerts(container());
        return false;
      }, "the refused recovery e-mail to be recorded");
      expect(failed).toMatchObject({ send_pending: true, sent_at: null });
      expect(failed.last_error).toContain("email");
      expect(webhookMails()).toHaveLength(1);

      inbox.refuse = false;
      // As if the retry's wait (30 s, doubling) were over.
      await knex("pix_checkout_health_alert")
        .where({ line_id: "webhooks" })
        .update({ send_after: knex.raw("now()") });
      await Promise.all([evaluateHealthAlerts(container()), evaluateHealthAlerts(container())]);
      await waitFor(async () => webhookMails().length === 2, "the recovery e-mail");
      await evaluateHealthAlerts(container());
      await sleep(500);
      expect(webhookMails().map((m) => m.subject)).toEqual([
        `[Pix Checkout] Atenção: ${subject}`,
        `[Pix Checkout] Normalizado: ${subject}`,
      ]);
      expect(webhookMails()[1]!.text).toContain("Estava: Atenção.");
      expect(changed.map((e) => [e.state, e.previous_state])).toEqual([
        ["warning", null],
        ["ok", "warning"],
      ]);
      // service:b has been broken for the whole case, but alerts.ignoreLines names it.
      expect((await lineOf("service:b")).state).toBe("broken");
      expect(inbox.mails.filter((m) => m.subject?.includes("Serviço de pagamento (b)"))).toEqual(
        [],
      );
      const sent = await knex("pix_checkout_health_alert").where({ line_id: "webhooks" }).first();
      expect(sent).toMatchObject({
        send_pending: false,
        last_error: null,
        delivered_to: [`email:${ALERTS_TO}`],
      });
    });

    it("shows the oldest capture waiting and counts it among what needs the merchant when a capture kept failing", async () => {
      const knex = db(container());
      const chargeId = "health-capture-failed-1";
      // The state three failed captures leave: paid, not captured, flagged for the merchant.
      await knex("pix_checkout_charge").insert({
        id: "pxch_health_capture_failed",
        charge_id: chargeId,
        provider_id: "pp_pix_a",
        method: "pix",
        variant: "a",
        session_id: "payses_health_gone",
        amount_cents: 2500,
        currency_code: "brl",
        status: "paid",
        received_cents: 2500,
        held_cents: 2500,
        held_reason: "awaiting_capture",
        paid_at: knex.raw("now() - interval '10 minutes'"),
        check_failures: 0,
        flagged: true,
        flag_code: "capture_failed",
        flag_detail: JSON.stringify({ attempts: 3, message: "session not found" }),
      });
      await knex("pix_checkout_charge_event").insert(
        [1, 2, 3].map((i) => ({
          id: `pxev_health_capture_${i}`,
          charge_id: chargeId,
          kind: "capture_failed",
          source: "reconcile",
        })),
      );
      try {
        const card = await health();
        const captures = card.lines.find((l) => l.id === "captures")!;
        expect(captures).toMatchObject({
          state: "broken",
          value: 1,
          action: "see_needs_attention",
          detail: { waiting: 1, handed: 1, oldest_charge_id: chargeId },
        });
        const waited = Date.now() - Date.parse(captures.detail.oldest_paid_at);
        expect(waited).toBeGreaterThan(9 * 60_000);
        // Paid ten minutes ago and not captured: the money's state puts it on the list.
        expect(card.lines.find((l) => l.id === "attention")).toMatchObject({
          state: "warning",
          value: 1,
          action: "see_needs_attention",
          detail: { not_captured: 1, refund_due: 0, total: 1 },
        });
      } finally {
        await knex("pix_checkout_charge_event").where({ charge_id: chargeId }).delete();
        await knex("pix_checkout_charge").where({ charge_id: chargeId }).delete();
      }
    });

    it("shows the create budget spent (60/60) and the shoppers waiting in line", async () => {
      const knex = db(container());
      const requests = () => knex("pix_checkout_create_request");
      const budgetKey = sandbox.baseUrl.replace(/\/+$/, "");
      const used = Number((await lineOf("create_budget:a")).detail.used);
      const row = (i: number, state: string) => ({
        id: `pxcr_health_${state}_${i}`,
        budget_key: budgetKey,
        provider_key: "a",
        provider_id: "pp_pix_a",
        method: "pix",
        session_id: `payses_health_${state}_${i}`,
        amount_cents: 100,
        state,
        ...(state === "done"
          ? { done_at: knex.raw("now()") }
          : { input: JSON.stringify({ method: "pix", amountCents: 100 }) }),
      });
      await requests().insert(Array.from({ length: 60 - used }, (_, i) => row(i, "done")));
      await requests().insert([0, 1, 2].map((i) => row(i, "waiting")));
      try {
        expect(await lineOf("create_budget:a")).toMatchObject({
          state: "warning",
          value: "60/60",
          action: "busy_minute",
          detail: { used: 60, limit: 60, waiting: 3, reason: "budget_spent" },
        });
      } finally {
        await requests().where("id", "like", "pxcr_health_%").delete();
      }
    });

    it("names a provider the BRL region does not enable, and says where to enable it", async () => {
      const regions = container().resolve(Modules.REGION);
      const ok = (await health()).lines.find((l) => l.id === "region:pp_boleto_a")!;
      expect(ok).toMatchObject({ state: "ok", value: "Brasil", action: null });
      // The merchant took boleto off the region (since Medusa 2.20 its sessions then fail).
      await updateRegionsWorkflow(container()).run({
        input: {
          selector: { id: store.regionId },
          update: { payment_providers: ["pp_pix_a", "pp_pix_b"] },
        },
      });
      try {
        const card = await health();
        const line = card.lines.find((l) => l.id === "region:pp_boleto_a")!;
        expect(line).toMatchObject({
          state: "broken",
          action: "enable_on_region",
          detail: {
            provider_id: "pp_boleto_a",
            brl_regions: ["Brasil"],
            reason: "not_on_brl_region",
          },
        });
        expect(card.state).toBe("broken");
        expect(card.lines.find((l) => l.id === "region:pp_pix_a")?.state).toBe("ok");
        expect(cardWords("ptBR").action?.enable_on_region).toMatch(/^Em Configurações → Regiões/);
      } finally {
        await updateRegionsWorkflow(container()).run({
          input: {
            selector: { id: store.regionId },
            update: { payment_providers: ["pp_pix_a", "pp_boleto_a", "pp_pix_b"] },
          },
        });
      }
      expect(await regions.listRegions({ currency_code: "brl" })).toHaveLength(1);
    });

    it("turns the variant line broken, in pt-BR and en, when the service answers in the other variant", async () => {
      expect(await lineOf("variant:a")).toMatchObject({ state: "ok", action: null });
      // Registration a is configured for Variant A; its address now answers as Variant B.
      const port = sandbox.port;
      await sandbox.close();
      const { startSandbox } = await import("@pix-checkout/sandbox");
      sandbox = await startSandbox({ variant: "b", keys: [API_KEY], port });
      try {
        // A shopper's Pix: the client sees the other variant's shape and refuses the create.
        const cartId = await createCart(container(), store, 45);
        await storefront(http, store).initiate(cartId, "pp_pix_a");
        const line = await waitFor(async () => {
          const found = await lineOf("variant:a");
          return found.state === "broken" && found;
        }, "the variant line to break");
        expect(line).toMatchObject({
          value: "a",
          action: "check_variant",
          detail: { provider: "a", configured: "a", reason: "variant_mismatch" },
        });
        expect(line.detail.refused_creates_day).toBeGreaterThan(0);
        expect((await health()).state).toBe("broken");

        // The card's words for that line: its reason and what to do, in both languages.
        const pt = cardWords("ptBR");
        const en = cardWords("en");
        const reason = line.detail.reason as string;
        const action = line.action as string;
        expect([pt.reason?.[reason], pt.action?.[action]]).toEqual([
          "O serviço responde no formato da outra variante.",
          "Ajuste a variant do provedor no medusa-config para a que o serviço usa.",
        ]);
        expect([en.reason?.[reason], en.action?.[action]]).toEqual([
          "The service answers in the other variant's shape.",
          "Set the provider's variant in medusa-config to the one the service speaks.",
        ]);
        expect([pt.line?.variant, pt.state?.broken]).toEqual([
          "Variante da API ({{provider}})",
          "Com problema",
        ]);
        expect([en.line?.variant, en.state?.broken]).toEqual([
          "API variant ({{provider}})",
          "Broken",
        ]);
      } finally {
        await sandbox.close();
        sandbox = await startSandbox({
          variant: "a",
          keys: [API_KEY],
          webhookRetryDelaysMs: [300],
          port,
        });
        await control(sandbox.url, "webhook-urls", { url: hook });
      }
    });

    it("counts the 90 days of a Pix owed back: days left on the list and the card, one e-mail at 15 and one at 5, the CSV's deadline", async () => {
      const knex = db(container());
      // An order of R$ 10,00 paid R$ 45,00: R$ 35,00 owed back (overpaid).
      const { chargeId, sessionId } = await orderFirstPix(10);
      await control(sandbox.url, `transactions/${chargeId}/amount`, { amount: 4_500 });
      await control(sandbox.url, `charges/${chargeId}/pay`, {});
      await waitFor(
        async () => (await capturesOfSession(container(), sessionId)) === 1,
        "the capture of the overpaid order",
      );
      const charges = async () => {
        const response = await http.request({
          method: "get",
          url: "/admin/pix-checkout/charges?needs_attention=true",
          headers: adminHeaders,
        });
        return (response.data as { charges: Json[] }).charges;
      };
      const listed = async () => (await charges()).find((c) => c.charge_id === chargeId)!;
      await waitFor(async () => (await listed())?.money.owed === 3_500, "the excess owed back");
      const displayId = (await listed()).order.display_id as number;
      const subject = `Prazo de devolução do Pix (pedido #${displayId})`;
      const deadlineMails = () =>
        inbox.mails.filter((m) => m.subject?.includes("Prazo de devolução do Pix"));
      // Paid today, the full 90 days are left: shown, and nothing warns.
      const today = saoPauloDay(new Date());
      expect((await listed()).refund_deadline).toMatchObject({ days_left: 90, state: "ok" });
      expect((await lineOf("refund_deadline")).state).toBe("ok");

      // The payment as if made 78 days ago (São Paulo has kept UTC-3 all year since 2019): 12 left.
      const paidDaysAgo = (days: number) =>
        knex("pix_checkout_charge")
          .where({ charge_id: chargeId })
          .update({
            paid_at: knex.raw(`now() - make_interval(days => ?)`, [days]),
            api_paid_at: knex.raw(`now() - make_interval(days => ?)`, [days]),
          });
      const inDays = (days: number) => {
        const [y, m, d] = today.split("-").map(Number) as [number, number, number];
        return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
      };
      const brazilian = (day: string) => day.split("-").reverse().join("/");
      await paidDaysAgo(78);
      expect((await listed()).refund_deadline).toEqual({
        deadline: inDays(12),
        days_left: 12,
        state: "warning",
      });
      expect(await lineOf("refund_deadline")).toMatchObject({
        state: "warning",
        action: "refund_before_deadline",
        detail: {
          warning: 1,
          reason: "refund_deadline_near",
          nearest: { charge_id: chargeId, owed_cents: 3_500, days_left: 12 },
        },
      });
      // A read changed nothing: no alert is taken by the card.
      expect(deadlineMails()).toHaveLength(0);

      // The alerts job: one e-mail as the charge crosses 15 days left, however often it runs.
      const evaluateUntil = async (count: number, what: string) => {
        await evaluateHealthAlerts(container());
        await sleep(HOLD_SECONDS * 1000 + 200);
        await waitFor(async () => {
          if (deadlineMails().length < count) await evaluateHealthAlerts(container());
          return deadlineMails().length === count;
        }, what);
        await Promise.all([evaluateHealthAlerts(container()), evaluateHealthAlerts(container())]);
        await sleep(500);
        expect(deadlineMails()).toHaveLength(count);
      };
      await evaluateUntil(1, "the e-mail at 15 days left");
      const warned = deadlineMails()[0]!;
      expect(warned.subject).toBe(`[Pix Checkout] Atenção: ${subject}`);
      expect(warned.text).toContain(
        `R$ 35,00 a devolver ao cliente (pedido #${displayId}): faltam 12 dia(s) do prazo do Pix (até ${brazilian(inDays(12))}).`,
      );
      expect(warned.text).toContain("antes do prazo");

      // A day later nothing new is sent, not even a reminder.
      await knex("pix_checkout_health_alert")
        .where({ line_id: `refund_deadline:${chargeId}` })
        .update({ told_at: knex.raw("now() - interval '25 hours'") });
      await evaluateHealthAlerts(container());
      await sleep(500);
      expect(deadlineMails()).toHaveLength(1);

      // 85 days ago: 5 left. Red on the list, the card broken, one more e-mail.
      await paidDaysAgo(85);
      expect((await listed()).refund_deadline).toMatchObject({ days_left: 5, state: "critical" });
      expect((await lineOf("refund_deadline")).state).toBe("broken");
      await evaluateUntil(2, "the e-mail at 5 days left");
      const urgent = deadlineMails()[1]!;
      expect(urgent.subject).toBe(`[Pix Checkout] Com problema: ${subject}`);
      expect(urgent.text).toContain(
        `faltam 5 dia(s) do prazo do Pix (até ${brazilian(inDays(5))})`,
      );
      // The card's own line, which counts them, is never mailed beside them.
      expect(inbox.mails.filter((m) => m.subject?.endsWith("Prazo de devolução do Pix"))).toEqual(
        [],
      );

      // The books: the payment's line carries the deadline of its money owed back.
      const csv = await http.request({
        method: "get",
        url: `/admin/pix-checkout/reconciliation.csv?from=${today}&to=${today}`,
        headers: adminHeaders,
        responseType: "arraybuffer",
      });
      expect(csv.status).toBe(200);
      const rows = Buffer.from(csv.data as ArrayBuffer)
        .subarray(3)
        .toString("utf8")
        .split("\r\n");
      expect(rows[0]?.endsWith(";Observação;Prazo de devolução;CPF/CNPJ do comprador")).toBe(true);
      const row = rows.find((r) => r.includes(`;${chargeId};`));
      expect(row).toContain(";35,00;");
      // The deadline, then the buyer's CPF/CNPJ (this order has none).
      expect(row?.endsWith(`;${brazilian(inDays(5))};`)).toBe(true);

      // Past the deadline: the card says Pix no longer takes it.
      await paidDaysAgo(91);
      expect((await listed()).refund_deadline).toMatchObject({ days_left: -1, state: "past" });
      expect(await lineOf("refund_deadline")).toMatchObject({
        state: "broken",
        action: "refund_by_transfer",
        detail: { past: 1, reason: "refund_deadline_past" },
      });
    });
  },
});
