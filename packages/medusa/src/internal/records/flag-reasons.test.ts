import { describe, expect, it } from "vitest";
import en from "../../admin/i18n/json/en.json";
import ptBR from "../../admin/i18n/json/ptBR.json";
import { describeFlag, flagOf, readFlag, type FlagReason } from "./flag-reasons";

const reasons: FlagReason[] = [
  { code: "refund_due", reason: "paid_twice", amount_cents: 20400 },
  { code: "amount_mismatch", api_cents: 4990, recorded_cents: 5990 },
  { code: "paid_after_order_canceled", order_id: "order_01KXYZ" },
  { code: "paid_after_charge_closed", status: "expired" },
  { code: "capture_failed", attempts: 5, message: "Payment could not be captured: (2): boom" },
  { code: "check_failed", attempts: 8, message: "not_found: charge does not exist" },
];

describe("flag reasons", () => {
  it.each(reasons)("reads $code back from the stored sentence", (reason) => {
    expect(readFlag(describeFlag(reason))).toEqual(reason);
  });

  it("reads a row's stored code and values before its sentence", () => {
    expect(
      flagOf({
        flag_code: "refund_due",
        flag_detail: { reason: "out_of_stock", amount_cents: 3500, order_id: null },
        flag_reason: "anything",
      }),
    ).toEqual({ code: "refund_due", reason: "out_of_stock", amount_cents: 3500, order_id: null });
  });

  it("keeps a sentence it does not know (older rows, other tools) as text", () => {
    expect(readFlag("merchant asked to look at this")).toEqual({
      code: "other",
      message: "merchant asked to look at this",
    });
  });

  it("has words for every reason in both admin languages", () => {
    for (const { code } of reasons) {
      expect(en.pixCheckout.flag).toHaveProperty(code);
      expect(ptBR.pixCheckout.flag).toHaveProperty(code);
    }
  });
});
