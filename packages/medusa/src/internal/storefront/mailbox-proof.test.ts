import { describe, expect, it } from "vitest";
import { shopperIsThere } from "./mailbox-proof";

describe("shopperIsThere: who may be mailed about an unpaid code, before the mailbox proves itself", () => {
  const shown = { shown_at: new Date("2026-11-24T11:00:00Z") };
  const notShown = { shown_at: null };
  it.each([
    ["the shopper whose page showed the code", shown, { email: "ana@example.com" }, true],
    [
      "the shopper of an order-first order, page or not",
      notShown,
      { email: "ana@example.com", order: { id: "order_1" } },
      true,
    ],
    [
      "nobody while no page showed the code and no order exists",
      notShown,
      { email: "ana@example.com" },
      false,
    ],
    ["nobody without an e-mail", shown, { email: null, order: { id: "order_1" } }, false],
    ["nobody with an empty e-mail", shown, { email: "" }, false],
    ["nobody when there is no one to write to", shown, undefined, false],
  ])("%s", (_name, code, recipient, expected) => {
    expect(shopperIsThere(code, recipient)).toBe(expected);
  });
});
