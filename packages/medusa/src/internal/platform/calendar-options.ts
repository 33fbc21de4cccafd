import { z } from "zod";
import { isExtraHoliday } from "./business-days";

/** The most extra holidays a store may list (years of municipal holidays fit well under it). */
export const MAX_EXTRA_HOLIDAYS = 1000;

/**
 * `calendar` in the plugin's options: days the store's banks are closed on top of the national
 * bank holidays and 31 December (docs/options.md, "Bank calendar"). Read once, when the plugin's
 * module starts, into the calendar every count of business days uses (business-days.ts).
 */
export const calendarOptionsSchema = z.object({
  /**
   * Extra bank holidays: `YYYY-MM-DD` for that day only (`"2027-01-20"`), `MM-DD` for that day
   * every year (`"01-25"`). Each moves a boleto's due date, its grace, its reminders and a
   * MED's deadline as a national holiday does.
   */
  extraHolidays: z
    .array(
      z
        .string({ error: "each extra holiday must be a string, YYYY-MM-DD or MM-DD" })
        .refine(isExtraHoliday, {
          error: (issue) =>
            `${JSON.stringify(issue.input)} is not a day: write YYYY-MM-DD for one day (2027-01-20) or MM-DD for every year (01-25)`,
        }),
      { error: 'extraHolidays must be a list of days, e.g. ["2027-01-20", "01-25"]' },
    )
    .max(MAX_EXTRA_HOLIDAYS)
    .default([]),
});

/** Calendar options after defaults. */
export type CalendarOptions = z.output<typeof calendarOptionsSchema>;
