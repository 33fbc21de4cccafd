import { describe, expect, it } from "vitest";
import en from "../../admin/i18n/json/en.json";
import ptBR from "../../admin/i18n/json/ptBR.json";
import { flagOf, type FlagReason } from "./flag-reasons";

const reasons: FlagReason[] = [
  { code: "refund_due", reason: "paid_twice", amount_cents: 20400 },
  { code: "amount_mismatch", api_cents: 4990, recorded_cents: 5990 },
  { code: "paid_after_order_canceled", order_id: "order_01KXYZ" },
  { code: "paid_after_charge_closed", status: "expired" },
  { code: "capture_failed", attempts: 5, message: "Payment could not be captured: (2): boom" },
  { code: "check_failed", attempts: 8, message: "not_found: charge does not exist" },
];

describe("flag reasons", () => {
  it("reads a row's reason from its stored code and values", () => {
    expect(
      flagOf({
        flag_code: "refund_due",
        flag_detail: { reason: "out_of_stock", amount_cents: 3500, order_id: null },
      }),
    ).toEqual({ code: "refund_due", reason: "out_of_stock", amount_cents: 3500, order_id: null });
  });

  it("reads values stored as JSON text", () => {
    expect(
      flagOf({ flag_code: "check_failed", flag_detail: '{"attempts":8,"message":"x"}' }),
    ).toEqual({ code: "check_failed", attempts: 8, message: "x" });
  });

  it("has no reason for a row with no code", () => {
    expect(flagOf({ flag_code: null, flag_detail: null })).toBeNull();
  });

  it("has words for every reason in both admin languages", () => {
    for (const { code } of reasons) {
      expect(en.flag).toHaveProperty(code);
      expect(ptBR.flag).toHaveProperty(code);
    }
  });
});
