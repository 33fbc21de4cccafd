// Which buttons the admin user sees, by what Medusa says their role may do. The pure rule is
// tested as a table; then the real components are rendered (React's server renderer, in
// Portuguese with the plugin's own translations) with Medusa's answer already in the query
// cache, as asking it (`askPermissions`) would have filled it. The integration suite
// (admin-permissions.test.ts) feeds real answers of a Medusa with RBAC on to the same rule.
import { createElement, type ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { TooltipProvider } from "@medusajs/ui";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import i18next from "i18next";
import { initReactI18next } from "react-i18next";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
// The components are imported before the browser globals are stubbed below: react-aria (in
// @medusajs/ui) looks for a DOM when it loads and would take the stubs for one.
import PixCheckoutOrderWidget from "../widgets/pix-checkout-order";
import translations from "../i18n";
import { FlagActions } from "./flag-actions";
import { MedActions } from "./med-actions";
import { PixDiscountCard } from "./pix-discount-card";
import { ReconciliationCard } from "./reconciliation-card";
import {
  PERMISSIONS_KEY,
  askPermissions,
  permittedActions,
  type PermissionsAnswer,
} from "./permissions";
import type { AdminCharge, AdminChargeSummary, AdminMoney } from "./types";

const granted = (...permissions: string[]): PermissionsAnswer => ({
  rbac: true,
  status: 200,
  body: { permissions },
});
const RBAC_OFF: PermissionsAnswer = { rbac: false };
const VIEWER = granted("payment:read", "promotion:read");
const REFUNDER = granted("payment:read", "pix_checkout:refund");
const EVERYTHING_BUT_REFUND = granted(
  "payment:read",
  "pix_checkout:accept",
  "pix_checkout:resolve",
  "pix_checkout:export",
  "pix_checkout:recheck",
  "promotion:read",
  "promotion:create",
  "promotion:update",
);

describe("permittedActions", () => {
  const sorted = (answer: PermissionsAnswer | undefined) => [...permittedActions(answer)].sort();

  it("allows nothing until Medusa has answered", () => {
    expect(sorted(undefined)).toEqual([]);
  });

  it("allows everything when Medusa's rbac flag is off: it checks nothing then", () => {
    expect(sorted(RBAC_OFF)).toEqual([
      "accept",
      "chargeOrder",
      "export",
      "med",
      "read",
      "readDiscount",
      "recheck",
      "refund",
      "resolve",
      "saveDiscount",
    ]);
  });

  it("allows an action only when every permission its route asks is granted", () => {
    expect(sorted(VIEWER)).toEqual(["read", "readDiscount"]);
    expect(sorted(REFUNDER)).toEqual(["read", "refund"]);
    // The plugin's own operation without reading payments opens nothing: the routes ask both.
    expect(sorted(granted("pix_checkout:refund"))).toEqual([]);
    expect(sorted(granted("payment:read", "promotion:update"))).toEqual(["read"]);
    // "Cobrar por Pix" asks what Medusa's own POST /admin/payment-collections asks.
    expect(sorted(granted("payment:read", "payment_collection:create"))).toEqual([
      "chargeOrder",
      "read",
    ]);
  });

  it("allows nothing on a refusal, a failure or an answer of another shape", () => {
    for (const answer of [
      { rbac: true, status: 401 },
      { rbac: true, status: 403 },
      { rbac: true, status: 404 },
      { rbac: true, status: 500 },
      { rbac: true, status: 0 },
      { rbac: true, status: 200, body: { permissions: "payment:read" } },
      { rbac: true, status: 200, body: null },
    ] as const) {
      expect(sorted(answer), JSON.stringify(answer)).toEqual([]);
    }
  });
});

describe("askPermissions", () => {
  /** A fake admin API: each path's answer, or the status it refuses with; and what was asked. */
  const api = (answers: Record<string, unknown>) => {
    const asked: string[] = [];
    const fetchJson = async (path: string) => {
      asked.push(path);
      const answer = answers[path];
      if (typeof answer === "number") throw Object.assign(new Error("refused"), { status: answer });
      if (answer === undefined) throw Object.assign(new Error("not found"), { status: 404 });
      return answer;
    };
    return { asked, fetchJson };
  };

  it("asks only the feature flags while rbac is off, so a store without RBAC sees no failed request", async () => {
    const medusa = api({
      "/admin/feature-flags": { feature_flags: { rbac: false, caching: true } },
    });
    expect(await askPermissions(medusa.fetchJson)).toEqual({ rbac: false });
    expect(medusa.asked).toEqual(["/admin/feature-flags"]);
  });

  it("asks the user's grants when rbac is on", async () => {
    const medusa = api({
      "/admin/feature-flags": { feature_flags: { rbac: true } },
      "/admin/rbac/me/permissions": { permissions: ["payment:read"] },
    });
    const answer = await askPermissions(medusa.fetchJson);
    expect(answer).toEqual({ rbac: true, status: 200, body: { permissions: ["payment:read"] } });
    expect([...permittedActions(answer)]).toEqual(["read"]);
  });

  it("answers 'nothing allowed' when either request fails", async () => {
    const flagsFail = api({ "/admin/feature-flags": 500 });
    expect(permittedActions(await askPermissions(flagsFail.fetchJson)).size).toBe(0);
    const grantsFail = api({
      "/admin/feature-flags": { feature_flags: { rbac: true } },
      "/admin/rbac/me/permissions": 401,
    });
    expect(await askPermissions(grantsFail.fetchJson)).toEqual({ rbac: true, status: 401 });
    expect(permittedActions(await askPermissions(grantsFail.fetchJson)).size).toBe(0);
  });
});

const money = (parts: Partial<AdminMoney>): AdminMoney => ({
  received: 2500,
  held: 0,
  held_reason: null,
  captured: 0,
  owed: 0,
  owed_reason: null,
  returned: 0,
  contested: 0,
  med: null,
  ...parts,
});

const summary = (parts: Partial<AdminChargeSummary>): AdminChargeSummary => ({
  order: null,
  charge_id: "ch_0001",
  provider_id: "pp_pix_a",
  session_id: "payses_1",
  method: "pix",
  status: "paid",
  amount: 2500,
  currency: "BRL",
  paid_at: "2026-11-25T12:00:00Z",
  captured_at: null,
  received: 2500,
  money: money({}),
  attention: null,
  flagged: false,
  flag: null,
  created_at: "2026-11-25T11:59:00Z",
  ...parts,
});

/** An underpaid charge: money to accept, or to return. */
const HELD = summary({
  received: 1500,
  money: money({ received: 1500, held: 1500, held_reason: "underpaid" }),
  attention: "held",
});
/** A captured charge with an open note: a note to resolve, money to return if the shop did. */
const NOTED = summary({ money: money({ captured: 2500 }), attention: "note", flagged: true });

const ORDER_CHARGE: AdminCharge = {
  charge_id: "ch_0002",
  provider_id: "pp_pix_a",
  method: "pix",
  status: "paid",
  amount: 2500,
  currency: "BRL",
  expires_at: "2026-11-25T13:00:00Z",
  paid_at: "2026-11-25T12:00:00Z",
  attention: null,
  money: money({ captured: 2500 }),
  flagged: false,
  flag: null,
  pix: { copy_paste: "00020126...", payment_link: null },
  boleto: null,
  timeline: [],
};

/**
 * The markup of `element` for a user whose permissions Medusa answered with `answer`
 * (undefined: not answered yet), with `seeded` query data already fetched.
 */
function render(
  element: ReactElement,
  answer: PermissionsAnswer | undefined,
  seeded: [readonly unknown[], unknown][] = [],
): string {
  const client = new QueryClient();
  if (answer) client.setQueryData(PERMISSIONS_KEY, answer);
  for (const [key, data] of seeded) client.setQueryData(key, data);
  // The providers the dashboard wraps every extension in: TanStack Query's client, and the
  // tooltips' (the Pix code's copy button has one).
  return renderToStaticMarkup(
    createElement(QueryClientProvider, { client }, createElement(TooltipProvider, null, element)),
  );
}

const button = (name: string) => `data-pix-checkout="${name}"`;

describe("the admin's views draw only the buttons the user's role may use", () => {
  beforeAll(async () => {
    // What the views read of the browser: the admin's language (pt-BR) and the page's address.
    vi.stubGlobal("document", { cookie: "lng=ptBR" });
    vi.stubGlobal("navigator", { languages: ["pt-BR"], language: "pt-BR" });
    vi.stubGlobal("localStorage", { getItem: () => null });
    await i18next
      .use(initReactI18next)
      .init({ resources: translations, lng: "ptBR", fallbackLng: "en" });
  });
  afterAll(() => {
    vi.unstubAllGlobals();
  });

  it("a role without the refund permission sees no 'Registrar devolução'; one with it does", () => {
    const forViewer = render(createElement(FlagActions, { charge: NOTED }), VIEWER);
    expect(forViewer).not.toContain(button("record-refund"));
    expect(forViewer).not.toContain("Registrar devolução");
    const forRefunder = render(createElement(FlagActions, { charge: NOTED }), REFUNDER);
    expect(forRefunder).toContain(button("record-refund"));
    expect(forRefunder).toContain("Registrar devolução");
    // Refunding is all that role may do here.
    expect(forRefunder).not.toContain(button("resolve-note"));
    const forOthers = render(createElement(FlagActions, { charge: NOTED }), EVERYTHING_BUT_REFUND);
    expect(forOthers).not.toContain(button("record-refund"));
    expect(forOthers).toContain(button("resolve-note"));
  });

  it("'Registrar MED' shows on captured money to a role with the med permission; an open MED shows its two outcomes", () => {
    const MEDDER = granted("payment:read", "pix_checkout:med");
    expect(render(createElement(MedActions, { charge: NOTED }), REFUNDER)).not.toContain(
      button("med-mark"),
    );
    const mark = render(createElement(MedActions, { charge: NOTED }), MEDDER);
    expect(mark).toContain(button("med-mark"));
    expect(mark).toContain("Registrar MED (contestação)");
    expect(render(createElement(MedActions, { charge: HELD }), MEDDER)).not.toContain(
      button("med-mark"),
    );
    const contested = summary({
      money: money({
        captured: 500,
        contested: 2000,
        med: {
          state: "open",
          protocol: "MED-1",
          deadline: "2026-12-01",
          blocked: 2000,
          blocked_owed: 0,
          opened_at: null,
          closed_at: null,
        },
      }),
      attention: "med",
    });
    const open = render(createElement(MedActions, { charge: contested }), MEDDER);
    expect(open).not.toContain(button("med-mark"));
    expect(open).toContain(button("med-returned"));
    expect(open).toContain(button("med-kept"));
    expect(open).toContain("em bloqueio cautelar · protocolo MED-1");
  });

  it("accept and resolve show only to roles that have them, and only where the charge needs them", () => {
    expect(render(createElement(FlagActions, { charge: HELD }), REFUNDER)).not.toContain(
      button("accept-amount"),
    );
    const held = render(createElement(FlagActions, { charge: HELD }), EVERYTHING_BUT_REFUND);
    expect(held).toContain(button("accept-amount"));
    expect(held).not.toContain(button("resolve-note"));
    expect(render(createElement(FlagActions, { charge: NOTED }), VIEWER)).not.toContain(
      button("resolve-note"),
    );
  });

  it("with RBAC off every button shows as before; before Medusa answers, none does", () => {
    const off = render(createElement(FlagActions, { charge: HELD }), RBAC_OFF);
    expect(off).toContain(button("record-refund"));
    expect(off).toContain(button("accept-amount"));
    const waiting = render(createElement(FlagActions, { charge: HELD }), undefined);
    expect(waiting).not.toContain("data-pix-checkout");
  });

  it("the order widget's 'Verificar agora' needs the re-check permission, and the widget itself reading payments", () => {
    const widget = (answer: PermissionsAnswer) =>
      render(createElement(PixCheckoutOrderWidget, { data: { id: "order_1" } as never }), answer, [
        [["pix-checkout", "order", "order_1"], { charges: [ORDER_CHARGE] }],
      ]);
    expect(widget(VIEWER)).toContain('data-pix-checkout="order-widget"');
    expect(widget(VIEWER)).not.toContain(button("recheck"));
    expect(widget(EVERYTHING_BUT_REFUND)).toContain(button("recheck"));
    expect(widget(granted("order:read"))).toBe("");
  });

  it("the export card shows only to a role that may export the books", () => {
    expect(render(createElement(ReconciliationCard, { provider: undefined }), VIEWER)).toBe("");
    const card = render(
      createElement(ReconciliationCard, { provider: undefined }),
      EVERYTHING_BUT_REFUND,
    );
    expect(card).toContain(button("export-ofx"));
    expect(card).toContain("Exportar conciliação (CSV)");
  });

  it("the Pix discount is shown to a role that reads promotions, and saved only by one that may change them", () => {
    const seeded: [readonly unknown[], unknown][] = [
      [
        ["pix-checkout", "pix-discount"],
        {
          pix_discount: {
            enabled: true,
            type: "percentage",
            value: 5,
            promotion_id: "promo_1",
            code: "DESCONTO-PIX",
          },
        },
      ],
    ];
    const readOnly = render(createElement(PixDiscountCard), VIEWER, seeded);
    expect(readOnly).not.toContain(button("save-discount"));
    expect(readOnly).toContain("Sua função pode ver o desconto, mas não alterá-lo");
    expect(render(createElement(PixDiscountCard), EVERYTHING_BUT_REFUND, seeded)).toContain(
      button("save-discount"),
    );
  });
});
