import { describe, expect, it } from "vitest";
import { bankCalendar } from "@pix-checkout/client/bank-days";
import { boletoOrderHeldUntil } from "./boleto-grace";
import { bankCalendarOf, checkOptions } from "./options";

describe("boletoOrderHeldUntil", () => {
  it("keeps the order to the end of the third bank business day after a weekday due date, in São Paulo", () => {
    // Due Tuesday 2026-12-01 (23:59 in São Paulo): Wed, Thu, Fri are the three business days.
    const held = boletoOrderHeldUntil("2026-12-02T02:59:59.000Z", 3);
    expect(held.toISOString()).toBe("2026-12-05T02:59:59.999Z");
  });

  it("counts from the next business day when the due date falls on a weekend, and skips holidays", () => {
    // Due Saturday 2026-12-19: payable until Monday the 21st; Tue 22, Wed 23, Thu 24.
    expect(boletoOrderHeldUntil("2026-12-19T12:00:00.000Z", 3).toISOString()).toBe(
      "2026-12-25T02:59:59.999Z",
    );
    // Due Wednesday 2026-12-23: Thu 24, then Christmas and the weekend, Mon 28, Tue 29.
    expect(boletoOrderHeldUntil("2026-12-23T12:00:00.000Z", 3).toISOString()).toBe(
      "2026-12-30T02:59:59.999Z",
    );
  });

  it("skips the store's own holidays (calendar.extraHolidays), a day once or every year", () => {
    // Due Tuesday 2026-12-01; the store's banks close Thursday the 3rd: Wed, Fri, Mon.
    const closedThursday = bankCalendar({ extraHolidays: ["2026-12-03"] });
    expect(boletoOrderHeldUntil("2026-12-02T02:59:59.000Z", 3, closedThursday).toISOString()).toBe(
      "2026-12-08T02:59:59.999Z",
    );
    // Through the plugin's options, as the service counts: every 2 December too.
    const options = checkOptions({
      apiKey: "sk_live_sandbox_default",
      baseUrl: "http://127.0.0.1:4010/v1",
      variant: "a",
      webhookSecret: "vendure-webhook-token-1234",
      calendar: { extraHolidays: ["12-02"] },
    });
    expect(
      boletoOrderHeldUntil("2026-12-02T02:59:59.000Z", 3, bankCalendarOf(options)).toISOString(),
    ).toBe("2026-12-08T02:59:59.999Z");
  });

  it("ends with the due date's payable day itself when there is no grace", () => {
    expect(boletoOrderHeldUntil("2026-12-01T15:00:00.000Z", 0).getTime()).toBeLessThan(
      Date.parse("2026-12-02T03:00:00.000Z"),
    );
  });
});
