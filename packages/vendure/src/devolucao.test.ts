import { describe, expect, it } from "vitest";
import { devolucaoOf, devolucaoWords } from "./devolucao";

// Paid on 2026-11-30 at 22:30 in São Paulo (01:30 UTC the next day): the clock counts from
// São Paulo's day, so the last day is 2027-02-28.
const paidAt = "2026-12-01T01:30:00.000Z";

describe("the devolução clock of money owed back", () => {
  it("gives a Pix 90 days from its São Paulo payment day, and says until when", () => {
    const clock = devolucaoOf("pix", 4_990, paidAt, new Date("2026-12-01T12:00:00.000Z"));
    expect(clock).toEqual({ deadline: "2027-02-28", daysLeft: 89, state: "ok" });
    expect(devolucaoWords(clock)).toBe(
      " Pelo Pix, até 28/02/2027 (prazo de 90 dias do pagamento).",
    );
  });

  it("warns at 15 days, is critical at 5 and on the day, and past it says to return it by a transfer", () => {
    const at = (iso: string) => devolucaoOf("pix", 4_990, paidAt, new Date(iso));
    expect(at("2027-02-13T15:00:00.000Z")?.state).toBe("warning");
    expect(at("2027-02-28T15:00:00.000Z")).toMatchObject({ daysLeft: 0, state: "critical" });
    const past = at("2027-03-01T15:00:00.000Z");
    expect(past).toMatchObject({ daysLeft: -1, state: "past" });
    expect(devolucaoWords(past)).toBe(
      " O prazo de 90 dias do Pix acabou em 28/02/2027: devolva por transferência à conta do pagador.",
    );
  });

  it("has no clock for a boleto, for nothing owed, or without a payment time", () => {
    const now = new Date("2026-12-01T12:00:00.000Z");
    expect(devolucaoOf("boleto", 4_990, paidAt, now)).toBeNull();
    expect(devolucaoOf("pix", 0, paidAt, now)).toBeNull();
    expect(devolucaoOf("pix", 4_990, null, now)).toBeNull();
    expect(devolucaoWords(null)).toBe("");
  });
});
