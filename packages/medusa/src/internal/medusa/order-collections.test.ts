import { describe, expect, it } from "vitest";
import { purposeOf, type PurposeFacts } from "./order-collections";

const facts = (over: Partial<PurposeFacts>): PurposeFacts => ({
  ofCart: false,
  ofOrder: true,
  paidBefore: true,
  latestChange: null,
  ...over,
});

describe("purposeOf: what a payment collection is for", () => {
  it.each([
    [
      "a cart's, whatever its order did later",
      facts({ ofCart: true, latestChange: "edit" }),
      "cart",
    ],
    ["an order edit's difference", facts({ latestChange: "edit" }), "order_edit"],
    ["an exchange's difference", facts({ latestChange: "exchange" }), "exchange"],
    ["a claim's difference", facts({ latestChange: "claim" }), "claim"],
    ["a return's", facts({ latestChange: "return_receive" }), "return"],
    [
      "an exchange's, once its returned item is received",
      facts({ latestChange: "return_receive", latestChangeOf: "exchange" }),
      "exchange",
    ],
    [
      "a claim's, once its returned item is received",
      facts({ latestChange: "return_receive", latestChangeOf: "claim" }),
      "claim",
    ],
    [
      "an order nothing paid yet is paid whole, even after edits (a draft's edits are edits too)",
      facts({ paidBefore: false, latestChange: "edit" }),
      "order",
    ],
    [
      "a collection the merchant made on a paid order with no change behind it",
      facts({ latestChange: null }),
      "order",
    ],
    ["a change Medusa does not call a difference", facts({ latestChange: "transfer" }), "order"],
    ["nothing for a collection nothing owns", facts({ ofOrder: false }), null],
  ])("%s", (_name, given, expected) => {
    expect(purposeOf(given)).toBe(expected);
  });
});
