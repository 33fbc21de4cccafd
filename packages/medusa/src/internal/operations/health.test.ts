import { describe, expect, it } from "vitest";
import { p95, regionLines, serviceLine, tableLines, worst, type HealthFigures } from "./health";
import type { RegisteredProvider } from "../platform/provider-registry";

const now = new Date("2026-11-27T12:00:00.000Z");
const ago = (ms: number) => new Date(now.getTime() - ms);

/** A store where everything flows: one payment by webhook, nothing waiting. */
function healthy(): HealthFigures {
  return {
    now,
    webhooks: {
      lastReceivedAt: ago(60_000),
      deliveriesDay: 3,
      delaysMs: [120, 80, 300],
      paidHour: { webhook: 1 },
      paidDay: { webhook: 3 },
    },
    checks: { overdue: 0, oldestDueAt: null, oldestChargeId: null },
    captures: { waiting: 0, oldestPaidAt: null, oldestChargeId: null, handed: 0 },
    carts: { waiting: 0, oldestAt: null },
    attention: { held: 0, refund_due: 0, no_order: 0, not_captured: 0, med: 0, note: 0 },
    ordersWithoutCode: 0,
    owedNearDeadline: [],
    budgets: [
      { provider: "a", limit: 60, used: 2, waiting: 0, oldestWaitingAt: null, pausedUntil: null },
    ],
  };
}

const line = (figures: HealthFigures, id: string) => tableLines(figures).find((l) => l.id === id)!;

describe("health rules", () => {
  it("says ok on every line of a store whose payments arrive by webhook", () => {
    expect(tableLines(healthy()).map((l) => [l.id, l.state, l.action])).toEqual([
      ["webhooks", "ok", null],
      ["checks", "ok", null],
      ["captures", "ok", null],
      ["carts", "ok", null],
      ["attention", "ok", null],
      ["refund_deadline", "ok", null],
      ["create_budget:a", "ok", null],
    ]);
  });

  it("warns when reconciliation finds more payments than webhooks in the last hour", () => {
    const f = healthy();
    f.webhooks.paidHour = { webhook: 1, reconcile: 1, refresh: 1 };
    expect(line(f, "webhooks")).toMatchObject({
      state: "warning",
      action: "check_webhook_url",
      detail: { reason: "found_by_reconciliation", paid_by_reconciliation: 2 },
    });
  });

  it("falls back to the last day when the hour saw no payment", () => {
    const f = healthy();
    f.webhooks.paidHour = {};
    f.webhooks.paidDay = { webhook: 1, reconcile: 4 };
    expect(line(f, "webhooks").detail.reason).toBe("found_by_reconciliation");
  });

  it("warns when charges were paid and no delivery came all day", () => {
    const f = healthy();
    f.webhooks.deliveriesDay = 0;
    f.webhooks.paidDay = { authorize: 2 };
    f.webhooks.paidHour = {};
    expect(line(f, "webhooks").detail.reason).toBe("no_deliveries");
  });

  it("calls a check overdue by more than 15 minutes broken, and a shorter delay a warning", () => {
    const f = healthy();
    f.checks = { overdue: 2, oldestDueAt: ago(5 * 60_000), oldestChargeId: "ch_1" };
    expect(line(f, "checks")).toMatchObject({ state: "warning", action: "check_worker", value: 2 });
    f.checks.oldestDueAt = ago(20 * 60_000);
    expect(line(f, "checks").state).toBe("broken");
  });

  it("leaves a capture inside its lease alone and warns past it", () => {
    const f = healthy();
    f.captures = { waiting: 1, oldestPaidAt: ago(30_000), oldestChargeId: "ch_1", handed: 0 };
    expect(line(f, "captures").state).toBe("ok");
    f.captures.oldestPaidAt = ago(3 * 60_000);
    expect(line(f, "captures")).toMatchObject({ state: "warning", action: "check_worker" });
  });

  it("calls a capture handed to the merchant broken and points to Needs attention", () => {
    const f = healthy();
    f.captures = { waiting: 1, oldestPaidAt: ago(30_000), oldestChargeId: "ch_1", handed: 1 };
    expect(line(f, "captures")).toMatchObject({ state: "broken", action: "see_needs_attention" });
  });

  it("counts what needs the merchant by what its money needs, notes apart", () => {
    const f = healthy();
    f.attention = { held: 1, refund_due: 1, no_order: 0, not_captured: 0, med: 0, note: 2 };
    expect(line(f, "attention")).toMatchObject({
      state: "warning",
      value: 4,
      detail: { held: 1, refund_due: 1, note: 2, total: 4, reason: "needs_attention" },
      action: "see_needs_attention",
    });
  });

  it("counts the orders kept without a code among what needs the merchant: nothing else tells of them", () => {
    const f = healthy();
    f.ordersWithoutCode = 2;
    expect(line(f, "attention")).toMatchObject({
      state: "warning",
      value: 2,
      detail: { held: 0, no_code: 2, total: 2, reason: "needs_attention" },
      action: "see_needs_attention",
    });
    f.attention.refund_due = 1;
    expect(line(f, "attention")).toMatchObject({ value: 3, detail: { no_code: 2, total: 3 } });
  });

  it("shows a spent budget as used/limit with the line waiting, and a stuck line as broken", () => {
    const f = healthy();
    f.budgets[0] = { ...f.budgets[0]!, used: 60, waiting: 4, oldestWaitingAt: ago(10_000) };
    expect(line(f, "create_budget:a")).toMatchObject({
      state: "warning",
      value: "60/60",
      detail: { used: 60, limit: 60, waiting: 4 },
      action: "busy_minute",
    });
    f.budgets[0]!.oldestWaitingAt = ago(6 * 60_000);
    expect(line(f, "create_budget:a")).toMatchObject({ state: "broken", action: "check_worker" });
  });

  it("maps a refused key, a wrong variant, a busy service and no answer to their actions", () => {
    const check = { provider: "a", checkedAt: now, latencyMs: 12 };
    expect(serviceLine(check)).toMatchObject({ id: "service:a", state: "ok", value: 12 });
    const failed = (code: string, status?: number) =>
      serviceLine({ ...check, code, ...(status ? { status } : {}) });
    expect(failed("invalid_api_key", 401)).toMatchObject({
      state: "broken",
      action: "check_api_key",
    });
    expect(failed("api_key_revoked", 403).action).toBe("check_api_key");
    expect(failed("variant_mismatch").action).toBe("check_variant");
    expect(failed("rate_limit_exceeded", 429)).toMatchObject({ state: "warning" });
    expect(failed("timeout")).toMatchObject({ state: "broken", action: "check_base_url" });
  });

  it("takes the nearest-rank p95 and the worst state", () => {
    expect(p95([])).toBeNull();
    expect(p95(Array.from({ length: 100 }, (_, i) => i + 1))).toBe(95);
    expect(p95([5])).toBe(5);
    expect(worst(["ok", "warning"])).toBe("warning");
    expect(worst(["warning", "broken", "ok"])).toBe("broken");
  });
});

describe("regionLines", () => {
  const a = [{ key: "a" }] as unknown as RegisteredProvider[];
  const providers = [
    { id: "pp_boleto_a", is_enabled: true },
    { id: "pp_pix_a", is_enabled: true },
    { id: "pp_pix_b", is_enabled: true },
  ];

  it("is ok for a provider enabled on a BRL region, and lists the regions", () => {
    const lines = regionLines(
      {
        providers,
        brlRegions: [
          { id: "reg_1", name: "Brasil", providerIds: ["pp_pix_a", "pp_boleto_a"] },
          { id: "reg_2", name: "Brasil atacado", providerIds: ["pp_pix_a"] },
        ],
      },
      a,
    );
    expect(lines.map((l) => [l.id, l.state, l.value])).toEqual([
      ["region:pp_boleto_a", "ok", "Brasil"],
      ["region:pp_pix_a", "ok", "Brasil, Brasil atacado"],
    ]);
  });

  it("names the provider no BRL region enables, and a store with no BRL region at all", () => {
    const missing = regionLines(
      { providers, brlRegions: [{ id: "reg_1", name: "Brasil", providerIds: ["pp_pix_a"] }] },
      a,
    );
    expect(missing[0]).toMatchObject({
      id: "region:pp_boleto_a",
      state: "broken",
      action: "enable_on_region",
      detail: { provider_id: "pp_boleto_a", brl_regions: ["Brasil"], reason: "not_on_brl_region" },
    });
    const none = regionLines({ providers, brlRegions: [] }, a);
    expect(none.map((l) => [l.state, l.action])).toEqual([
      ["broken", "add_brl_region"],
      ["broken", "add_brl_region"],
    ]);
  });

  it("leaves out providers Medusa no longer loads", () => {
    const lines = regionLines(
      { providers: [{ id: "pp_pix_a", is_enabled: false }], brlRegions: [] },
      a,
    );
    expect(lines).toEqual([]);
  });
});
