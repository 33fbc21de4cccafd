import { describe, expect, it } from "vitest";
import { payLinkSession } from "./pay-link";

describe("payLinkSession", () => {
  it("reads the session of a /pagar/<session_id> link, as the plugin's notification writes it", () => {
    expect(payLinkSession("/pagar/payses_01JX3Q8Z2K4T0M9V6R7W5Y1N2B")).toBe(
      "payses_01JX3Q8Z2K4T0M9V6R7W5Y1N2B",
    );
    expect(payLinkSession("/pagar/payses_01JX3Q8Z2K4T0M9V6R7W5Y1N2B/")).toBe(
      "payses_01JX3Q8Z2K4T0M9V6R7W5Y1N2B",
    );
  });

  it("is not a pay link for any other path", () => {
    for (const path of ["/", "/pagar/", "/pagar/x<script>", "/pagar/payses_1/extra"]) {
      expect(payLinkSession(path)).toBeNull();
    }
  });
});
