import { describe, expect, it } from "vitest";
import { alertOptions, isIgnored } from "./alert-options";
import { lineTitle, renderAlert } from "./alert-message";
import { alertPayload } from "./health-alerts";
import type { HealthLine } from "./health";
import type { ConfigModule } from "@medusajs/framework/types";

const webhooks: HealthLine = {
  id: "webhooks",
  state: "warning",
  value: 812,
  detail: { reason: "found_by_reconciliation", paid_by_reconciliation: 3, paid_by_webhook: 1 },
  action: "check_webhook_url",
};
const since = new Date("2026-11-24T13:05:00Z");
const configWith = (alerts: unknown) =>
  ({
    plugins: [{ resolve: "@pix-checkout/medusa", options: { alerts } }],
  }) as unknown as ConfigModule;

describe("renderAlert", () => {
  it("says in pt-BR which line turned bad, since when on São Paulo's clock, why and what to do", () => {
    const message = renderAlert(
      { line: webhooks, previousState: null, kind: "changed", since },
      "pt-BR",
    );
    expect(message.subject).toBe("[Pix Checkout] Atenção: Avisos de pagamento (webhooks)");
    expect(message.text).toContain("Desde 24/11/2026, 10:05 (horário de Brasília).");
    expect(message.text).toContain(
      "Os pagamentos estão sendo encontrados pela conciliação, e não por webhooks (3 contra 1).",
    );
    expect(message.text).toContain("O que fazer: Cadastre de novo a URL de webhook");
    expect(message.html).toContain('<html lang="pt-BR">');
  });

  it("says the same in English, and a recovery names the state it left", () => {
    const ok: HealthLine = { ...webhooks, state: "ok", detail: {}, action: null };
    const message = renderAlert(
      { line: ok, previousState: "warning", kind: "changed", since },
      "en",
    );
    expect(message.subject).toBe("[Pix Checkout] Recovered: Webhooks received");
    expect(message.text).toContain("Back to normal at 24/11/2026, 10:05 (São Paulo time).");
    expect(message.text).toContain("It was: Warning.");
    expect(message.todo).toBeNull();
  });

  it("calls a reminder a reminder and names the registration of a per-provider line", () => {
    const service: HealthLine = {
      id: "service:loja-sul",
      state: "broken",
      value: null,
      detail: { reason: "key_refused", code: "invalid_api_key" },
      action: "check_api_key",
    };
    const message = renderAlert(
      { line: service, previousState: "broken", kind: "reminder", since },
      "pt-BR",
    );
    expect(message.subject).toBe(
      "[Pix Checkout] Lembrete: Serviço de pagamento (loja-sul) segue “Com problema” desde 24/11/2026, 10:05 (horário de Brasília)",
    );
    expect(message.reason).toBe("O serviço recusou a chave (invalid_api_key).");
    expect(lineTitle("create_budget:a", "en")).toBe("Create budget (a)");
  });

  it("counts the orders kept without a payment code beside the money, in both languages", () => {
    const attention: HealthLine = {
      id: "attention",
      state: "warning",
      value: 2,
      detail: {
        held: 0,
        refund_due: 1,
        no_order: 0,
        not_captured: 0,
        note: 0,
        no_code: 1,
        total: 2,
        reason: "needs_attention",
      },
      action: "see_needs_attention",
    };
    const facts = { line: attention, previousState: null, kind: "changed" as const, since };
    expect(renderAlert(facts, "pt-BR").reason).toBe(
      "Há dinheiro ou pedidos esperando uma decisão sua (2): 0 retido(s), 1 devolução(ões) devida(s), 0 sem pedido, 0 sem captura, 0 aviso(s), 1 pedido(s) sem código de pagamento.",
    );
    expect(renderAlert(facts, "en").reason).toBe(
      "Money or orders wait for your decision (2): 0 held, 1 refund(s) due, 0 without an order, 0 not captured, 0 note(s), 1 order(s) without a payment code.",
    );
  });

  it("names the store's Redis, says when a failover was seen on São Paulo's clock, and never repeats the connection's error", () => {
    const failover: HealthLine = {
      id: "redis",
      state: "warning",
      value: 2,
      detail: {
        in_use: true,
        module: "event-bus-redis",
        reason: "redis_failover",
        failover_at: "2026-11-24T13:01:00.000Z",
      },
      action: "check_redis",
    };
    const seen = renderAlert(
      { line: failover, previousState: "ok", kind: "changed", since },
      "pt-BR",
    );
    expect(seen.subject).toBe("[Pix Checkout] Atenção: Redis da loja");
    expect(seen.reason).toBe(
      "A conexão com o Redis caiu e voltou (failover ou reinício) em 24/11/2026, 10:01 (horário de Brasília).",
    );
    expect(seen.text).toContain("O que fazer: Confira se o Redis da loja está no ar");
    const down: HealthLine = {
      ...failover,
      state: "broken",
      value: null,
      detail: {
        in_use: true,
        reason: "redis_unreachable",
        error: "connect ECONNREFUSED 10.0.0.7:6379",
      },
    };
    const message = renderAlert({ line: down, previousState: "ok", kind: "changed", since }, "en");
    expect(message.subject).toBe("[Pix Checkout] Broken: Store's Redis");
    expect(message.reason).toBe(
      "The store's Redis did not answer: Medusa's events, locks and workflows wait on it.",
    );
    expect(message.text).not.toContain("10.0.0.7");
  });

  it("escapes what it puts into the HTML", () => {
    const odd: HealthLine = { ...webhooks, id: "<b>x</b>" };
    const message = renderAlert(
      { line: odd, previousState: null, kind: "changed", since },
      "en",
      "https://x.example/?a=1&b=2",
    );
    expect(message.html).toContain("&lt;b&gt;x&lt;/b&gt;");
    expect(message.html).toContain("https://x.example/?a=1&amp;b=2");
  });
});

describe("alertOptions", () => {
  it("is off by default, and on needs somebody to tell", () => {
    expect(alertOptions({ plugins: [] } as unknown as ConfigModule).enabled).toBe(false);
    expect(() => alertOptions(configWith({ enabled: true }))).toThrow(
      expect.objectContaining({
        code: "invalid_options",
        message: expect.stringContaining("alerts.to"),
      }),
    );
  });

  it("refuses reminders more often than daily and names the field", () => {
    expect(() =>
      alertOptions(configWith({ enabled: true, to: ["a@b.co"], reminderHours: 6 })),
    ).toThrow(
      expect.objectContaining({ message: expect.stringContaining("alerts.reminderHours") }),
    );
    expect(
      alertOptions(configWith({ enabled: true, to: ["a@b.co"], reminderHours: false }))
        .reminderHours,
    ).toBe(false);
  });

  it("ignores a line by its id or its kind", () => {
    const options = { ignoreLines: ["attention", "create_budget:b"] };
    const ids = ["attention", "create_budget:a", "create_budget:b", "webhooks"];
    expect(ids.filter((id) => isIgnored(id, options))).toEqual(["attention", "create_budget:b"]);
  });
});

describe("alertPayload", () => {
  it("sends to every recipient, with one idempotency key per alert and recipient, and the event names line, state and action", () => {
    const options = alertOptions(
      configWith({
        enabled: true,
        to: ["ops@loja.example.com"],
        recipients: [{ channel: "slack", to: "#pagamentos" }],
        locale: "en",
      }),
    );
    const { data, notifications } = alertPayload(
      {
        line_id: "webhooks",
        told_state: "warning",
        previous_state: null,
        alert_id: "webhooks@1",
        alert_kind: "changed",
        alert_line: webhooks,
        alert_since: since,
      },
      options,
    );
    expect(data).toMatchObject({
      line: "webhooks",
      state: "warning",
      action: "check_webhook_url",
      reason: "found_by_reconciliation",
      since: since.toISOString(),
      message: { subject: "[Pix Checkout] Warning: Webhooks received" },
    });
    expect(notifications.map((n) => [n.channel, n.to, n.template, n.idempotency_key])).toEqual([
      [
        "email",
        "ops@loja.example.com",
        "pix-checkout-health-changed",
        "pix-checkout-health:webhooks@1:email:ops@loja.example.com",
      ],
      [
        "slack",
        "#pagamentos",
        "pix-checkout-health-changed",
        "pix-checkout-health:webhooks@1:slack:#pagamentos",
      ],
    ]);
    expect(notifications[0]?.content.html).toContain("Webhooks received");
  });
});
