import { describe, expect, it } from "vitest";
import {
  conversion,
  minutesToPay,
  paidWithoutReminder,
  parseReais,
  pluginLanguage,
  reaisText,
  recoveredFigure,
  moneyParts,
  moneyStatus,
} from "./format";

describe("parseReais", () => {
  it.each([
    ["55", 5500],
    ["55,5", 5550],
    ["55,50", 5550],
    ["1.234,56", 123456],
    ["R$ 49,90", 4990],
    ["55.50", 5550],
    ["1.234", 123400],
  ])("reads %s as %i cents", (text, cents) => {
    expect(parseReais(text)).toBe(cents);
  });

  it.each(["", "abc", "0", "55,555", "-5", "5,5,5"])("refuses %j", (text) => {
    expect(parseReais(text)).toBeNull();
  });
});

describe("reaisText", () => {
  it.each([
    [4990, "49,90"],
    [5, "0,05"],
    [123456, "1.234,56"],
    [100000000, "1.000.000,00"],
  ])("writes %i cents as %s, which parseReais reads back", (cents, text) => {
    expect(reaisText(cents)).toBe(text);
    expect(parseReais(reaisText(cents))).toBe(cents);
  });
});

describe("pluginLanguage", () => {
  it("speaks Portuguese to a fresh Brazilian browser, though Medusa's first load stored `en`", () => {
    expect(pluginLanguage("en", null, ["pt-BR", "en"])).toBe("ptBR");
    expect(pluginLanguage("en", null, ["pt"])).toBe("ptBR");
    expect(pluginLanguage(undefined, null, ["pt-BR"])).toBe("ptBR");
  });

  it("keeps English for a merchant who picked it in the profile, whatever the browser", () => {
    expect(pluginLanguage("en", "en", ["pt-BR"])).toBe("en");
  });

  it("follows any other admin language, which only a merchant's pick can set", () => {
    expect(pluginLanguage("ptBR", null, ["en-US"])).toBe("ptBR");
    expect(pluginLanguage("ptBR", "ptBR", ["en-US"])).toBe("ptBR");
    expect(pluginLanguage("es", null, ["pt-BR"])).toBe("es");
  });

  it("does not take an older pick of another language for a pick of English", () => {
    expect(pluginLanguage("en", "ptBR", ["pt-BR"])).toBe("ptBR");
  });

  it("keeps the admin's language for a browser the plugin does not speak", () => {
    expect(pluginLanguage("en", null, ["de-DE"])).toBe("en");
    expect(pluginLanguage("en", null, [])).toBe("en");
  });
});

describe("the overview's figures", () => {
  it("says codes paid of codes shown as a whole percent, and nothing when none was shown", () => {
    expect(conversion(1, 3)).toBe(33);
    expect(conversion(2, 3)).toBe(67);
    // A boleto shown last month and paid today must not make more than 100 %.
    expect(conversion(5, 4)).toBe(100);
    expect(conversion(0, 0)).toBeNull();
  });

  it("rounds the median time to pay to whole minutes, never 0", () => {
    expect(minutesToPay(20)).toBe(1);
    expect(minutesToPay(150)).toBe(3);
    expect(minutesToPay(null)).toBeNull();
  });

  it("says the codes paid without a reminder as the paid ones less the recovered ones", () => {
    expect(paidWithoutReminder(10, 3)).toBe(7);
    // Without reminders in use, every paid code was paid without one.
    expect(paidWithoutReminder(4, 0)).toBe(4);
    expect(paidWithoutReminder(0, 0)).toBe(0);
  });

  it("writes the recovered codes with their money in integer cents, 0 included", () => {
    expect(recoveredFigure(3, 15_000).replace(/\s/g, " ")).toBe("3 · R$ 150,00");
    expect(recoveredFigure(1, 4_990).replace(/\s/g, " ")).toBe("1 · R$ 49,90");
    expect(recoveredFigure(0, 0).replace(/\s/g, " ")).toBe("0 · R$ 0,00");
  });
});

describe("a charge's money, from the ledger", () => {
  const money = (over: Partial<Parameters<typeof moneyParts>[0]>) => ({
    held: 0,
    held_reason: null,
    captured: 0,
    owed: 0,
    returned: 0,
    ...over,
  });

  it("lists each part that holds money, held money by whose decision it waits for", () => {
    expect(moneyParts(money({ captured: 2_000, owed: 500 }))).toEqual([
      { part: "captured", cents: 2_000 },
      { part: "owed", cents: 500 },
    ]);
    expect(moneyParts(money({ held: 9_000, held_reason: "underpaid" }))).toEqual([
      { part: "held", cents: 9_000 },
    ]);
    expect(moneyParts(money({ held: 9_000, held_reason: "awaiting_capture" }))).toEqual([
      { part: "capturing", cents: 9_000 },
    ]);
  });

  it("shows money a MED blocked apart from the order's, and names the charge contested", () => {
    expect(moneyParts(money({ captured: 1_500, contested: 2_000 }))).toEqual([
      { part: "captured", cents: 1_500 },
      { part: "contested", cents: 2_000 },
    ]);
    expect(moneyStatus(money({ captured: 1_500, contested: 2_000 }))).toBe("contested");
    expect(moneyStatus(money({ owed: 100, contested: 2_000 }))).toBe("owed");
  });

  it("names a paid charge by what most needs the merchant, never 'paid' for money owed back", () => {
    expect(moneyStatus(money({ captured: 5_290 }))).toBe("paid");
    expect(moneyStatus(money({ owed: 5_290 }))).toBe("owed");
    expect(moneyStatus(money({ captured: 2_000, owed: 500 }))).toBe("owed");
    expect(moneyStatus(money({ held: 4_500, held_reason: "underpaid" }))).toBe("held");
    expect(moneyStatus(money({ returned: 3_500 }))).toBe("returned");
  });
});
