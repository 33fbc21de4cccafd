import { describe, expect, it } from "vitest";
import { boletoGraceEndsAt } from "./bank-days.js";
import { EARLY_CHECK_AGES_MS, graceRecheckAt, nextCheckAt } from "./check-schedule.js";

const created = new Date("2026-11-22T12:00:00Z");
const at = (ms: number) => new Date(created.getTime() + ms);
const minute = 60_000;
const interval = 5 * minute;

describe("nextCheckAt", () => {
  it("asks a fresh charge after 15 s, then 30 s, 1 min and 2 min of age", () => {
    const expiresAt = at(30 * minute);
    const seen: number[] = [];
    let now = created;
    for (let i = 0; i < EARLY_CHECK_AGES_MS.length; i += 1) {
      now = nextCheckAt({ createdAt: created, expiresAt, now, intervalMs: interval });
      seen.push(now.getTime() - created.getTime());
    }
    expect(seen).toEqual([15_000, 30_000, 60_000, 120_000]);
  });

  it("falls back to the merchant's interval once the charge is older than 2 minutes", () => {
    const now = at(3 * minute);
    expect(
      nextCheckAt({
        createdAt: created,
        expiresAt: at(3 * 24 * 60 * minute),
        now,
        intervalMs: interval,
      }),
    ).toEqual(at(8 * minute));
  });

  it("asks just after expiry rather than waiting a whole interval", () => {
    const now = at(28 * minute);
    expect(
      nextCheckAt({ createdAt: created, expiresAt: at(30 * minute), now, intervalMs: interval }),
    ).toEqual(at(30 * minute + 5_000));
  });

  it("asks a charge past its expiry that the API still calls pending once per interval", () => {
    const now = at(31 * minute);
    expect(
      nextCheckAt({ createdAt: created, expiresAt: at(30 * minute), now, intervalMs: interval }),
    ).toEqual(at(36 * minute));
  });

  it("asks a charge without an expiry on its age and the interval alone", () => {
    expect(
      nextCheckAt({
        createdAt: created,
        expiresAt: null,
        now: at(10 * minute),
        intervalMs: interval,
      }),
    ).toEqual(at(15 * minute));
  });

  it("asks just after expiry once: at that very moment, the next check is an interval away", () => {
    const expiresAt = at(30 * minute);
    const justAfter = new Date(expiresAt.getTime() + 5_000);
    expect(
      nextCheckAt({ createdAt: created, expiresAt, now: justAfter, intervalMs: interval }),
    ).toEqual(new Date(justAfter.getTime() + interval));
  });

  it("asks a 30-minute Pix at most 10 times over its life when no webhook comes", () => {
    const expiresAt = at(30 * minute);
    let now = created;
    let calls = 0;
    while (now.getTime() <= expiresAt.getTime()) {
      now = nextCheckAt({ createdAt: created, expiresAt, now, intervalMs: interval });
      calls += 1;
    }
    expect(calls).toBe(10);
  });

  it("asks a never-paid 3-day boleto at most 20 times over its life and grace period", () => {
    // Due on a Friday before Carnival: the 3 business days of grace end the next Thursday.
    const createdAt = new Date("2026-02-10T15:00:00Z");
    const expiresAt = new Date("2026-02-13T15:00:00Z");
    const hold = boletoGraceEndsAt(expiresAt, 3);
    let now = createdAt;
    let reads = 0;
    while (now.getTime() <= expiresAt.getTime()) {
      now = nextCheckAt({ createdAt, expiresAt, now, intervalMs: interval, method: "boleto" });
      reads += 1;
    }
    const beforeDue = reads;
    while (now < hold) {
      now = graceRecheckAt(now, hold);
      reads += 1;
    }
    expect(beforeDue).toBe(10);
    expect(reads).toBeLessThanOrEqual(20);
  });
});

describe("graceRecheckAt", () => {
  const now = new Date("2026-12-02T12:00:00Z");
  const day = 24 * 60 * minute;

  it("asks a boleto in its grace once a day", () => {
    expect(graceRecheckAt(now, new Date(now.getTime() + 3 * day))).toEqual(
      new Date(now.getTime() + day),
    );
  });

  it("asks at the grace's end when that comes first, and a day on when it is a day away", () => {
    const soon = new Date(now.getTime() + 2 * 60 * minute);
    expect(graceRecheckAt(now, soon)).toEqual(soon);
    expect(graceRecheckAt(now, new Date(now.getTime() + day))).toEqual(
      new Date(now.getTime() + day),
    );
  });
});
