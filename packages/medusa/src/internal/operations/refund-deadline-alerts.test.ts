import { describe, expect, it } from "vitest";
import { refundDeadline } from "../records/refund-deadline";
import { renderAlert } from "./alert-message";
import { refundDeadlineLine } from "./health";
import { chargeDeadlineLines } from "./refund-deadline-alerts";
import type { OwedNearDeadline } from "./refund-deadlines";

// A Pix of R$ 35,00 paid on 8 December 2026 in São Paulo, owed back: its deadline is 8 March 2027.
const PAID_AT = new Date("2026-12-08T15:00:00-03:00");
const on = (day: string) => new Date(`${day}T12:00:00-03:00`);

/** The charge as the card and the job read it on a São Paulo day (null: more than 15 days left). */
function owedOn(day: string, chargeId = "ch_35"): OwedNearDeadline | null {
  const deadline = refundDeadline({ method: "pix", paid_at: PAID_AT, owed_cents: 3_500 }, on(day));
  if (!deadline || deadline.state === "ok") return null;
  return {
    charge_id: chargeId,
    payment_collection_id: "pay_col_1",
    owed_cents: 3_500,
    paid_at: PAID_AT,
    deadline,
  };
}

const orders = new Map([["ch_35", { display_id: 12 }]]);

describe("the devolução clock's alert lines", () => {
  it("crosses two thresholds per charge: warning at 15 days left, broken at 5 and after", () => {
    const stateOn = (day: string) => {
      const owed = owedOn(day);
      return owed ? chargeDeadlineLines([owed], orders)[0]!.state : "none";
    };
    // Each day from 16 days left to past the deadline: the line's state changes exactly twice,
    // so the alerts' table (told once per state, never reminded) sends two e-mails.
    const days = [
      "2027-02-20",
      "2027-02-21",
      "2027-02-25",
      "2027-03-02",
      "2027-03-03",
      "2027-03-08",
      "2027-03-09",
      "2027-04-01",
    ];
    const states = days.map(stateOn);
    expect(states).toEqual([
      "none",
      "warning",
      "warning",
      "warning",
      "broken",
      "broken",
      "broken",
      "broken",
    ]);
    const crossings = states.filter((state, i) => i > 0 && state !== states[i - 1]);
    expect(crossings).toEqual(["warning", "broken"]);
  });

  it("e-mails in pt-BR the amount, the order, the days left and the deadline", () => {
    const [line] = chargeDeadlineLines([owedOn("2027-02-24")!], orders);
    expect(line!.id).toBe("refund_deadline:ch_35");
    const message = renderAlert(
      { line: line!, previousState: null, kind: "changed", since: on("2027-02-24") },
      "pt-BR",
    );
    expect(message.subject).toBe("[Pix Checkout] Atenção: Prazo de devolução do Pix (pedido #12)");
    expect(message.reason).toBe(
      "R$ 35,00 a devolver ao cliente (pedido #12): faltam 12 dia(s) do prazo do Pix (até 08/03/2027).",
    );
    expect(message.todo).toContain("antes do prazo");

    const [critical] = chargeDeadlineLines([owedOn("2027-03-04")!], orders);
    const urgent = renderAlert(
      { line: critical!, previousState: "warning", kind: "changed", since: on("2027-03-04") },
      "pt-BR",
    );
    expect(urgent.subject).toBe(
      "[Pix Checkout] Com problema: Prazo de devolução do Pix (pedido #12)",
    );
    expect(urgent.reason).toContain("faltam 4 dia(s) do prazo do Pix (até 08/03/2027)");
  });

  it("says once past that Pix no longer takes it, and names the charge without an order", () => {
    const [past] = chargeDeadlineLines([owedOn("2027-03-10", "ch_no_order")!], new Map());
    const message = renderAlert(
      { line: past!, previousState: null, kind: "changed", since: on("2027-03-10") },
      "pt-BR",
    );
    expect(message.subject).toContain("(cobrança ch_no_order)");
    expect(message.reason).toBe(
      "R$ 35,00 a devolver ao cliente (cobrança ch_no_order): o prazo do Pix acabou em 08/03/2027.",
    );
    expect(message.todo).toContain("devolva por transferência");
  });
});

describe("the card's devolução line", () => {
  it("is ok with nothing near, warns at 15 days, is broken at 5 and past, naming the nearest", () => {
    expect(refundDeadlineLine([])).toMatchObject({ state: "ok", value: 0, action: null });
    expect(refundDeadlineLine([owedOn("2027-02-24")!])).toMatchObject({
      state: "warning",
      detail: {
        warning: 1,
        reason: "refund_deadline_near",
        nearest: { owed_cents: 3_500, deadline: "2027-03-08", days_left: 12 },
      },
      action: "refund_before_deadline",
    });
    expect(refundDeadlineLine([owedOn("2027-03-03")!])).toMatchObject({
      state: "broken",
      detail: { critical: 1, reason: "refund_deadline_critical" },
    });
    const past = refundDeadlineLine([owedOn("2027-03-09")!]);
    expect(past).toMatchObject({
      state: "broken",
      detail: { past: 1, reason: "refund_deadline_past" },
      action: "refund_by_transfer",
    });
    expect(
      renderAlert(
        { line: past, previousState: null, kind: "changed", since: on("2027-03-09") },
        "pt-BR",
      ).reason,
    ).toBe(
      "O prazo de 90 dias do Pix acabou para 1 devolução(ões): elas não podem mais ser feitas pelo Pix.",
    );
  });
});
