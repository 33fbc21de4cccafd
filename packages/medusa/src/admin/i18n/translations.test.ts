import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CHARGE_EVENT_KINDS, CHARGE_EVENT_SOURCES } from "../../internal/records/charge-events";
import { DELIVERY_DETAILS } from "../../internal/settlement/delivery-details";
import { REMINDER_STEPS } from "../../internal/records/reminders";
import { REFUND_REASONS } from "../../internal/records/flag-reasons";
import { REMINDER_SKIP_REASONS } from "../../internal/settlement/reminder-verdict";
import { deliveryDetailWords } from "../lib/delivery-detail";
import type { PixT } from "../lib/i18n";
import translations, { PIX_CHECKOUT_NS } from "./index";

type Tree = { [key: string]: string | Tree };

/** Every leaf of a translation tree as `a.b.c` → text. */
function leaves(tree: Tree, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string") out.set(path, value);
    else for (const [k, v] of leaves(value, path)) out.set(k, v);
  }
  return out;
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !name.endsWith(".test.ts") ? [path] : [];
  });
}

const en = leaves(translations.en[PIX_CHECKOUT_NS] as Tree);
const ptBR = leaves(translations.ptBR[PIX_CHECKOUT_NS] as Tree);

describe("admin translations", () => {
  it("has the same keys in English and Brazilian Portuguese, none empty", () => {
    expect([...ptBR.keys()].sort()).toEqual([...en.keys()].sort());
    for (const [key, text] of [...en, ...ptBR]) expect(text.trim(), key).not.toBe("");
  });

  it("really translates: the Portuguese differs from the English where words are involved", () => {
    expect(ptBR.get("attention.title")).toBe("Precisa de atenção");
    const same = [...en].filter(([key, text]) => ptBR.get(key) === text && /[a-z]{4}/.test(text));
    // Brand names and placeholders may stay the same; sentences may not.
    // Brand names, loanwords the Brazilian admin uses as is (webhook, admin, checkout).
    expect(same.map(([key]) => key).sort()).toEqual(
      [
        "title",
        "widget.webhook",
        "source.webhook",
        "source.admin",
        "source.provider",
        "overview.boleto",
        "overview.dayMoney",
        "tab.webhooks",
      ].sort(),
    );
  });

  it("defines every key the admin code asks for", () => {
    const used = new Set<string>();
    for (const file of sources(join(__dirname, ".."))) {
      for (const [, key] of readFileSync(file, "utf8").matchAll(/\bt\(\s*"([\w.]+)"/g)) {
        if (key) used.add(key);
      }
    }
    expect(used.size).toBeGreaterThan(30);
    for (const key of used) expect(en.has(key), key).toBe(true);
  });

  it("names the sidebar entry by a key of the plugin's namespace, as the route config says", () => {
    const page = readFileSync(join(__dirname, "../routes/pix-checkout/page.tsx"), "utf8");
    // Medusa's build reads both from the source, as string literals.
    const label = /label: "([\w.]+)"/.exec(page)?.[1];
    expect(page).toContain(`translationNs: "${PIX_CHECKOUT_NS}"`);
    expect(label && en.get(label)).toBe("Pix Checkout");
    expect(label && ptBR.get(label)).toBe("Pix Checkout");
  });
});

describe("the server's words, in the admin's languages", () => {
  /** `t` over one language's tree, with i18next's {{name}} interpolation. */
  const translator =
    (tree: Map<string, string>): PixT =>
    (key, values) => {
      const text = tree.get(key);
      if (text === undefined) return key;
      return text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values?.[name] ?? ""));
    };

  it("has words for every kind and source a charge's timeline can hold", () => {
    for (const tree of [en, ptBR]) {
      for (const kind of CHARGE_EVENT_KINDS) expect(tree.has(`kind.${kind}`), kind).toBe(true);
      for (const source of CHARGE_EVENT_SOURCES) {
        expect(tree.has(`source.${source}`), source).toBe(true);
      }
    }
  });

  it("names every reason money is owed back, in the list and in the money line", () => {
    for (const tree of [en, ptBR]) {
      for (const reason of REFUND_REASONS) {
        expect(tree.has(`refundReason.${reason}`), reason).toBe(true);
        expect(tree.has(`money.owedWhy.${reason}`), reason).toBe(true);
      }
    }
  });

  it("names every reminder step and every reason one was not sent", () => {
    for (const tree of [en, ptBR]) {
      for (const step of REMINDER_STEPS) expect(tree.has(`reminder.step.${step}`), step).toBe(true);
      for (const reason of REMINDER_SKIP_REASONS)
        expect(tree.has(`reminder.reason.${reason}`), reason).toBe(true);
    }
  });

  it("says every webhook delivery detail the settlement writes in Portuguese", () => {
    const D = DELIVERY_DETAILS;
    // Every entry of the list, walked by key: a sentence added there and not here fails.
    const samples: { [K in keyof typeof D]: string[] } = {
      alreadyCaptured: [D.alreadyCaptured],
      capturingElsewhere: [D.capturingElsewhere],
      unmatched: [D.unmatched],
      stillPending: [D.stillPending],
      paidIgnored: [D.paidIgnored("expired")],
      workerCaptures: [D.workerCaptures],
      capturesAfterAnswer: [D.capturesAfterAnswer],
      captureRetry: [D.captureRetry("connect ECONNREFUSED 127.0.0.1:9000")],
      held: [D.held("underpaid")],
      refundDue: REFUND_REASONS.map((reason) => D.refundDue(reason)),
      verified: [D.verified],
      notConfirmed: [D.notConfirmed("404")],
      notThisCollection: [D.notThisCollection],
      chargeIs: [D.chargeIs("pending")],
      refunded: [D.refunded],
      replacedEnded: [D.replacedEnded],
      collectionPaid: [D.collectionPaid],
      anotherCodeOpen: [D.anotherCodeOpen],
      noOrderWaits: [D.noOrderWaits],
    };
    expect(Object.keys(samples).sort()).toEqual(Object.keys(D).sort());
    const sentences = [...Object.values(samples).flat(), "capture", "keep_order"];
    const t = translator(ptBR);
    const status = (s: string) => t(`status.${s}`);
    for (const sentence of sentences) {
      const words = deliveryDetailWords(sentence, t, status);
      expect(words, sentence).not.toBe(sentence);
      // No key fell through, and no English word of the sentence is left.
      expect(words, sentence).not.toMatch(/deliveryDetail\.|refundReason\.|decision\.|status\./);
      expect(words, sentence).not.toMatch(/\b(charge|paid|captured|refund|held|pending|expired)\b/);
    }
  });
});
