import { DEFAULT_BANK_CALENDAR, bankCalendar } from "@pix-checkout/client/bank-days";
import { DEFAULT_REMINDER_CADENCE } from "@pix-checkout/client/reminders";
import { describe, expect, it } from "vitest";
import {
  decideReminders,
  reminderDecision,
  reminderWords,
  type ReminderFacts,
} from "./reminder-decision";

const sp = (wall: string) => new Date(`${wall}-03:00`);

// A Pix made at 14:00 that expires at 14:30: "expiring" at 14:20, "expired" at 14:35.
const pix = (over: Partial<ReminderFacts> = {}): ReminderFacts => ({
  now: sp("2026-11-24T14:21:00"),
  charge: {
    method: "pix",
    createdAt: sp("2026-11-24T14:00:00"),
    expiresAt: sp("2026-11-24T14:30:00"),
    dueDay: null,
    graceEndsAt: null,
  },
  handled: new Set(),
  code: "waiting",
  replaced: false,
  order: "arranging",
  hasEmail: true,
  options: DEFAULT_REMINDER_CADENCE,
  calendar: DEFAULT_BANK_CALENDAR,
  ...over,
});

// A boleto due Monday 2026-11-30, made on Wednesday: "due tomorrow" Friday the 27th at 9:00.
const boleto = (over: Partial<ReminderFacts> = {}): ReminderFacts => ({
  ...pix(),
  now: sp("2026-11-27T09:02:00"),
  charge: {
    method: "boleto",
    createdAt: sp("2026-11-25T16:00:00"),
    expiresAt: sp("2026-11-30T23:59:59"),
    dueDay: null,
    graceEndsAt: null,
  },
  order: "waiting",
  ...over,
});

describe("reminderDecision: whether a code's next step goes now", () => {
  it("sends the step that is due to an order with an e-mail", () => {
    expect(reminderDecision(pix())).toEqual({ kind: "send", step: "pix_expiring" });
    expect(reminderDecision(boleto())).toEqual({ kind: "send", step: "boleto_due_tomorrow" });
  });

  it("counts a boleto's steps on the store's calendar: its own holiday the Friday, 'due tomorrow' goes on Thursday", () => {
    const thursday = sp("2026-11-26T09:02:00");
    expect(reminderDecision(boleto({ now: thursday }))).toEqual({ kind: "none" });
    const closedFriday = bankCalendar({ extraHolidays: ["2026-11-27"] });
    expect(reminderDecision(boleto({ now: thursday, calendar: closedFriday }))).toEqual({
      kind: "send",
      step: "boleto_due_tomorrow",
    });
  });

  it("says nothing before the step's moment", () => {
    expect(reminderDecision(pix({ now: sp("2026-11-24T14:19:59") }))).toEqual({ kind: "none" });
    expect(reminderDecision(boleto({ now: sp("2026-11-27T08:59:00") }))).toEqual({
      kind: "none",
    });
  });

  it("sends a step at its very moment", () => {
    expect(reminderDecision(pix({ now: sp("2026-11-24T14:20:00") }))).toEqual({
      kind: "send",
      step: "pix_expiring",
    });
  });

  it("drops 'expiring' from the last minute before the code expires: too late to be of use", () => {
    expect(reminderDecision(pix({ now: sp("2026-11-24T14:28:59") }))).toEqual({
      kind: "send",
      step: "pix_expiring",
    });
    expect(reminderDecision(pix({ now: sp("2026-11-24T14:29:00") }))).toEqual({
      kind: "skip",
      step: "pix_expiring",
      reason: "too_late",
    });
  });

  it("drops a step whose quiet hours end just when it stops being of use", () => {
    // A code made at 14:31 that expires at 15:01: "expiring" at 14:51, of use until 15:00,
    // and quiet from 14:00 until 15:00.
    const atLunch = pix({
      now: sp("2026-11-24T14:52:00"),
      charge: {
        ...pix().charge,
        createdAt: sp("2026-11-24T14:31:00"),
        expiresAt: sp("2026-11-24T15:01:00"),
      },
      options: { ...DEFAULT_REMINDER_CADENCE, quietFrom: 14, quietUntil: 15 },
    });
    expect(reminderDecision(atLunch)).toEqual({
      kind: "skip",
      step: "pix_expiring",
      reason: "too_late",
    });
    // Expiring a minute later, it is still of use when the quiet hours end.
    const later = {
      ...atLunch,
      charge: { ...atLunch.charge, expiresAt: sp("2026-11-24T15:02:00") },
    };
    expect(reminderDecision({ ...later, now: sp("2026-11-24T14:53:00") })).toEqual({
      kind: "defer",
      step: "pix_expiring",
      until: sp("2026-11-24T15:00:00"),
    });
  });

  it("defers a step due in quiet hours to their end, and drops it when that is too late", () => {
    // A 30-minute code made at 21:00: "expiring" at 21:20, quiet until 8:00, dead by then.
    const night = pix({
      now: sp("2026-11-24T21:21:00"),
      charge: {
        ...pix().charge,
        createdAt: sp("2026-11-24T21:00:00"),
        expiresAt: sp("2026-11-24T21:30:00"),
      },
    });
    expect(reminderDecision(night)).toEqual({
      kind: "skip",
      step: "pix_expiring",
      reason: "too_late",
    });
    // Quiet until 14:00 at lunch: the boleto's step waits for it (it is valid until midnight).
    const lunch = boleto({
      options: { ...DEFAULT_REMINDER_CADENCE, quietFrom: 9, quietUntil: 14 },
    });
    expect(reminderDecision(lunch)).toEqual({
      kind: "defer",
      step: "boleto_due_tomorrow",
      until: sp("2026-11-27T14:00:00"),
    });
  });

  it("goes past a step already handled, once each", () => {
    expect(reminderDecision(pix({ handled: new Set(["pix_expiring"]) }))).toEqual({
      kind: "none",
    });
    const later = pix({
      now: sp("2026-11-24T14:36:00"),
      code: "expired",
      handled: new Set(["pix_expiring"]),
    });
    expect(reminderDecision(later)).toEqual({ kind: "send", step: "pix_expired" });
    expect(
      reminderDecision({ ...later, handled: new Set(["pix_expiring", "pix_expired"]) }),
    ).toEqual({ kind: "none" });
  });

  it("skips a paid code or order first, whatever else holds", () => {
    expect(reminderDecision(pix({ code: "paid" }))).toMatchObject({ kind: "skip", reason: "paid" });
    expect(
      reminderDecision(
        boleto({ order: "paid", replaced: true, hasEmail: false, now: sp("2026-11-27T22:00:00") }),
      ),
    ).toEqual({ kind: "skip", step: "boleto_due_tomorrow", reason: "paid" });
  });

  it("skips a replaced code, and an expired one whose order took a newer code", () => {
    expect(reminderDecision(pix({ replaced: true }))).toMatchObject({ reason: "replaced" });
    const expired = pix({
      now: sp("2026-11-24T14:36:00"),
      code: "expired",
      handled: new Set(["pix_expiring"]),
      replaced: true,
    });
    expect(reminderDecision(expired)).toEqual({
      kind: "skip",
      step: "pix_expired",
      reason: "replaced",
    });
  });

  it("skips a cancelled order, a code gone, and an order without e-mail", () => {
    expect(reminderDecision(boleto({ order: "canceled" }))).toMatchObject({
      reason: "order_canceled",
    });
    expect(reminderDecision(pix({ code: "gone" }))).toMatchObject({ reason: "code_gone" });
    expect(reminderDecision(pix({ hasEmail: false }))).toMatchObject({ reason: "no_mailbox" });
  });

  it("skips 'expired' for a code gone otherwise: declined or cancelled, it takes no new code from this one", () => {
    expect(
      reminderDecision(
        pix({ now: sp("2026-11-24T14:36:00"), code: "gone", handled: new Set(["pix_expiring"]) }),
      ),
    ).toEqual({ kind: "skip", step: "pix_expired", reason: "code_gone" });
  });

  it("waits on what is not settled: an expiry not confirmed yet, an order back at the cart", () => {
    const notConfirmed = pix({
      now: sp("2026-11-24T14:36:00"),
      handled: new Set(["pix_expiring"]),
    });
    expect(reminderDecision(notConfirmed)).toEqual({ kind: "none" });
    expect(reminderDecision({ ...notConfirmed, code: "expired", order: "moved" })).toEqual({
      kind: "none",
    });
    expect(reminderDecision(pix({ order: "moved" }))).toEqual({ kind: "none" });
  });

  it("decides a skipped step's next one in the same pass", () => {
    // The task was down through the code's last minutes: "expiring" too late, then "expired".
    const late = pix({ now: sp("2026-11-24T14:40:00"), code: "expired" });
    expect(decideReminders(late)).toEqual({
      skipped: [{ step: "pix_expiring", reason: "code_gone" }],
      then: { kind: "send", step: "pix_expired" },
    });
    // A paid code: every due step skipped as paid, nothing sent.
    expect(decideReminders(pix({ now: sp("2026-11-24T14:40:00"), code: "paid" }))).toEqual({
      skipped: [
        { step: "pix_expiring", reason: "paid" },
        { step: "pix_expired", reason: "paid" },
      ],
      then: { kind: "none" },
    });
  });
});

describe("reminderWords: what the e-mail says, in Portuguese", () => {
  const facts = {
    orderCode: "ABC123",
    amountCents: 11480,
    expiresAt: "2026-11-24T17:30:00.000Z",
    dueDay: null,
    now: sp("2026-11-24T14:20:00"),
  };

  it("gives a Pix's amount and the time it expires in São Paulo", () => {
    expect(reminderWords("pix_expiring", facts)).toEqual({
      subject: "Seu Pix de R$ 114,80 vence às 14:30",
      body: "O código Pix do pedido ABC123 vale até as 14:30: pague antes que ele expire.",
    });
    expect(reminderWords("pix_expired", facts)).toEqual({
      subject: "Seu código Pix expirou: gere um novo",
      body: "O código Pix de R$ 114,80 do pedido ABC123 expirou sem pagamento. Volte ao pedido para gerar um novo código.",
    });
  });

  it("says a boleto's due day in words: 'amanhã' only when it is São Paulo's tomorrow", () => {
    const boletoFacts = { ...facts, expiresAt: null, dueDay: "2026-11-30" };
    expect(
      reminderWords("boleto_due_tomorrow", { ...boletoFacts, now: sp("2026-11-27T09:00:00") }),
    ).toEqual({
      subject: "Seu boleto de R$ 114,80 vence na segunda-feira",
      body: "O boleto do pedido ABC123 vence na segunda-feira, 30/11: pague pelo app do seu banco com a linha digitável.",
    });
    expect(
      reminderWords("boleto_due_tomorrow", {
        ...boletoFacts,
        dueDay: "2026-12-01",
        now: sp("2026-11-30T09:00:00"),
      }).subject,
    ).toBe("Seu boleto de R$ 114,80 vence amanhã");
    expect(
      reminderWords("boleto_due_today", { ...boletoFacts, now: sp("2026-11-30T09:00:00") }),
    ).toEqual({
      subject: "Seu boleto de R$ 114,80 vence hoje",
      body: "O boleto do pedido ABC123 vence hoje, segunda-feira, 30/11: pague pelo app do seu banco com a linha digitável.",
    });
  });

  it("says 'soon' when it does not know the time or the day", () => {
    expect(reminderWords("pix_expiring", { ...facts, expiresAt: null })).toEqual({
      subject: "Seu Pix de R$ 114,80 vence em breve",
      body: "O código Pix do pedido ABC123 vale até daqui a pouco: pague antes que ele expire.",
    });
    expect(reminderWords("boleto_due_today", { ...facts, expiresAt: null, dueDay: null })).toEqual({
      subject: "Seu boleto de R$ 114,80 vence em breve",
      body: "O boleto do pedido ABC123 vence em breve: pague pelo app do seu banco com a linha digitável.",
    });
  });

  it("tells of a boleto that fell due unpaid that a new order is the way to buy", () => {
    expect(
      reminderWords("boleto_overdue", { ...facts, expiresAt: null, dueDay: "2026-11-30" }),
    ).toEqual({
      subject: "Seu boleto de R$ 114,80 venceu",
      body: "O boleto do pedido ABC123 venceu sem pagamento. Para comprar, faça um novo pedido.",
    });
  });
});
