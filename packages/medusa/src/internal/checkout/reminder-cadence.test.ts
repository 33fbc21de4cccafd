import { DEFAULT_REMINDER_CADENCE } from "@pix-checkout/client/reminders";
import { describe, expect, it } from "vitest";
import { recoveryOptionsSchema } from "./recovery-options";

// The cadence itself and its tests are @pix-checkout/client/reminders' (packages/client,
// src/reminders.test.ts); the store's calendar under it, platform/store-calendar.test.ts.

describe("the recovery options", () => {
  it("are off by default", () => {
    expect(recoveryOptionsSchema.parse({}).enabled).toBe(false);
  });

  it("default to the shared cadence", () => {
    expect(recoveryOptionsSchema.parse({})).toMatchObject(DEFAULT_REMINDER_CADENCE);
  });

  it("need the server's public address once enabled, for the messages' links", () => {
    const result = recoveryOptionsSchema.safeParse({ enabled: true });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(["backendUrl"]);
  });
});
