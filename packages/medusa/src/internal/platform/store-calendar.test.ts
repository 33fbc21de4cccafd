// The plugin entry's `calendar.extraHolidays`: checked when the plugin's module starts, then the
// calendar every count of business days in the store uses (due dates, the shopper's view, the
// reminders, the grace, a MED's deadline).
import type { MedusaContainer } from "@medusajs/framework/types";
import { DEFAULT_BANK_CALENDAR } from "@pix-checkout/client/bank-days";
import { afterEach, describe, expect, it } from "vitest";
import checkPluginOptionsOnStart from "../../modules/pix-checkout/loaders/check-plugin-options";
import { boletoPayableUntil } from "../checkout/boleto-due-date";
import { realDueDay } from "../checkout/reminder-cadence";
import { businessDaysUntil } from "../operations/med-deadline";
import type { ChargeRow } from "../records/charges";
import { toStoreView } from "../storefront/store-view";
import {
  boletoGraceEndsAt,
  isBusinessDay,
  payableDay,
  setStoreBankCalendar,
  storeBankCalendar,
} from "./business-days";

const start = (options: Record<string, unknown> | undefined) =>
  checkPluginOptionsOnStart({ container: {} as MedusaContainer, options });
const sp = (wall: string) => new Date(`${wall}-03:00`);
const endOfDay = (day: string) => sp(`${day}T23:59:59.999`);

/** The `due_date` a shopper's page shows for a boleto whose barcode says `day`. */
const shownDueDate = (day: string) =>
  toStoreView(
    {
      method: "boleto",
      status: "pending",
      amount_cents: 4990,
      currency_code: "brl",
      expires_at: endOfDay(day),
      paid_at: null,
      superseded_at: null,
      received_cents: null,
      held_cents: 0,
      captured_cents: 0,
      owed_cents: 0,
      returned_cents: 0,
      display: { boleto: { url: "https://b/1", barcode: "1", digitable_line: "2", due_date: day } },
    } as unknown as ChargeRow,
    "payses_1",
  ).boleto?.due_date;

afterEach(() => setStoreBankCalendar(DEFAULT_BANK_CALENDAR));

describe("31 December, without any option", () => {
  it("is no business day: a boleto due Thursday 31/12/2026 is shown and counted as Monday 04/01/2027", () => {
    expect(isBusinessDay("2026-12-31")).toBe(false);
    expect(payableDay("2026-12-31")).toBe("2027-01-04");
    expect(shownDueDate("2026-12-31")).toBe("2027-01-04");
    expect(boletoPayableUntil(endOfDay("2026-12-31"), sp("2026-12-28T10:00:00"), 10)).toEqual(
      endOfDay("2027-01-04"),
    );
  });
});

describe("calendar.extraHolidays", () => {
  it("moves every count of the store once the plugin's module has started", async () => {
    await start({ calendar: { extraHolidays: ["2027-01-20", "01-25"] } });
    expect(storeBankCalendar().extraHolidays).toEqual(["2027-01-20", "01-25"]);
    // An explicit day: Wednesday 20/01/2027 → Thursday 21.
    expect(payableDay("2027-01-20")).toBe("2027-01-21");
    expect(shownDueDate("2027-01-20")).toBe("2027-01-21");
    expect(
      realDueDay({
        method: "boleto",
        createdAt: sp("2027-01-15T10:00:00"),
        expiresAt: endOfDay("2027-01-20"),
        dueDay: "2027-01-20",
        graceEndsAt: null,
      }),
    ).toBe("2027-01-21");
    // A yearly day: Monday 25/01/2027 and Tuesday 25/01/2028.
    expect(isBusinessDay("2027-01-25")).toBe(false);
    expect(isBusinessDay("2028-01-25")).toBe(false);
    // Made Monday 18/01/2027 with 3 business days: Tuesday 19, Thursday 21, Friday 22.
    expect(boletoPayableUntil(endOfDay("2027-02-10"), sp("2027-01-18T10:00:00"), 3)).toEqual(
      endOfDay("2027-01-22"),
    );
    // Grace of 1 business day from Friday 22/01/2027: Monday 25 is skipped → Tuesday 26.
    expect(boletoGraceEndsAt(endOfDay("2027-01-22"), 1)).toEqual(endOfDay("2027-01-26"));
    // A MED deadline on Tuesday 26/01/2027, seen on Friday 22: only Tuesday counts.
    expect(businessDaysUntil("2027-01-22", "2027-01-26")).toBe(1);
  });

  it("is the default calendar when the section is absent", async () => {
    await start({ calendar: { extraHolidays: ["2027-01-20"] } });
    await start(undefined);
    expect(payableDay("2027-01-20")).toBe("2027-01-20");
  });

  it("stops the start on a day that is not one, naming the entry and what to write", async () => {
    const failure = start({ calendar: { extraHolidays: ["2027-01-20", "2027-02-30", "20/11"] } });
    await expect(failure).rejects.toMatchObject({ code: "invalid_options" });
    const message = await failure.catch((error: Error) => error.message);
    expect(message).toContain('calendar.extraHolidays.1: "2027-02-30" is not a day');
    expect(message).toContain('calendar.extraHolidays.2: "20/11" is not a day');
    expect(message).toContain("YYYY-MM-DD");
    expect(message).toContain("MM-DD");
    expect(message).not.toContain("extraHolidays.0");
    expect(storeBankCalendar()).toBe(DEFAULT_BANK_CALENDAR);
  });

  it("refuses a list that is not one, and an entry that is not a string", async () => {
    await expect(start({ calendar: { extraHolidays: "2027-01-20" } })).rejects.toThrow(
      /calendar\.extraHolidays: extraHolidays must be a list of days/,
    );
    await expect(start({ calendar: { extraHolidays: [20270120] } })).rejects.toThrow(
      /calendar\.extraHolidays\.0: each extra holiday must be a string/,
    );
  });
});
