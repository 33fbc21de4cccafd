import { describe, expect, it } from "vitest";
import {
  countDifferences,
  parsePeriod,
  pixDiscountCost,
  reconcileBooks,
  serviceListStart,
  type Books,
  type LedgerBook,
  type MedusaCapture,
  type ServiceCharge,
} from "./books";
import { brl, centsToText } from "@pix-checkout/client/books";

// 2026-11-20 in São Paulo is [03:00Z on the 20th, 03:00Z on the 21st).
const period = parsePeriod("2026-11-20", "2026-11-20", "2026-11-23");
if (!period.ok) throw new Error(period.message);
const at = (time: string) => new Date(`2026-11-20T${time}-03:00`);
const order = (display_id: number, pix_discount_cents = 0) => ({
  id: `order_${display_id}`,
  display_id,
  customer: `Cliente ${display_id}`,
  pix_discount_cents,
});

const charge = (id: string, amount: number, extra: Partial<ServiceCharge> = {}): ServiceCharge => ({
  id,
  status: "paid",
  amount_cents: amount,
  fee_cents: Math.floor((amount * 99 + 5000) / 10000),
  net_cents: null,
  created_at: at("10:00"),
  paid_at: at("10:05"),
  customer: "Ana Souza",
  order: null,
  after_reminder: false,
  ...extra,
});
const capture = (chargeId: string | null, amount: number, time = "10:06"): MedusaCapture => ({
  capture_id: `capt_${chargeId}`,
  payment_id: `pay_${chargeId}`,
  charge_id: chargeId,
  amount_cents: amount,
  captured_at: at(time),
  order: order(7),
});
const books = (parts: Partial<Omit<Books, "period">>): Books => ({
  period,
  medusa: { captures: [] },
  service: { charges: [], withdrawals: [] },
  refunds: [],
  balance: null,
  ...parts,
});

describe("reconciling the three books", () => {
  it("a paid charge captured for its amount is one line with gross, fee, net and no difference", () => {
    const report = reconcileBooks(
      books({
        medusa: { captures: [capture("ch_1", 10_000)] },
        service: { charges: [charge("ch_1", 10_000)], withdrawals: [] },
      }),
    );
    expect(report.differences).toEqual([]);
    expect(report.lines).toMatchObject([
      {
        type: "charge",
        id: "ch_1",
        order: { display_id: 7 },
        customer: "Cliente 7",
        gross_cents: 10_000,
        fee_cents: 99,
        net_cents: 9_901,
        medusa_cents: 10_000,
        difference: null,
        after_reminder: false,
      },
    ]);
    expect(report.totals.charges).toEqual({
      count: 1,
      gross_cents: 10_000,
      fee_cents: 99,
      net_cents: 9_901,
      captured_cents: 10_000,
      owed_cents: 0,
      held_cents: 0,
      pix_discount_cents: 0,
      pix_discount_orders: 0,
    });
  });

  it("finds a charge paid at the service that Medusa never captured", () => {
    const report = reconcileBooks(
      books({ service: { charges: [charge("ch_2", 5_000)], withdrawals: [] } }),
    );
    expect(report.differences).toMatchObject([
      { kind: "paid_not_captured", id: "ch_2", service_cents: 5_000, medusa_cents: null },
    ]);
    expect(report.differences[0]?.message["pt-BR"]).toBe(
      "ch_2: pago no serviço (R$ 50,00), mas o Medusa não registrou a captura.",
    );
    expect(report.lines[0]?.difference).toBe("paid_not_captured");
  });

  it("finds a capture with no paid charge at the service, naming the service's status when it has one", () => {
    const report = reconcileBooks(
      books({
        medusa: { captures: [capture("ch_gone", 4_990), capture("ch_exp", 1_000)] },
        service: { charges: [charge("ch_exp", 1_000, { status: "expired" })], withdrawals: [] },
      }),
    );
    expect(report.differences.map((d) => [d.kind, d.id, d.medusa_cents])).toEqual([
      ["captured_not_paid", "ch_gone", 4_990],
      ["captured_not_paid", "ch_exp", 1_000],
    ]);
    expect(report.differences[1]?.message.en).toBe(
      '#7: captured in Medusa (R$ 10.00), but the payment service says the charge is "expired".',
    );
    expect(report.lines.every((line) => line.gross_cents === null)).toBe(true);
  });

  it("finds amounts that differ, in cents", () => {
    const report = reconcileBooks(
      books({
        medusa: { captures: [capture("ch_3", 9_000)] },
        service: { charges: [charge("ch_3", 8_999)], withdrawals: [] },
      }),
    );
    expect(report.differences).toMatchObject([
      { kind: "amount_mismatch", id: "ch_3", service_cents: 8_999, medusa_cents: 9_000 },
    ]);
    expect(report.differences[0]?.message["pt-BR"]).toBe(
      "#7: o serviço recebeu R$ 89,99 e o Medusa capturou R$ 90,00.",
    );
  });

  describe("with the store's ledger", () => {
    const ledger = (parts: Partial<LedgerBook>): LedgerBook => ({
      received_cents: 0,
      held_cents: 0,
      capturing_cents: 0,
      captured_cents: 0,
      owed_cents: 0,
      returned_cents: 0,
      ever_captured_cents: 0,
      ...parts,
    });

    it("money owed back, returned or held for the merchant is accounted for, not a difference", () => {
      const report = reconcileBooks(
        books({
          medusa: { captures: [capture("ch_over", 5_000), capture("ch_canceled", 3_000)] },
          service: {
            charges: [
              // A code paid twice: all of it owed back, nothing for Medusa to capture.
              charge("ch_twice", 4_000, {
                ledger: ledger({ received_cents: 4_000, owed_cents: 4_000 }),
              }),
              // Overpaid: the code's amount captured, the excess owed back.
              charge("ch_over", 5_500, {
                ledger: ledger({
                  received_cents: 5_500,
                  captured_cents: 5_000,
                  owed_cents: 500,
                  ever_captured_cents: 5_000,
                }),
              }),
              // Captured, then its order canceled: Medusa keeps the capture, the ledger owes it.
              charge("ch_canceled", 3_000, {
                ledger: ledger({
                  received_cents: 3_000,
                  owed_cents: 3_000,
                  ever_captured_cents: 3_000,
                }),
              }),
              // Underpaid, waiting for the merchant; and one returned already.
              charge("ch_short", 1_500, {
                ledger: ledger({ received_cents: 1_500, held_cents: 1_500 }),
              }),
              charge("ch_back", 2_000, {
                ledger: ledger({ received_cents: 2_000, returned_cents: 2_000 }),
              }),
            ],
            withdrawals: [],
          },
        }),
      );
      expect(report.differences).toEqual([]);
      const line = (id: string) => report.lines.find((l) => l.id === id)!;
      expect([line("ch_twice").medusa_cents, line("ch_twice").owed_cents]).toEqual([null, 4_000]);
      expect([line("ch_over").medusa_cents, line("ch_over").owed_cents]).toEqual([5_000, 500]);
      expect(line("ch_short").held_cents).toBe(1_500);
      expect(report.totals.charges).toMatchObject({
        gross_cents: 16_000,
        captured_cents: 8_000,
        owed_cents: 7_500,
        held_cents: 1_500,
      });
    });

    it("money the ledger captured or holds for Medusa's capture must be in Medusa's captures", () => {
      const report = reconcileBooks(
        books({
          medusa: { captures: [capture("ch_short_capture", 4_000)] },
          service: {
            charges: [
              charge("ch_capturing", 5_000, {
                ledger: ledger({
                  received_cents: 5_000,
                  held_cents: 5_000,
                  capturing_cents: 5_000,
                }),
              }),
              charge("ch_short_capture", 5_500, {
                ledger: ledger({
                  received_cents: 5_500,
                  captured_cents: 5_000,
                  owed_cents: 500,
                  ever_captured_cents: 5_000,
                }),
              }),
            ],
            withdrawals: [],
          },
        }),
      );
      expect(report.differences.map((d) => [d.kind, d.id, d.medusa_cents])).toEqual([
        ["paid_not_captured", "ch_capturing", null],
        ["amount_mismatch", "ch_short_capture", 4_000],
      ]);
      expect(report.differences[1]?.message["pt-BR"]).toBe(
        "#7: o serviço recebeu R$ 55,00, mas o Medusa capturou R$ 40,00 e a loja registra R$ 5,00 a devolver, devolvidos ou retidos.",
      );
    });

    it("a refund of money Medusa never captured needs no Medusa refund; one of Medusa's money does", () => {
      const report = reconcileBooks(
        books({
          refunds: [
            {
              charge_id: "ch_twice",
              declared_cents: 4_000,
              medusa_due_cents: 0,
              medusa_cents: 0,
              last_at: at("12:00"),
              order: null,
            },
            {
              charge_id: "ch_canceled",
              declared_cents: 3_000,
              medusa_due_cents: 3_000,
              medusa_cents: 0,
              last_at: at("12:00"),
              order: order(9),
            },
          ],
        }),
      );
      expect(
        report.differences.map((d) => [d.kind, d.id, d.service_cents, d.medusa_cents]),
      ).toEqual([["refund_not_recorded", "ch_canceled", 3_000, 0]]);
      expect(report.totals.refunds).toEqual({ declared_cents: 7_000, medusa_cents: 0 });
    });
  });

  it("finds a refund Medusa records that was never declared returned at the service, and the reverse", () => {
    const report = reconcileBooks(
      books({
        refunds: [
          {
            charge_id: "ch_4",
            declared_cents: 0,
            medusa_due_cents: 0,
            medusa_cents: 2_000,
            last_at: at("12:00"),
            order: order(4),
          },
          {
            charge_id: "ch_5",
            declared_cents: 3_000,
            medusa_due_cents: 3_000,
            medusa_cents: 1_000,
            last_at: at("12:00"),
            order: order(5),
          },
          {
            charge_id: "ch_6",
            declared_cents: 500,
            medusa_due_cents: 500,
            medusa_cents: 500,
            last_at: at("12:00"),
            order: order(6),
          },
        ],
      }),
    );
    expect(report.differences.map((d) => [d.kind, d.id])).toEqual([
      ["refund_not_returned", "ch_4"],
      ["refund_not_recorded", "ch_5"],
    ]);
    expect(report.lines.map((line) => [line.type, line.gross_cents, line.medusa_cents])).toEqual([
      ["refund", 0, -2_000],
      ["refund", -3_000, -1_000],
      ["refund", -500, -500],
    ]);
    expect(report.totals.refunds).toEqual({ declared_cents: 3_500, medusa_cents: 3_500 });
  });

  it("checks the balance against the spec's formula and flags it when it does not add up", () => {
    const balance = {
      available_cents: 7_000,
      pending_cents: 2_000,
      total_earned_cents: 12_000,
      total_withdrawn_cents: 2_500,
      processing_withdrawals_cents: 500,
      read_at: at("18:00"),
    };
    const good = reconcileBooks(books({ balance }));
    expect(good.totals.balance).toMatchObject({ accounted_cents: 12_000, matches: true });
    expect(good.differences).toEqual([]);
    const bad = reconcileBooks(books({ balance: { ...balance, available_cents: 6_999 } }));
    expect(bad.differences).toMatchObject([
      { kind: "balance_mismatch", service_cents: 12_000, medusa_cents: 11_999 },
    ]);
    const unknown = reconcileBooks(books({ balance: { ...balance, total_earned_cents: null } }));
    expect(unknown.totals.balance?.matches).toBeNull();
  });

  it("dates a payment by the service, so one paid just before midnight and captured after belongs to its day only", () => {
    const lateCharge = charge("ch_late", 1_000, { paid_at: at("23:59") });
    const nextMorning = {
      ...capture("ch_late", 1_000),
      captured_at: new Date("2026-11-21T00:01:00-03:00"),
    };
    const today = reconcileBooks(
      books({
        medusa: { captures: [nextMorning] },
        service: { charges: [lateCharge], withdrawals: [] },
      }),
    );
    expect(today.lines).toHaveLength(1);
    expect(today.differences).toEqual([]);
    const next = parsePeriod("2026-11-21", "2026-11-21", "2026-11-23");
    if (!next.ok) throw new Error(next.message);
    const tomorrow = reconcileBooks({
      ...books({
        medusa: { captures: [nextMorning] },
        service: { charges: [lateCharge], withdrawals: [] },
      }),
      period: next,
    });
    expect(tomorrow.lines).toEqual([]);
  });

  it("lists withdrawals as money that left the account, and leaves failed ones out", () => {
    const report = reconcileBooks(
      books({
        service: {
          charges: [],
          withdrawals: [
            { id: "wd_1", status: "completed", amount_cents: 1_500, created_at: at("09:00") },
            { id: "wd_2", status: "failed", amount_cents: 900, created_at: at("09:30") },
          ],
        },
      }),
    );
    expect(report.lines).toMatchObject([{ type: "withdrawal", id: "wd_1", gross_cents: -1_500 }]);
    expect(report.totals.withdrawals).toEqual({ count: 1, amount_cents: 1_500 });
  });

  it("says on each payment whether it followed a reminder, and on no other line", () => {
    const report = reconcileBooks(
      books({
        medusa: {
          captures: [capture("ch_r", 6_000), capture("ch_n", 7_000), capture("ch_x", 900)],
        },
        service: {
          charges: [
            charge("ch_r", 6_000, { after_reminder: true }),
            charge("ch_n", 7_000),
            // Captured with no paid charge at the service: no payment to have followed one.
            charge("ch_x", 900, { status: "expired" }),
          ],
          withdrawals: [
            { id: "wd_r", status: "completed", amount_cents: 100, created_at: at("11:00") },
          ],
        },
        refunds: [
          {
            charge_id: "ch_r",
            declared_cents: 500,
            medusa_due_cents: 500,
            medusa_cents: 500,
            last_at: at("12:00"),
            order: order(7),
          },
        ],
      }),
    );
    expect(report.lines.map((line) => [line.type, line.id, line.after_reminder])).toEqual([
      ["charge", "ch_n", false],
      ["charge", "ch_r", true],
      ["charge", "ch_x", false],
      ["withdrawal", "wd_r", false],
      ["refund", "ch_r", false],
    ]);
  });

  it("counts differences by kind, zeros included", () => {
    const report = reconcileBooks(
      books({ service: { charges: [charge("a", 700), charge("b", 800)], withdrawals: [] } }),
    );
    expect(countDifferences(report.differences)).toEqual({
      paid_not_captured: 2,
      captured_not_paid: 0,
      amount_mismatch: 0,
      refund_not_returned: 0,
      refund_not_recorded: 0,
      balance_mismatch: 0,
    });
  });
});

describe("the Pix discount in the books: each order's once, so the column adds up", () => {
  /** A paid charge of `ord`'s collection for `purpose`, captured in Medusa unless `captured` is false. */
  const paid = (
    id: string,
    cents: number,
    ord: ReturnType<typeof order>,
    purpose: ServiceCharge["purpose"],
    time: string,
    captured = true,
  ) => ({
    charge: charge(id, cents, { order: ord, purpose, paid_at: at(time) }),
    capture: captured ? [{ ...capture(id, cents, time), order: ord }] : [],
  });
  const reconcile = (...parts: ReturnType<typeof paid>[]) =>
    reconcileBooks(
      books({
        medusa: { captures: parts.flatMap((p) => p.capture) },
        service: { charges: parts.map((p) => p.charge), withdrawals: [] },
      }),
    );
  const discountColumn = (report: ReturnType<typeof reconcileBooks>) =>
    report.lines.map((line) => [line.id, line.pix_discount_cents]);

  it("an order paid, then edited and its difference paid: the discount is on the sale's line only", () => {
    // Order #1 of issue 59: R$ 4,00 off a R$ 79,90 sale, then R$ 79,90 more for the edit.
    const edited = order(1, 400);
    const report = reconcile(
      paid("ch_sale", 7_590, edited, "cart", "10:05"),
      paid("ch_edit", 7_990, edited, "order_edit", "11:05"),
    );
    expect(discountColumn(report)).toEqual([
      ["ch_sale", 400],
      ["ch_edit", null],
    ]);
    // The order's own figure stays on both lines: it is what Medusa's order page says.
    expect(report.lines.map((line) => line.order?.pix_discount_cents)).toEqual([400, 400]);
    expect(report.totals.charges).toMatchObject({
      pix_discount_cents: 400,
      pix_discount_orders: 1,
    });
  });

  it("adds each order's discount once over several orders, and counts only orders that had one", () => {
    const report = reconcile(
      paid("ch_a", 7_590, order(1, 400), "cart", "09:00"),
      paid("ch_a2", 3_500, order(1, 400), "exchange", "09:30"),
      paid("ch_b", 12_656, order(2, 666), "cart", "10:00"),
      paid("ch_b2", 1_000, order(2, 666), "claim", "10:30"),
      paid("ch_b3", 500, order(2, 666), "return", "10:45"),
      paid("ch_c", 10_000, order(3, 0), "cart", "11:00"),
      paid("ch_d", 5_000, order(4, 879), "order", "12:00"),
    );
    expect(report.totals.charges.pix_discount_cents).toBe(400 + 666 + 879);
    expect(report.totals.charges.pix_discount_orders).toBe(3);
    const column = report.lines.map((line) => line.pix_discount_cents ?? 0);
    expect(column.reduce((sum, cents) => sum + cents, 0)).toBe(1_945);
    expect(pixDiscountCost(report)).toEqual({
      period: { from: "2026-11-20", to: "2026-11-20" },
      cents: 1_945,
      orders: 3,
    });
  });

  it("a period that holds only an order's difference after the sale counts none of its discount", () => {
    const report = reconcile(paid("ch_edit", 7_990, order(1, 400), "order_edit", "11:05"));
    expect(discountColumn(report)).toEqual([["ch_edit", null]]);
    expect(pixDiscountCost(report)).toMatchObject({ cents: 0, orders: 0 });
  });

  it("a sale paid by two codes (one owed back): the discount is on the one Medusa captured", () => {
    const sold = order(5, 400);
    const report = reconcile(
      paid("ch_old", 7_590, sold, "cart", "10:00", false),
      paid("ch_live", 7_590, sold, "cart", "10:10"),
    );
    expect(discountColumn(report)).toEqual([
      ["ch_old", null],
      ["ch_live", 400],
    ]);
    expect(report.totals.charges.pix_discount_cents).toBe(400);
  });

  it("a charge recorded before the plugin kept what it was for counts as the sale", () => {
    const report = reconcile(paid("ch_old", 7_590, order(6, 400), null, "10:00"));
    expect(discountColumn(report)).toEqual([["ch_old", 400]]);
  });

  it("refunds and withdrawals never carry the discount", () => {
    const sold = order(7, 400);
    const report = reconcileBooks(
      books({
        medusa: { captures: [{ ...capture("ch_1", 7_590), order: sold }] },
        service: {
          charges: [charge("ch_1", 7_590, { order: sold, purpose: "cart" })],
          withdrawals: [
            { id: "wd_1", status: "done", amount_cents: 1_000, created_at: at("15:00") },
          ],
        },
        refunds: [
          {
            charge_id: "ch_1",
            declared_cents: 1_000,
            medusa_due_cents: 1_000,
            medusa_cents: 1_000,
            last_at: at("16:00"),
            order: sold,
          },
        ],
      }),
    );
    expect(report.lines.map((line) => [line.type, line.pix_discount_cents])).toEqual([
      ["charge", 400],
      ["withdrawal", null],
      ["refund", null],
    ]);
  });
});

describe("money as text", () => {
  it("writes integer cents with a thousands dot and a decimal comma, on the digits", () => {
    expect(centsToText(1_234_567)).toBe("12.345,67");
    expect(centsToText(5)).toBe("0,05");
    expect(centsToText(-100_000_000)).toBe("-1.000.000,00");
    expect(centsToText(1_234_567, "en")).toBe("12,345.67");
    expect(brl(-990)).toBe("-R$ 9,90");
  });

  it("refuses anything that is not integer cents", () => {
    expect(() => centsToText(10.5)).toThrow(TypeError);
  });
});

describe("the period asked for", () => {
  it("is São Paulo's calendar days, both included", () => {
    const parsed = parsePeriod("2026-11-01", "2026-11-30", "2026-11-30");
    expect(parsed).toMatchObject({
      ok: true,
      start: new Date("2026-11-01T03:00:00Z"),
      end: new Date("2026-12-01T03:00:00Z"),
    });
  });

  it.each([
    ["2026-11-31", "2026-11-31", "from must be a calendar day"],
    ["01/11/2026", undefined, "from must be a calendar day"],
    ["2026-11-02", "2026-11-01", "must not be after to"],
    ["2026-11-01", "2026-11-24", "is in the future"],
    ["2026-10-01", "2026-11-01", "compare at most 31"],
  ])("refuses from=%s to=%s, saying what to fix", (from, to, message) => {
    const parsed = parsePeriod(from, to, "2026-11-23");
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? "" : parsed.message).toContain(message);
  });
});

describe("how far back the service's list is read", () => {
  // Monday 2026-11-23; Friday the 20th is a national holiday.
  const monday = new Date("2026-11-23T00:00:00-03:00");

  it("reaches a boleto due 60 business days after its creation and confirmed on its grace's last business day", () => {
    // Created Thu 20 Aug, due Tue 17 Nov, its 60th business day (7 September, 12 October and
    // 2 November skipped); grace Wed 18, Thu 19, Mon 23: payable on the period's first day. A
    // day more for the service's clock against ours.
    expect(serviceListStart(monday, { variant: "a", boletoGraceBusinessDays: 3 })).toEqual(
      new Date("2026-08-19T00:00:00-03:00"),
    );
  });

  it("without a grace, reaches boletos due on the period's first day, or on the holiday and weekend before it", () => {
    // A due date on Friday the 20th (a holiday) is payable on Monday the 23rd; Monday is the
    // 60th business day after Tue 25 Aug.
    expect(serviceListStart(monday, { variant: "a", boletoGraceBusinessDays: 0 })).toEqual(
      new Date("2026-08-24T00:00:00-03:00"),
    );
  });

  it("reaches a week and a day back for a registration with Pix only", () => {
    expect(serviceListStart(monday, { variant: "b", boletoGraceBusinessDays: 3 })).toEqual(
      new Date("2026-11-15T00:00:00-03:00"),
    );
  });
});
