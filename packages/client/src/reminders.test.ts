import { describe, expect, it } from "vitest";
import { bankCalendar, businessDayBefore } from "./bank-days.js";
import {
  DEFAULT_REMINDER_CADENCE as options,
  nextReminder,
  quietEndsAt,
  realDueDay,
  reminderPlan,
  stepValidUntil,
} from "./reminders.js";

const sp = (wall: string) => new Date(`${wall}-03:00`);

describe("the cadence of a Pix code", () => {
  const charge = {
    method: "pix" as const,
    createdAt: sp("2026-11-24T14:00:00"),
    expiresAt: sp("2026-11-24T14:30:00"),
    dueDay: null,
    graceEndsAt: null,
  };

  it("recalls the code with 10 minutes left, then offers a new one 5 minutes after it expired", () => {
    expect(reminderPlan(charge, options)).toEqual([
      { step: "pix_expiring", at: sp("2026-11-24T14:20:00") },
      { step: "pix_expired", at: sp("2026-11-24T14:35:00") },
    ]);
  });

  it("has no step for a code without an expiry, and none made at a step's very moment", () => {
    expect(reminderPlan({ ...charge, expiresAt: null }, options)).toEqual([]);
    // Made at 14:20 sharp: "expiring" falls at its making, so only "expired" is left.
    expect(
      reminderPlan({ ...charge, createdAt: sp("2026-11-24T14:20:00") }, options).map((r) => r.step),
    ).toEqual(["pix_expired"]);
  });

  it("has no reminder before expiry for a code shorter than the lead", () => {
    const short = { ...charge, expiresAt: sp("2026-11-24T14:05:00") };
    expect(reminderPlan(short, options).map((r) => r.step)).toEqual(["pix_expired"]);
  });

  it("goes step by step, and ends", () => {
    const plan = reminderPlan(charge, options);
    expect(nextReminder(plan, new Set())?.step).toBe("pix_expiring");
    expect(nextReminder(plan, new Set(["pix_expiring"]))?.step).toBe("pix_expired");
    expect(nextReminder(plan, new Set(["pix_expiring", "pix_expired"]))).toBeNull();
  });

  it("stops recalling a code a minute before it expires", () => {
    expect(stepValidUntil("pix_expiring", charge)).toEqual(sp("2026-11-24T14:29:00"));
  });
});

describe("the cadence of a boleto", () => {
  // Due Monday 2026-11-30; the business day before is Friday the 27th.
  const charge = {
    method: "boleto" as const,
    createdAt: sp("2026-11-25T16:00:00"),
    expiresAt: sp("2026-11-30T23:59:59"),
    dueDay: "2026-11-30",
    graceEndsAt: sp("2026-12-03T23:59:59"),
  };

  it("writes at 9:00 on the business day before, on the due date and the morning after the grace period", () => {
    expect(reminderPlan(charge, options)).toEqual([
      { step: "boleto_due_tomorrow", at: sp("2026-11-27T09:00:00") },
      { step: "boleto_due_today", at: sp("2026-11-30T09:00:00") },
      { step: "boleto_overdue", at: sp("2026-12-04T09:00:00") },
    ]);
  });

  it("leaves out a step that falls before the boleto was made", () => {
    const late = { ...charge, createdAt: sp("2026-11-28T10:00:00") };
    expect(reminderPlan(late, options).map((r) => r.step)).toEqual([
      "boleto_due_today",
      "boleto_overdue",
    ]);
  });

  it("counts business days as the grace period does: over weekends and bank holidays", () => {
    expect(businessDayBefore("2026-11-30")).toBe("2026-11-27"); // Monday → Friday
    expect(businessDayBefore("2026-11-23")).toBe("2026-11-19"); // Friday the 20th is Zumbi
    expect(businessDayBefore("2027-01-04")).toBe("2026-12-30"); // 31/12: no bank hours
  });

  it("counts on the calendar it is given: a store's extra holiday moves the steps", () => {
    // Friday the 27th a local holiday: "due tomorrow" on Thursday the 26th.
    const local = bankCalendar({ extraHolidays: ["2026-11-27"] });
    expect(reminderPlan(charge, options, local)[0]).toEqual({
      step: "boleto_due_tomorrow",
      at: sp("2026-11-26T09:00:00"),
    });
    // Monday the 30th a local holiday: due on Tuesday, "due tomorrow" valid until it begins.
    const monday = bankCalendar({ extraHolidays: ["2026-11-30"] });
    expect(realDueDay(charge, monday)).toBe("2026-12-01");
    expect(stepValidUntil("boleto_due_tomorrow", charge, monday)).toEqual(
      sp("2026-12-01T00:00:00"),
    );
  });

  it("reads the due day from the expiry when none was shown, and has no step without either", () => {
    const fromExpiry = { ...charge, dueDay: null };
    expect(reminderPlan(fromExpiry, options)).toEqual(reminderPlan(charge, options));
    expect(realDueDay({ dueDay: null, expiresAt: sp("2026-11-28T12:00:00") })).toBe("2026-11-30");
    // The day shown wins over the expiry's.
    expect(realDueDay({ dueDay: "2026-11-26", expiresAt: sp("2026-11-30T23:59:59") })).toBe(
      "2026-11-26",
    );
    expect(reminderPlan({ ...charge, dueDay: null, expiresAt: null }, options)).toEqual([]);
    expect(realDueDay({ dueDay: null, expiresAt: null })).toBeNull();
  });

  it("has no 'overdue' step without a grace end", () => {
    const noGrace = { ...charge, graceEndsAt: null };
    expect(reminderPlan(noGrace, options).map((r) => r.step)).toEqual([
      "boleto_due_tomorrow",
      "boleto_due_today",
    ]);
  });

  it("stops saying 'due tomorrow' when the due date begins", () => {
    expect(stepValidUntil("boleto_due_tomorrow", charge)).toEqual(sp("2026-11-30T00:00:00"));
    expect(stepValidUntil("boleto_due_today", charge)).toEqual(sp("2026-12-01T00:00:00"));
    expect(stepValidUntil("boleto_overdue", charge)).toBeNull();
  });
});

describe("quiet hours in São Paulo", () => {
  it("end at 8:00 the next morning for a reminder due at 22:30", () => {
    expect(quietEndsAt(sp("2026-11-24T22:30:00"), options)).toEqual(sp("2026-11-25T08:00:00"));
  });

  it("end at 8:00 the same morning for one due at 3:00", () => {
    expect(quietEndsAt(sp("2026-11-25T03:00:00"), options)).toEqual(sp("2026-11-25T08:00:00"));
  });

  it("do not hold one due at 8:00 or at 20:59", () => {
    expect(quietEndsAt(sp("2026-11-25T08:00:00"), options)).toBeNull();
    expect(quietEndsAt(sp("2026-11-25T20:59:00"), options)).toBeNull();
  });

  it("begin at the quiet hour itself and end at the waking one: 21:00 is quiet, 7:59 too, 8:00 not", () => {
    expect(quietEndsAt(sp("2026-11-24T21:00:00"), options)).toEqual(sp("2026-11-25T08:00:00"));
    expect(quietEndsAt(sp("2026-11-24T20:59:59"), options)).toBeNull();
    expect(quietEndsAt(sp("2026-11-25T07:59:00"), options)).toEqual(sp("2026-11-25T08:00:00"));
    // Inside one day, the same edges: 12:00 is quiet, 14:00 not, 11:59 not.
    const lunch = { quietFrom: 12, quietUntil: 14 };
    expect(quietEndsAt(sp("2026-11-25T12:00:00"), lunch)).toEqual(sp("2026-11-25T14:00:00"));
    expect(quietEndsAt(sp("2026-11-25T14:00:00"), lunch)).toBeNull();
    expect(quietEndsAt(sp("2026-11-25T11:59:00"), lunch)).toBeNull();
  });

  it("may sit inside one day", () => {
    const lunch = { quietFrom: 12, quietUntil: 14 };
    expect(quietEndsAt(sp("2026-11-25T13:10:00"), lunch)).toEqual(sp("2026-11-25T14:00:00"));
    expect(quietEndsAt(sp("2026-11-25T22:00:00"), lunch)).toBeNull();
  });
});
