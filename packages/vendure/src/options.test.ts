import { describe, expect, it } from "vitest";
import { checkOptions, reminderOptionsOf } from "./options";

const valid = {
  apiKey: "sk_live_sandbox_default",
  baseUrl: "http://127.0.0.1:4010/v1",
  variant: "a" as const,
  webhookSecret: "vendure-webhook-token-1234",
};

describe("the plugin's options", () => {
  it("takes a boleto grace of 0 to 30 whole bank business days, or none (3)", () => {
    for (const boletoGraceBusinessDays of [undefined, 0, 3, 30]) {
      expect(checkOptions({ ...valid, boletoGraceBusinessDays })).toMatchObject(valid);
    }
  });

  it("stops the store at start on any other grace, naming the option and what to set", () => {
    for (const boletoGraceBusinessDays of [-1, 31, 1.5, Number.NaN]) {
      expect(() => checkOptions({ ...valid, boletoGraceBusinessDays })).toThrow(
        "PixCheckoutPlugin: boletoGraceBusinessDays must be a whole number of bank business days from 0 to 30 (default 3).",
      );
    }
  });

  it("takes the store's extra bank holidays, one day or every year, and refuses anything else naming the value and the form", () => {
    for (const extraHolidays of [[], ["2027-01-20", "01-25"]]) {
      expect(checkOptions({ ...valid, calendar: { extraHolidays } })).toMatchObject(valid);
    }
    expect(() => checkOptions({ ...valid, calendar: { extraHolidays: ["2027-02-30"] } })).toThrow(
      'PixCheckoutPlugin: calendar.extraHolidays: "2027-02-30" is not a day: write YYYY-MM-DD for one day (2027-01-20) or MM-DD for every year (01-25).',
    );
    expect(() =>
      checkOptions({ ...valid, calendar: { extraHolidays: "01-25" as unknown as string[] } }),
    ).toThrow("calendar.extraHolidays must be a list of days");
    expect(() =>
      checkOptions({ ...valid, calendar: { extraHolidays: Array(1001).fill("01-25") } }),
    ).toThrow("at most 1000 days");
  });

  it("names the webhook secret's rule without echoing the value given", () => {
    let message = "";
    try {
      checkOptions({ ...valid, webhookSecret: "short secret!" });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/webhookSecret must be 16 or more URL-safe characters/);
    expect(message).not.toContain("short secret!");
  });

  it("sends reminders by default, on the Medusa plugin's cadence", () => {
    expect(reminderOptionsOf(checkOptions(valid))).toEqual({
      enabled: true,
      pixMinutesBeforeExpiry: 10,
      pixMinutesAfterExpiry: 5,
      boletoHour: 9,
      quietFrom: 21,
      quietUntil: 8,
    });
    const own = checkOptions({
      ...valid,
      reminders: { enabled: false, boletoHour: 10, quietFrom: 12, quietUntil: 14 },
    });
    expect(reminderOptionsOf(own)).toMatchObject({
      enabled: false,
      boletoHour: 10,
      quietFrom: 12,
      quietUntil: 14,
    });
  });

  it("stops the store at start on reminders it cannot keep, naming the field and the rule", () => {
    const refusals: [Record<string, unknown>, string][] = [
      [{ enabled: "yes" }, "reminders.enabled must be true or false (default true)."],
      [
        { pixMinutesBeforeExpiry: 1 },
        "reminders.pixMinutesBeforeExpiry must be a whole number of minutes from 2 to 1440 (default 10).",
      ],
      [
        { pixMinutesAfterExpiry: -1 },
        "reminders.pixMinutesAfterExpiry must be a whole number of minutes from 0 to 1440 (default 5).",
      ],
      [
        { boletoHour: 24 },
        "reminders.boletoHour must be a whole São Paulo hour from 0 to 23 (default 9).",
      ],
      [
        { quietFrom: 7.5 },
        "reminders.quietFrom must be a whole São Paulo hour from 0 to 23 (default 21).",
      ],
      [{ quietUntil: 21 }, "reminders.quietUntil must differ from quietFrom."],
    ];
    for (const [reminders, message] of refusals) {
      expect(() => checkOptions({ ...valid, reminders } as never)).toThrow(
        `PixCheckoutPlugin: ${message}`,
      );
    }
  });
});
