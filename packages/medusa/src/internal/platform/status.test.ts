import { describe, expect, it } from "vitest";
import { toSessionStatus } from "./status";

describe("toSessionStatus", () => {
  it.each([
    ["paid", "captured"],
    ["pending", "pending_authorization"],
    ["expired", "canceled"],
    ["failed", "error"],
  ] as const)("maps API %s to Medusa %s", (api, medusa) => {
    expect(toSessionStatus(api)).toBe(medusa);
  });
});
