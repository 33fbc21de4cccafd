import { describe, expect, it } from "vitest";
import { boletoGraceEndsAt, dueWords } from "../platform/business-days";
import { saoPauloDay } from "@pix-checkout/client/books";
import { boletoPayableUntil } from "./boleto-due-date";
import { recoveryOptionsSchema } from "./recovery-options";
import { reminderPlan, stepValidUntil } from "./reminder-cadence";

// A boleto's real due date over two whole years of the bank calendar. The oracle is written out
// by hand below (weekends, every national bank holiday of 2026–2028 as FEBRABAN lists it, and
// 31 December, when FEBRABAN closes banks to the public), not read from the calendar under test.

const HOLIDAYS = new Set([
  // 2026: Carnaval 16–17/02, Good Friday 03/04, Corpus Christi 04/06.
  ...["01-01", "02-16", "02-17", "04-03", "04-21", "05-01", "06-04"].map((d) => `2026-${d}`),
  ...["09-07", "10-12", "11-02", "11-15", "11-20", "12-25", "12-31"].map((d) => `2026-${d}`),
  // 2027: Carnaval 08–09/02, Good Friday 26/03, Corpus Christi 27/05.
  ...["01-01", "02-08", "02-09", "03-26", "04-21", "05-01", "05-27"].map((d) => `2027-${d}`),
  ...["09-07", "10-12", "11-02", "11-15", "11-20", "12-25", "12-31"].map((d) => `2027-${d}`),
  "2028-01-01",
]);

const DAY = 86_400_000;
const sp = (wall: string) => new Date(`${wall}-03:00`);
const addDays = (day: string, days: number) =>
  new Date(Date.parse(`${day}T12:00:00Z`) + days * DAY).toISOString().slice(0, 10);
const weekday = (day: string) => new Date(`${day}T12:00:00Z`).getUTCDay();
const isBusiness = (day: string) => ![0, 6].includes(weekday(day)) && !HOLIDAYS.has(day);
/** Business days after `from` up to `to`, `to` counted. */
const businessDaysBetween = (from: string, to: string) => {
  let count = 0;
  for (let day = addDays(from, 1); day <= to; day = addDays(day, 1)) if (isBusiness(day)) count++;
  return count;
};
const endOfDay = (day: string) => sp(`${day}T23:59:59.999`);

/** Every day of 2026 and 2027, `YYYY-MM-DD`. */
const DAYS: string[] = [];
for (let day = "2026-01-01"; day <= "2027-12-31"; day = addDays(day, 1)) DAYS.push(day);
/** São Paulo hours a boleto is made at: midnight, morning, evening, and after 21:00 (UTC's next day). */
const HOURS = ["00:00:00", "09:30:00", "17:59:59", "21:30:00", "23:59:59"];

/** A service that gives every boleto far more days than the store allows: the cap decides. */
const generousService = (created: Date) => new Date(created.getTime() + 30 * DAY);

describe("a boleto made on any day of 2026 and 2027 is due on a business day", () => {
  it.each([1, 3, 5])(
    "with boletoDueDays %i: at the end of exactly that many business days later",
    (dueDays) => {
      const wrong: string[] = [];
      for (const day of DAYS) {
        for (const hour of HOURS) {
          const created = sp(`${day}T${hour}`);
          const due = boletoPayableUntil(generousService(created), created, dueDays);
          const dueDay = saoPauloDay(due);
          if (
            !isBusiness(dueDay) ||
            businessDaysBetween(day, dueDay) !== dueDays ||
            due.getTime() !== endOfDay(dueDay).getTime()
          ) {
            wrong.push(`${day}T${hour} → ${due.toISOString()}`);
          }
        }
      }
      expect(wrong).toEqual([]);
    },
  );

  it("from a service that counts calendar days, on its date, or the next business day after a weekend or holiday", () => {
    const wrong: string[] = [];
    for (const day of DAYS) {
      const created = sp(`${day}T10:00:00`);
      const service = new Date(created.getTime() + 3 * DAY); // Thursday → Sunday.
      const due = boletoPayableUntil(service, created, 3);
      const serviceDay = saoPauloDay(service);
      let real = serviceDay;
      while (!isBusiness(real)) real = addDays(real, 1);
      // Never later than the store's cap, which is three business days.
      const expected =
        businessDaysBetween(day, real) <= 3
          ? real === serviceDay
            ? service
            : endOfDay(real)
          : endOfDay(DAYS.find((d) => d > day && businessDaysBetween(day, d) === 3)!);
      if (due.getTime() !== expected.getTime()) wrong.push(`${day} → ${due.toISOString()}`);
    }
    expect(wrong).toEqual([]);
  });

  // Made at 10:00 in São Paulo, three business days to pay.
  it.each([
    ["Thursday before a weekend", "2026-11-26T10:00:00", "2026-12-01"],
    ["Friday evening", "2026-11-27T20:30:00", "2026-12-02"],
    ["Friday late, UTC's Saturday", "2026-11-27T22:30:00", "2026-12-02"],
    ["Saturday, like the Friday before", "2026-11-28T10:00:00", "2026-12-02"],
    ["before Carnaval 2027 (08–09/02)", "2027-02-03T10:00:00", "2027-02-10"],
    ["on Carnaval Monday 2027", "2027-02-08T10:00:00", "2027-02-12"],
    ["before Good Friday 2026 (03/04)", "2026-04-01T10:00:00", "2026-04-07"],
    ["before Good Friday 2027 (26/03)", "2027-03-24T10:00:00", "2027-03-30"],
    ["before Tiradentes 2026 (Tuesday 21/04)", "2026-04-17T10:00:00", "2026-04-23"],
    ["on Tiradentes 2026, a holiday", "2026-04-21T10:00:00", "2026-04-24"],
    ["before Corpus Christi 2026 (04/06)", "2026-06-02T10:00:00", "2026-06-08"],
    ["before Corpus Christi 2027 (27/05)", "2027-05-25T10:00:00", "2027-05-31"],
    ["before 20/11/2026, a Friday", "2026-11-18T10:00:00", "2026-11-24"],
    ["before Christmas 2026", "2026-12-23T10:00:00", "2026-12-29"],
    // Wednesday 30/12, then 31/12 (no bank hours), New Year and the weekend.
    ["before New Year 2027", "2026-12-28T10:00:00", "2027-01-04"],
    ["over 31/12/2026 (no bank hours)", "2026-12-29T10:00:00", "2027-01-05"],
  ])("made %s, due on %s", (_case, created, expected) => {
    const at = sp(created);
    const due = boletoPayableUntil(generousService(at), at, 3);
    expect(due).toEqual(endOfDay(expected));
  });
});

describe("a due date the service puts on a weekend or a holiday", () => {
  it("is payable until the end of the next business day, and the grace counts from there", () => {
    // Made Wednesday 02/12/2026; the service says Saturday 05/12 at 10:00.
    const created = sp("2026-12-02T10:00:00");
    const due = boletoPayableUntil(sp("2026-12-05T10:00:00"), created, 5);
    expect(due).toEqual(endOfDay("2026-12-07")); // Monday
    // Three business days of grace from Monday: Tuesday, Wednesday, Thursday.
    expect(boletoGraceEndsAt(due, 3)).toEqual(endOfDay("2026-12-10"));
  });

  it("after Carnaval and Christmas alike", () => {
    const due = boletoPayableUntil(sp("2027-02-08T18:00:00"), sp("2027-02-01T10:00:00"), 10);
    expect(due).toEqual(endOfDay("2027-02-10"));
    const christmas = boletoPayableUntil(sp("2026-12-25T12:00:00"), sp("2026-12-21T10:00:00"), 10);
    expect(christmas).toEqual(endOfDay("2026-12-28"));
  });

  it("keeps the service's instant on a business day", () => {
    const service = sp("2026-12-01T10:00:00");
    expect(boletoPayableUntil(service, sp("2026-11-26T10:00:00"), 3)).toEqual(service);
  });
});

const options = recoveryOptionsSchema.parse({
  enabled: true,
  backendUrl: "https://api.loja.example.com",
});

/** The cadence of a boleto made at `created` and due `dueDays` business days later. */
function cadenceOf(created: Date, dueDays = 3) {
  const expiresAt = boletoPayableUntil(generousService(created), created, dueDays);
  const charge = {
    method: "boleto" as const,
    createdAt: created,
    expiresAt,
    dueDay: saoPauloDay(expiresAt),
    graceEndsAt: boletoGraceEndsAt(expiresAt, 3),
  };
  return { charge, plan: reminderPlan(charge, options) };
}

describe("the reminders of a boleto made on any day of 2026 and 2027", () => {
  it("go on business days at 9:00, the day before, on and after the real due date, and name the day", () => {
    const wrong: string[] = [];
    for (const day of DAYS) {
      const { charge, plan } = cadenceOf(sp(`${day}T10:00:00`));
      const due = charge.dueDay;
      for (const { step, at } of plan) {
        const sent = saoPauloDay(at);
        const words = dueWords(due, at);
        const ok =
          isBusiness(sent) &&
          at.getTime() === sp(`${sent}T09:00:00`).getTime() &&
          (step === "boleto_due_tomorrow"
            ? sent < due &&
              businessDaysBetween(sent, due) === 1 &&
              words.startsWith(addDays(sent, 1) === due ? "amanhã, " : "na ") &&
              words.endsWith(`, ${due.slice(8)}/${due.slice(5, 7)}`) &&
              (stepValidUntil(step, charge) ?? at) > at
            : step === "boleto_due_today"
              ? sent === due && words.startsWith("hoje, ")
              : sent > saoPauloDay(charge.graceEndsAt) &&
                businessDaysBetween(saoPauloDay(charge.graceEndsAt), sent) === 1);
        if (!ok) wrong.push(`${day}: ${step} at ${at.toISOString()} (${words})`);
      }
      // A boleto made at 10:00 has every step but when its business day before is that day.
      if (plan.length < 2) wrong.push(`${day}: ${plan.map((r) => r.step).join(",")}`);
    }
    expect(wrong).toEqual([]);
  });

  it("a boleto made Thursday 26/11/2026: 'vence amanhã, terça-feira, 01/12' on Monday, 'hoje' on Tuesday, never on the weekend", () => {
    const { plan } = cadenceOf(sp("2026-11-26T10:00:00"));
    expect(plan).toEqual([
      { step: "boleto_due_tomorrow", at: sp("2026-11-30T09:00:00") },
      { step: "boleto_due_today", at: sp("2026-12-01T09:00:00") },
      // Grace: Wednesday, Thursday, Friday 04/12; the weekend skipped.
      { step: "boleto_overdue", at: sp("2026-12-07T09:00:00") },
    ]);
    expect(dueWords("2026-12-01", plan[0]!.at)).toBe("amanhã, terça-feira, 01/12");
    expect(dueWords("2026-12-01", plan[1]!.at)).toBe("hoje, terça-feira, 01/12");
  });

  it("due on a Monday, reminded on the Friday before: 'vence na segunda-feira, 30/11'", () => {
    const { plan } = cadenceOf(sp("2026-11-25T10:00:00"));
    expect(plan[0]).toEqual({ step: "boleto_due_tomorrow", at: sp("2026-11-27T09:00:00") });
    expect(dueWords("2026-11-30", plan[0]!.at)).toBe("na segunda-feira, 30/11");
  });

  it("a due date shown on a Sunday (a service counting calendar days) is reminded of as Monday's", () => {
    const charge = {
      method: "boleto" as const,
      createdAt: sp("2026-11-26T10:00:00"),
      expiresAt: sp("2026-11-29T10:00:00"),
      dueDay: "2026-11-29",
      graceEndsAt: boletoGraceEndsAt(endOfDay("2026-11-30"), 3),
    };
    expect(reminderPlan(charge, options)).toEqual([
      { step: "boleto_due_tomorrow", at: sp("2026-11-27T09:00:00") },
      { step: "boleto_due_today", at: sp("2026-11-30T09:00:00") },
      { step: "boleto_overdue", at: sp("2026-12-04T09:00:00") },
    ]);
  });

  it.each([
    // Before Carnaval 2027: due Wednesday 10/02, reminded Friday 05/02.
    ["2027-02-03T10:00:00", "2027-02-05", "2027-02-10", "na quarta-feira, 10/02"],
    // Before Corpus Christi 2026: due Monday 08/06, reminded Friday 05/06.
    ["2026-06-02T10:00:00", "2026-06-05", "2026-06-08", "na segunda-feira, 08/06"],
    // Before Corpus Christi 2027: due Monday 31/05, reminded Friday 28/05.
    ["2027-05-25T10:00:00", "2027-05-28", "2027-05-31", "na segunda-feira, 31/05"],
    // Before Tiradentes 2026: due Thursday 23/04, reminded Wednesday 22/04.
    ["2026-04-17T10:00:00", "2026-04-22", "2026-04-23", "amanhã, quinta-feira, 23/04"],
    // Before Good Friday 2026: due Tuesday 07/04, reminded Monday 06/04.
    ["2026-04-01T10:00:00", "2026-04-06", "2026-04-07", "amanhã, terça-feira, 07/04"],
    // Over Christmas 2026: due Tuesday 29/12, reminded Monday 28/12.
    ["2026-12-23T10:00:00", "2026-12-28", "2026-12-29", "amanhã, terça-feira, 29/12"],
    // Over New Year: due Monday 04/01/2027, reminded Wednesday 30/12 (31/12 has no bank hours).
    ["2026-12-28T10:00:00", "2026-12-30", "2027-01-04", "na segunda-feira, 04/01"],
    // Over 20/11/2026: due Tuesday 24/11, reminded Monday 23/11.
    ["2026-11-18T10:00:00", "2026-11-23", "2026-11-24", "amanhã, terça-feira, 24/11"],
  ])("made %s: reminded %s of %s, '%s'", (created, reminded, due, words) => {
    const { charge, plan } = cadenceOf(sp(created));
    expect(charge.dueDay).toBe(due);
    expect(plan[0]).toEqual({ step: "boleto_due_tomorrow", at: sp(`${reminded}T09:00:00`) });
    expect(dueWords(due, plan[0]!.at)).toBe(words);
  });

  it("an overdue message whose grace ends before a holiday waits for the next business day", () => {
    // Grace ending Thursday 24/12/2026: Friday 25 is Christmas, so Monday 28/12.
    const charge = {
      method: "boleto" as const,
      createdAt: sp("2026-12-14T10:00:00"),
      expiresAt: endOfDay("2026-12-21"),
      dueDay: "2026-12-21",
      graceEndsAt: endOfDay("2026-12-24"),
    };
    expect(reminderPlan(charge, options).at(-1)).toEqual({
      step: "boleto_overdue",
      at: sp("2026-12-28T09:00:00"),
    });
  });
});

describe("the words of a due date", () => {
  it("use Intl's pt-BR weekdays, 'no' for the weekend days", () => {
    expect(dueWords("2026-12-05", sp("2026-12-01T09:00:00"))).toBe("no sábado, 05/12");
    expect(dueWords("2026-12-06", sp("2026-12-01T09:00:00"))).toBe("no domingo, 06/12");
    expect(dueWords("2026-12-04", sp("2026-12-01T09:00:00"))).toBe("na sexta-feira, 04/12");
  });

  it("read today in São Paulo, not in UTC", () => {
    // 22:30 on Monday 30/11 in São Paulo is already Tuesday in UTC.
    expect(dueWords("2026-12-01", sp("2026-11-30T22:30:00"))).toBe("amanhã, terça-feira, 01/12");
  });
});
