import { expect } from "@esm-bundle/chai";
import { resolveLang } from "../localize/index.js";
import { formatDay } from "./boleto-view.js";
import { formatMoney, formatRemaining } from "./format.js";

const nbsp = (s: string) => s.replace(/\u00a0/g, " ");

describe("formatMoney", () => {
  it("formats integer cents as reais in Brazilian style", () => {
    expect(nbsp(formatMoney(123456789, "BRL", "pt-BR"))).to.equal("R$ 1.234.567,89");
  });

  it("keeps single-digit cents exact", () => {
    expect(nbsp(formatMoney(5, "BRL", "pt-BR"))).to.equal("R$ 0,05");
  });

  it("keeps amounts beyond float precision exact", () => {
    expect(nbsp(formatMoney(900719925474099, "BRL", "pt-BR"))).to.equal("R$ 9.007.199.254.740,99");
  });

  it("formats in the shopper's language", () => {
    expect(formatMoney(12345, "BRL", "en")).to.equal("R$123.45");
  });
});

describe("formatRemaining", () => {
  it("shows minutes and seconds under an hour", () => {
    expect(formatRemaining(61_000)).to.equal("1:01");
  });

  it("shows hours past an hour", () => {
    expect(formatRemaining(3_601_000)).to.equal("1:00:01");
  });

  it("rounds a part of a second up, so it never shows 0:00 while time is left", () => {
    expect(formatRemaining(1)).to.equal("0:01");
  });

  it("shows 0:00 at and past the end", () => {
    expect(formatRemaining(-5000)).to.equal("0:00");
  });
});

describe("formatDay", () => {
  it("shows a due date as the calendar day it names on a device in UTC−3", () => {
    expect(new Date("2030-01-01T00:00:00Z").getDate()).to.equal(31); // the test browser is in São Paulo
    expect(formatDay("2030-01-01", "pt-BR")).to.equal("1 de janeiro de 2030");
  });
});

describe("resolveLang", () => {
  for (const [tag, lang] of [
    ["en-US", "en"],
    ["EN", "en"],
    ["es-419", "es"],
    ["pt-PT", "pt-BR"],
    ["fr", "pt-BR"],
    ["", "pt-BR"],
    [null, "pt-BR"],
  ] as const) {
    it(`maps ${tag} to ${lang}`, () => {
      expect(resolveLang(tag)).to.equal(lang);
    });
  }
});
