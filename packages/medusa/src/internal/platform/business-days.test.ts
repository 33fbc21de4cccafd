import { getHolidays } from "@brazilian-utils/brazilian-utils";
import { describe, expect, it } from "vitest";
import { boletoGraceEndsAt, easterSunday, isBankBusinessDay } from "./business-days";

/** Noon in São Paulo on a calendar day, the way a due date is best handed over. */
const noonInSaoPaulo = (date: string): Date => new Date(`${date}T12:00:00-03:00`);

describe("boletoGraceEndsAt", () => {
  it("ends a Friday boleto's 3 business days at the end of the next Wednesday", () => {
    // Friday 6 March 2026 → Monday 9, Tuesday 10, Wednesday 11.
    expect(boletoGraceEndsAt(noonInSaoPaulo("2026-03-06"), 3).toISOString()).toBe(
      "2026-03-12T02:59:59.999Z",
    );
  });

  it("ends at 23:59:59.999 of the due date in São Paulo with 0 business days", () => {
    expect(boletoGraceEndsAt(noonInSaoPaulo("2026-03-06"), 0).toISOString()).toBe(
      "2026-03-07T02:59:59.999Z",
    );
  });

  it("skips Carnival Monday and Tuesday but counts Ash Wednesday", () => {
    // Friday 13 February 2026; Carnival is 16–17 February → Wednesday 18, Thursday 19, Friday 20.
    expect(boletoGraceEndsAt(noonInSaoPaulo("2026-02-13"), 3).toISOString()).toBe(
      "2026-02-21T02:59:59.999Z",
    );
  });

  it("skips Good Friday", () => {
    // Thursday 2 April 2026; Good Friday is 3 April → Monday 6.
    expect(boletoGraceEndsAt(noonInSaoPaulo("2026-04-02"), 1).toISOString()).toBe(
      "2026-04-07T02:59:59.999Z",
    );
  });

  it("skips Corpus Christi", () => {
    // Wednesday 3 June 2026; Corpus Christi is Thursday 4 June → Friday 5.
    expect(boletoGraceEndsAt(noonInSaoPaulo("2026-06-03"), 1).toISOString()).toBe(
      "2026-06-06T02:59:59.999Z",
    );
  });

  it("skips Christmas, 31 December and New Year's Day across the turn of the year", () => {
    // Wednesday 24 December 2025 → Friday 26, Monday 29, Tuesday 30, (Wednesday 31: FEBRABAN
    // closes banks to the public), Friday 2 January, Monday 5.
    expect(boletoGraceEndsAt(noonInSaoPaulo("2025-12-24"), 5).toISOString()).toBe(
      "2026-01-06T02:59:59.999Z",
    );
  });

  it("counts 20 November as a business day before 2024", () => {
    // Friday 17 November 2023 → Monday 20.
    expect(boletoGraceEndsAt(noonInSaoPaulo("2023-11-17"), 1).toISOString()).toBe(
      "2023-11-21T02:59:59.999Z",
    );
  });

  it("skips 20 November (Consciência Negra) from 2024 on", () => {
    // Tuesday 19 November 2024 → Thursday 21.
    expect(boletoGraceEndsAt(noonInSaoPaulo("2024-11-19"), 1).toISOString()).toBe(
      "2024-11-22T02:59:59.999Z",
    );
  });

  it("reads the due date's day in São Paulo when it is already the next day in UTC", () => {
    // 01:30 UTC on Friday 6 March 2026 is 22:30 on Thursday 5 March in São Paulo → Friday 6.
    expect(boletoGraceEndsAt(new Date("2026-03-06T01:30:00Z"), 1).toISOString()).toBe(
      "2026-03-07T02:59:59.999Z",
    );
  });

  it("follows São Paulo's clock under the summer time it kept until 2019", () => {
    // Monday 10 December 2018 was at UTC−2.
    expect(boletoGraceEndsAt(new Date("2018-12-10T12:00:00-02:00"), 0).toISOString()).toBe(
      "2018-12-11T01:59:59.999Z",
    );
  });

  it("ends a day whose last hour came twice at the second 23:59:59.999", () => {
    // Clocks went back from 00:00 on 17 February 2019 to 23:00 on the 16th.
    expect(boletoGraceEndsAt(noonInSaoPaulo("2019-02-16"), 0).toISOString()).toBe(
      "2019-02-17T02:59:59.999Z",
    );
  });

  it("rejects a negative or fractional number of business days", () => {
    expect(() => boletoGraceEndsAt(noonInSaoPaulo("2026-03-06"), -1)).toThrow(RangeError);
    expect(() => boletoGraceEndsAt(noonInSaoPaulo("2026-03-06"), 1.5)).toThrow(RangeError);
  });

  it("rejects an invalid due date", () => {
    expect(() => boletoGraceEndsAt(new Date("not a date"), 3)).toThrow(RangeError);
  });
});

describe("isBankBusinessDay", () => {
  it("treats Saturday and Sunday as non-business days", () => {
    expect(isBankBusinessDay(noonInSaoPaulo("2026-03-07"))).toBe(false);
    expect(isBankBusinessDay(noonInSaoPaulo("2026-03-08"))).toBe(false);
    expect(isBankBusinessDay(noonInSaoPaulo("2026-03-09"))).toBe(true);
  });

  it("treats every national bank holiday of 2026, and 31 December, as a non-business day", () => {
    const holidays = [
      "2026-01-01",
      "2026-02-16",
      "2026-02-17",
      "2026-04-03",
      "2026-04-21",
      "2026-05-01",
      "2026-06-04",
      "2026-09-07",
      "2026-10-12",
      "2026-11-02",
      "2026-11-20",
      "2026-12-25",
      "2026-12-31", // not a holiday, but no bank hours for the public (FEBRABAN)
    ];
    expect(holidays.filter((day) => isBankBusinessDay(noonInSaoPaulo(day)))).toEqual([]);
  });

  it("reads the day in São Paulo, not in UTC", () => {
    // 02:00 UTC on Saturday 7 March 2026 is still Friday 6 March in São Paulo.
    expect(isBankBusinessDay(new Date("2026-03-07T02:00:00Z"))).toBe(true);
  });
});

describe("easterSunday", () => {
  it.each([
    [2024, 3, 31],
    [2025, 4, 20],
    [2026, 4, 5],
    [2027, 3, 28],
    [2030, 4, 21],
    [2038, 4, 25],
    [2285, 3, 22],
  ])("puts Easter %i on month %i, day %i", (year, month, day) => {
    expect(easterSunday(year)).toEqual({ month, day });
  });

  it("agrees with @brazilian-utils on every Easter from 1900 to 2099", () => {
    const differing: number[] = [];
    for (let year = 1900; year <= 2099; year += 1) {
      const pascoa = getHolidays(year).find((holiday) => holiday.name === "Páscoa");
      const ours = easterSunday(year);
      if (pascoa?.date.getMonth() !== ours.month - 1 || pascoa.date.getDate() !== ours.day) {
        differing.push(year);
      }
    }
    expect(differing).toEqual([]);
  });
});
