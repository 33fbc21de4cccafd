import { describe, expect, it } from "vitest";
import {
  DEFAULT_BANK_CALENDAR,
  bankCalendar,
  boletoGraceEndsAt,
  businessDayBefore,
  businessDaysUntil,
  endOfBusinessDaysAfter,
  isBankBusinessDay,
  isBusinessDay,
  isExtraHoliday,
  payableDay,
  payableUntil,
} from "./bank-days.js";

/** An instant in São Paulo's wall clock. */
const sp = (wall: string): Date => new Date(`${wall}-03:00`);

describe("31 December (FEBRABAN: no bank hours for the public)", () => {
  it("is not a business day, on a Thursday in 2026 or on any weekday of another year", () => {
    expect(isBusinessDay("2026-12-31")).toBe(false); // Thursday
    expect(isBankBusinessDay(sp("2026-12-31T12:00:00"))).toBe(false);
    expect(isBusinessDay("2025-12-31")).toBe(false); // Wednesday
    expect(isBusinessDay("2027-12-31")).toBe(false); // Friday
    expect(isBusinessDay("2026-12-30")).toBe(true);
  });

  it("moves a boleto due that day to the next business day, past New Year and the weekend", () => {
    // Thursday 31/12/2026 → Friday 1 January is a holiday, 2–3 January a weekend → Monday 04/01.
    expect(payableDay("2026-12-31")).toBe("2027-01-04");
    expect(payableUntil(sp("2026-12-31T23:59:59.999"))).toEqual(sp("2027-01-04T23:59:59.999"));
  });

  it("is skipped when business days are counted", () => {
    // Tuesday 29/12/2026 + 2: Wednesday 30, then Monday 04/01/2027.
    expect(endOfBusinessDaysAfter(sp("2026-12-29T10:00:00"), 2)).toEqual(
      sp("2027-01-04T23:59:59.999"),
    );
    expect(businessDayBefore("2027-01-04")).toBe("2026-12-30");
  });
});

describe("a calendar with extra holidays", () => {
  it("moves a due date on an explicit extra day (YYYY-MM-DD)", () => {
    const calendar = bankCalendar({ extraHolidays: ["2027-01-20"] }); // a Wednesday
    expect(payableDay("2027-01-20")).toBe("2027-01-20");
    expect(payableDay("2027-01-20", calendar)).toBe("2027-01-21");
    expect(isBusinessDay("2028-01-20", calendar)).toBe(true); // that year only
    // Monday 18/01/2027 + 3 business days: Tuesday, Thursday, Friday.
    expect(endOfBusinessDaysAfter(sp("2027-01-18T10:00:00"), 3, calendar)).toEqual(
      sp("2027-01-22T23:59:59.999"),
    );
  });

  it("moves a due date on a yearly extra day (MM-DD), every year", () => {
    const calendar = bankCalendar({ extraHolidays: ["01-25"] }); // São Paulo's anniversary
    expect(payableDay("2027-01-25", calendar)).toBe("2027-01-26"); // Monday → Tuesday
    expect(isBusinessDay("2028-01-25", calendar)).toBe(false);
    expect(isBankBusinessDay(sp("2029-01-25T12:00:00"), calendar)).toBe(false);
    expect(businessDayBefore("2027-01-26", calendar)).toBe("2027-01-22");
    expect(boletoGraceEndsAt(sp("2027-01-22T12:00:00"), 1, calendar)).toEqual(
      sp("2027-01-26T23:59:59.999"),
    );
    expect(payableUntil(sp("2027-01-25T23:59:59.999"), calendar)).toEqual(
      sp("2027-01-26T23:59:59.999"),
    );
  });

  it("changes nothing for the default calendar or another calendar", () => {
    bankCalendar({ extraHolidays: ["2027-01-20", "03-10"] });
    expect(isBusinessDay("2027-01-20")).toBe(true);
    expect(isBusinessDay("2027-03-10", DEFAULT_BANK_CALENDAR)).toBe(true);
    expect(isBusinessDay("2027-03-10", bankCalendar())).toBe(true);
  });

  it("accepts a plain object of the same shape", () => {
    expect(payableDay("2027-01-20", { extraHolidays: ["2027-01-20"] })).toBe("2027-01-21");
  });

  it.each([
    "2027-02-30",
    "2027-1-20",
    "20/01/2027",
    "13-01",
    "02-30",
    "00-10",
    "11-20 ",
    "",
    "--11-20",
  ])("refuses %j, naming it", (bad) => {
    expect(isExtraHoliday(bad)).toBe(false);
    expect(() => bankCalendar({ extraHolidays: [bad] })).toThrow(RangeError);
    expect(() => bankCalendar({ extraHolidays: [bad] })).toThrow(JSON.stringify(bad));
    expect(() => payableDay("2027-01-20", { extraHolidays: [bad] })).toThrow(RangeError);
  });

  it("accepts 29 February as a yearly day, a holiday in leap years only", () => {
    expect(isExtraHoliday("02-29")).toBe(true);
    expect(isExtraHoliday("2028-02-29")).toBe(true);
    expect(isExtraHoliday("2027-02-29")).toBe(false);
    const calendar = bankCalendar({ extraHolidays: ["02-29"] });
    expect(isBusinessDay("2028-02-29", calendar)).toBe(false); // Tuesday
    expect(isBusinessDay("2028-03-01", calendar)).toBe(true); // Ash Wednesday
    expect(isBusinessDay("2027-03-01", calendar)).toBe(true); // no 29th in 2027
  });
});

describe("bank business days until a deadline", () => {
  it("counts those after today up to the deadline, skipping weekends and holidays", () => {
    // Friday 2026-11-27 → Monday 30 (one business day); Tuesday 1 December (two).
    expect(businessDaysUntil("2026-11-27", "2026-11-27")).toBe(0);
    expect(businessDaysUntil("2026-11-27", "2026-11-29")).toBe(0);
    expect(businessDaysUntil("2026-11-27", "2026-11-30")).toBe(1);
    expect(businessDaysUntil("2026-11-27", "2026-12-01")).toBe(2);
    // Christmas (a Friday in 2026) is no business day.
    expect(businessDaysUntil("2026-12-23", "2026-12-28")).toBe(2);
    // Passed: the calendar days since.
    expect(businessDaysUntil("2026-11-27", "2026-11-25")).toBe(-2);
  });

  it("counts the store's extra holidays, and refuses a day that is not one", () => {
    const calendar = bankCalendar({ extraHolidays: ["2026-11-30"] });
    expect(businessDaysUntil("2026-11-27", "2026-12-01", calendar)).toBe(1);
    expect(() => businessDaysUntil("2026-11-27", "2026-02-30")).toThrow(RangeError);
  });
});
