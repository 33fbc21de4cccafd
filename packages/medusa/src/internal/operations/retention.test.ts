import { describe, expect, it } from "vitest";
import { parseOptions } from "../platform/options";
import { retentionDaysOf } from "./retention";

const registration = (key: string, retentionDays?: number | false) => ({
  key,
  options: parseOptions({
    apiKey: "sk_live_abc123",
    baseUrl: "https://api.example.com/v1",
    variant: "a",
    ...(retentionDays === undefined ? {} : { retentionDays }),
  }),
});

describe("retentionDaysOf", () => {
  it("keeps history as long as the most careful registration asks, and all of it if one says false", () => {
    expect(retentionDaysOf([registration("a")])).toBe(90);
    expect(retentionDaysOf([registration("a", 30), registration("b", 400)])).toBe(400);
    expect(retentionDaysOf([registration("a", 30), registration("b", false)])).toBe(false);
    expect(retentionDaysOf([])).toBe(false);
  });
});
