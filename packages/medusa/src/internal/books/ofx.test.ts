import { beforeAll, describe, expect, it } from "vitest";
import type { LooselyTypedOFX } from "ofx-js" with { "resolution-mode": "import" };
import { parsePeriod, reconcileBooks, type Books, type ServiceCharge } from "./books";
import { reconciliationCsv } from "./books-csv";
import {
  ofxAmount,
  ofxDate,
  ofxFileName,
  ofxTransactions,
  withoutDocuments,
  reconciliationOfx,
  toWindows1252,
} from "./books-ofx";

// The statement as a finance tool reads it: written, encoded to Windows-1252, decoded the way
// `CHARSET:1252` tells a reader to, and parsed by ofx-js.

const period = parsePeriod("2026-11-20", "2026-11-20", "2026-11-23");
if (!period.ok) throw new Error(period.message);
const at = (time: string) => new Date(`2026-11-20T${time}-03:00`);

const charge = (id: string, amount: number, extra: Partial<ServiceCharge> = {}): ServiceCharge => ({
  id,
  status: "paid",
  amount_cents: amount,
  fee_cents: 99,
  net_cents: null,
  created_at: at("10:00"),
  paid_at: at("10:05"),
  customer: "Ana Souza",
  order: null,
  after_reminder: false,
  ...extra,
});

const books: Books = {
  period,
  medusa: {
    captures: [
      {
        capture_id: "capt_1",
        payment_id: "pay_1",
        charge_id: "ch_1",
        amount_cents: 10_000,
        captured_at: at("10:06"),
        order: {
          id: "order_12",
          display_id: 12,
          customer: "João Conceição",
          pix_discount_cents: 526,
        },
      },
      // Captured in Medusa with no paid charge at the service: nothing moved in the account.
      {
        capture_id: "capt_9",
        payment_id: "pay_9",
        charge_id: "ch_9",
        amount_cents: 4_000,
        captured_at: at("11:00"),
        order: { id: "order_13", display_id: 13, customer: "Bia", pix_discount_cents: 0 },
      },
    ],
  },
  service: {
    charges: [
      charge("ch_1", 10_000),
      charge("ch_2", 8_500, {
        paid_at: at("23:59"),
        customer: "Beto <Lima> & filho 123.456.789-09",
        after_reminder: true,
      }),
    ],
    withdrawals: [{ id: "wd_1", status: "done", amount_cents: 5_000, created_at: at("15:00") }],
  },
  refunds: [
    {
      charge_id: "ch_1",
      declared_cents: 1_500,
      medusa_due_cents: 1_500,
      medusa_cents: 1_500,
      last_at: at("16:00"),
      order: {
        id: "order_12",
        display_id: 12,
        customer: "João Conceição",
        pix_discount_cents: 526,
      },
      declared_in_period: [
        {
          id: "pxev_a",
          amount_cents: 1_000,
          declared_at: at("14:00"),
          note: "Pix devolvido pelo painel, CPF 123.456.789-09",
        },
        { id: "pxev_b", amount_cents: 500, declared_at: at("16:00") },
      ],
    },
  ],
  balance: {
    available_cents: 3_000,
    pending_cents: 9_803,
    total_earned_cents: 17_803,
    total_withdrawn_cents: 5_000,
    processing_withdrawals_cents: 0,
    read_at: new Date("2026-11-21T09:30:00-03:00"),
  },
};
const report = reconcileBooks(books);
const written = reconciliationOfx(
  report,
  { provider: "a" },
  { start: period.start, end: period.end, now: new Date("2026-11-21T09:30:05-03:00") },
);
const bytes = toWindows1252(written);
const decoded = new TextDecoder("windows-1252").decode(bytes);
let parsed: LooselyTypedOFX;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the parser's loose tree
let statement: Record<string, any>;
let transactions: Record<string, string>[];
beforeAll(async () => {
  // ofx-js is an ES module; this package's tests are CommonJS.
  const { parseSync } = await import("ofx-js");
  parsed = parseSync(decoded);
  statement = parsed.OFX.BANKMSGSRSV1.STMTTRNRS.STMTRS;
  transactions = [statement.BANKTRANLIST.STMTTRN].flat();
});
/** An OFX amount back to cents, on the digits. */
const cents = (amount: string) => {
  const [whole, part = ""] = amount.replace("-", "").split(".");
  return (amount.startsWith("-") ? -1 : 1) * (Number(whole) * 100 + Number(part.padEnd(2, "0")));
};

describe("the reconciliation as OFX", () => {
  it("is OFX 1.02 SGML in Windows-1252, BRL, in Portuguese", () => {
    expect(parsed.header).toMatchObject({
      OFXHEADER: "100",
      DATA: "OFXSGML",
      VERSION: "102",
      ENCODING: "USASCII",
      CHARSET: "1252",
    });
    expect(statement.CURDEF).toBe("BRL");
    expect(parsed.OFX.SIGNONMSGSRSV1.SONRS.LANGUAGE).toBe("POR");
    expect(statement.BANKACCTFROM).toEqual({
      BANKID: "0000",
      ACCTID: "pix-checkout-a",
      ACCTTYPE: "CHECKING",
    });
    // "ç" and "ã" are one byte each, as Windows-1252 writes them; no UTF-8 sequence.
    expect(bytes.includes(Buffer.from("Cobran\xe7a", "latin1"))).toBe(true);
    expect(bytes.includes(Buffer.from("Cobrança", "utf8"))).toBe(false);
    expect(written).toContain("\r\n");
  });

  it("has one credit per charge received, its fee apart, refunds and withdrawals as debits", () => {
    expect(transactions.map((t) => [t.TRNTYPE, t.FITID, t.TRNAMT])).toEqual([
      ["CREDIT", "ch_1", "100.00"],
      ["FEE", "ch_1-fee", "-0.99"],
      ["DEBIT", "ch_1-refund-pxev_a", "-10.00"],
      ["DEBIT", "wd_1", "-50.00"],
      ["DEBIT", "ch_1-refund-pxev_b", "-5.00"],
      ["CREDIT", "ch_2", "85.00"],
      ["FEE", "ch_2-fee", "-0.99"],
    ]);
  });

  it("adds up to the report's totals, and closes with the service's balance", () => {
    const sum = transactions.reduce((total, t) => total + cents(t.TRNAMT as string), 0);
    const { charges, withdrawals } = report.totals;
    const declared = report.lines
      .flatMap((line) => line.declarations ?? [])
      .reduce((total, d) => total + d.amount_cents, 0);
    expect(sum).toBe(charges.gross_cents - charges.fee_cents - declared - withdrawals.amount_cents);
    expect(sum).toBe(18_500 - 198 - 1_500 - 5_000);
    expect(cents(statement.LEDGERBAL.BALAMT)).toBe(3_000 + 9_803);
    expect(cents(statement.AVAILBAL.BALAMT)).toBe(3_000);
    expect(statement.LEDGERBAL.DTASOF).toBe("20261121093000[-3:BRT]");
  });

  it("dates in São Paulo time with its offset, and spans the period's São Paulo days", () => {
    expect(transactions.find((t) => t.FITID === "ch_2")?.DTPOSTED).toBe("20261120235900[-3:BRT]");
    expect(statement.BANKTRANLIST.DTSTART).toBe("20261120000000[-3:BRT]");
    expect(statement.BANKTRANLIST.DTEND).toBe("20261120235959[-3:BRT]");
    // A summer day before 2019, when São Paulo was two hours behind.
    expect(ofxDate(new Date("2018-01-15T12:00:00Z"))).toBe("20180115100000[-2:BRST]");
  });

  it("names an order's Pix discount once: on its sale's charge and fee, not on its edit's difference", () => {
    const sold = { id: "order_12", display_id: 12, customer: "Ana", pix_discount_cents: 400 };
    const edited = reconcileBooks({
      ...books,
      medusa: { captures: [] },
      service: {
        charges: [
          charge("ch_sale", 7_590, { order: sold, purpose: "cart" }),
          charge("ch_edit", 7_990, { order: sold, purpose: "order_edit", paid_at: at("11:00") }),
        ],
        withdrawals: [],
      },
      refunds: [],
    });
    const memos = Object.fromEntries(
      ofxTransactions(edited).map((transaction) => [transaction.fitid, transaction.memo]),
    );
    expect(memos).toEqual({
      ch_sale: "Pedido #12 - Ana - cobrança ch_sale - desconto no Pix 4,00",
      "ch_sale-fee": "Pedido #12 - Ana - cobrança ch_sale - desconto no Pix 4,00",
      ch_edit: "Pedido #12 - Ana - cobrança ch_edit - diferença da edição",
      "ch_edit-fee": "Pedido #12 - Ana - cobrança ch_edit - diferença da edição",
    });
  });

  it("names the buyer's CPF or CNPJ on the order masked, never whole: the CSV keeps it whole for the nota fiscal", () => {
    const order = (display_id: number, buyer_document: string) => ({
      id: `order_${display_id}`,
      display_id,
      customer: "Ana",
      buyer_document,
      pix_discount_cents: 0,
    });
    const nf = reconcileBooks({
      ...books,
      medusa: { captures: [] },
      service: {
        charges: [
          charge("ch_cpf", 5_000, { order: order(20, "52998224725"), purpose: "cart" }),
          charge("ch_cnpj", 7_000, { order: order(21, "12ABC34501DE35"), purpose: "cart" }),
        ],
        withdrawals: [],
      },
      refunds: [],
    });
    const memo = (id: string) => ofxTransactions(nf).find((t) => t.fitid === id)?.memo;
    // The mask of the session's public data (`*********25`), with the document's kind.
    expect(memo("ch_cpf")).toBe("Pedido #20 - Ana - CPF *********25 - cobrança ch_cpf");
    expect(memo("ch_cnpj")).toBe("Pedido #21 - Ana - CNPJ ************35 - cobrança ch_cnpj");
    const file = reconciliationOfx(nf, { provider: "a" }, { start: period.start, end: period.end });
    for (const whole of ["52998224725", "529.982.247-25", "12ABC34501DE35", "12.ABC.345/01DE-35"]) {
      expect(file).not.toContain(whole);
    }
    // What the nota fiscal needs is in the CSV, whole.
    const csv = reconciliationCsv(nf);
    expect(csv).toContain("CPF 529.982.247-25");
    expect(csv).toContain("CNPJ 12.ABC.345/01DE-35");
  });

  it("names the order, customer and Pix discount in the memo, never a CPF or CNPJ, with markup escaped", () => {
    const memo = (id: string) => transactions.find((t) => t.FITID === id)?.MEMO;
    expect(memo("ch_1")).toBe("Pedido #12 - João Conceição - cobrança ch_1 - desconto no Pix 5,26");
    // A refund of the same order is not a payment: its memo has no discount.
    expect(transactions.filter((t) => t.MEMO?.includes("desconto")).map((t) => t.FITID)).toEqual([
      "ch_1",
      "ch_1-fee",
    ]);
    expect(transactions.find((t) => t.FITID === "ch_1")?.NAME).toBe("Cobrança #12");
    expect(memo("ch_2")).toBe("Beto <Lima> & filho *** - cobrança ch_2 - após lembrete");
    expect(written).toContain("Beto &lt;Lima&gt; &amp; filho ***");
    expect(written).not.toMatch(/123\.456\.789/);
    expect(withoutDocuments("empresa 12.345.678/0001-95 e 12345678909")).toBe("empresa *** e ***");
  });

  it("says in a refund's memo how the merchant returned it, each declaration its own note", () => {
    const memo = (id: string) => transactions.find((t) => t.FITID === id)?.MEMO;
    expect(memo("ch_1-refund-pxev_a")).toBe(
      "Pedido #12 - João Conceição - cobrança ch_1 - Pix devolvido pelo painel, CPF ***",
    );
    expect(memo("ch_1-refund-pxev_b")).toBe("Pedido #12 - João Conceição - cobrança ch_1");
  });

  it("says in the memo only that a payment followed a reminder: its FITID and amount stay the charge's", () => {
    const ofCharge = transactions.filter((t) => t.FITID?.startsWith("ch_2"));
    expect(ofCharge.map((t) => [t.TRNTYPE, t.FITID, t.TRNAMT, t.MEMO])).toEqual([
      ["CREDIT", "ch_2", "85.00", "Beto <Lima> & filho *** - cobrança ch_2 - após lembrete"],
      ["FEE", "ch_2-fee", "-0.99", "Beto <Lima> & filho *** - cobrança ch_2 - após lembrete"],
    ]);
    // Not on a charge paid without one, nor on its refund.
    expect(transactions.filter((t) => t.MEMO?.includes("lembrete")).length).toBe(2);
  });

  it("keeps every FITID when the same period is exported again, or exported with a longer one", () => {
    const again = reconciliationOfx(
      report,
      { provider: "a" },
      { start: period.start, end: period.end, now: new Date() },
    );
    const ids = (text: string) => [...text.matchAll(/<FITID>([^\r\n]+)/g)].map((m) => m[1]);
    expect(ids(again)).toEqual(ids(written));
    expect(new Set(ids(written)).size).toBe(ids(written).length);
  });

  it("leaves out a capture with no money at the service", () => {
    expect(transactions.some((t) => t.FITID === "ch_9")).toBe(false);
  });

  it("writes amounts on the digits, and names the file by registration and period", () => {
    expect([ofxAmount(5), ofxAmount(-123_456), ofxAmount(0)]).toEqual(["0.05", "-1234.56", "0.00"]);
    expect(() => ofxAmount(1.5)).toThrow(TypeError);
    expect(ofxFileName("a", "2026-11-01", "2026-11-30")).toBe(
      "conciliacao-pix-a-2026-11-01_2026-11-30.ofx",
    );
  });

  it("writes English names and memos for lang=en", () => {
    const english = reconciliationOfx(
      report,
      { provider: "a" },
      { language: "en", start: period.start, end: period.end },
    );
    expect(english).toContain("<NAME>Charge #12");
    expect(english).toContain(
      "<MEMO>Order #12 - João Conceição - charge ch_1 - Pix discount 5.26\r\n",
    );
    expect(english).toContain("charge ch_2 - after a reminder\r\n");
    expect(english).toContain("<LANGUAGE>ENG");
  });

  it("says in the memo what a difference paid after the sale was for, and nothing for a cart's", () => {
    const edited = reconcileBooks({
      ...books,
      service: {
        ...books.service,
        charges: books.service.charges.map((c) =>
          c.id === "ch_2"
            ? { ...c, purpose: "exchange" as const }
            : { ...c, purpose: "cart" as const },
        ),
      },
    });
    const text = reconciliationOfx(
      edited,
      { provider: "a" },
      { start: period.start, end: period.end, now: new Date("2026-11-21T09:30:05-03:00") },
    );
    expect(text).toContain(
      "<MEMO>Beto &lt;Lima&gt; &amp; filho *** - cobrança ch_2 - após lembrete - diferença da troca",
    );
    expect(text).not.toMatch(/cobrança ch_1[^\n]*diferença/);
  });

  it("says in a payment's memo by when a Pix owed back must be returned, and nothing for a boleto's", () => {
    const owed = (deadline: string | null) => ({
      received_cents: 7_590,
      held_cents: 0,
      capturing_cents: 0,
      captured_cents: 0,
      owed_cents: 7_590,
      returned_cents: 0,
      ever_captured_cents: 0,
      refund_deadline: deadline,
    });
    const report = reconcileBooks({
      ...books,
      medusa: { captures: [] },
      service: {
        charges: [
          charge("ch_pix", 7_590, { ledger: owed("2027-02-18") }),
          charge("ch_boleto", 7_590, { ledger: owed(null) }),
        ],
        withdrawals: [],
      },
      refunds: [],
    });
    const memos = Object.fromEntries(
      ofxTransactions(report).map((transaction) => [transaction.fitid, transaction.memo]),
    );
    expect(memos.ch_pix).toBe("Ana Souza - cobrança ch_pix - devolver até 18/02/2027");
    expect(memos["ch_pix-fee"]).toBe(memos.ch_pix);
    expect(memos.ch_boleto).toBe("Ana Souza - cobrança ch_boleto");
    expect(ofxTransactions(report, "en").find((t) => t.fitid === "ch_pix")?.memo).toBe(
      "Ana Souza - charge ch_pix - refund by 18/02/2027",
    );
  });

  it("encodes a letter Windows-1252 lacks without breaking the file", () => {
    expect([...toWindows1252("ŉ€ Łódź 日")]).toEqual([...Buffer.from("?\x80 ?\xf3dz ?", "latin1")]);
  });
});
