import { describe, expect, it } from "vitest";
import type { MedusaSide } from "../medusa/collection-snapshot";
import { asksOf, newCodeCents, type CollectionStanding } from "./snapshot";

/** Medusa's side of a cart's collection of R$ 100,00, no order yet. */
const side = (over: Partial<MedusaSide> = {}): MedusaSide => ({
  liveSessions: [],
  payments: [],
  order: null,
  cartId: "cart_1",
  collection: { amountCents: 10_000, canceled: false },
  ...over,
});
const order = { id: "order_1", status: "pending", canceledAt: null };

describe("asksOf: what a collection asks, or that it pays for nothing (a payment of it is owed back)", () => {
  it.each([
    ["a cart's collection asks its amount", side(), 10_000],
    ["the collection of a cart that became an order asks its amount", side({ order }), 10_000],
    [
      "an order's own collection (an edit's difference) asks its amount",
      side({ cartId: null, order, collection: { amountCents: 2_500, canceled: false } }),
      2_500,
    ],
    [
      "a collection Medusa canceled pays for nothing",
      side({ order, collection: { amountCents: 10_000, canceled: true } }),
      null,
    ],
    ["a collection Medusa holds no more pays for nothing", side({ collection: null }), null],
    [
      "a collection no cart and no order owns (the merchant deleted it) pays for nothing",
      side({ cartId: null }),
      null,
    ],
  ])("%s", (_name, medusa, asks) => {
    expect(asksOf(medusa)).toBe(asks);
  });
});

describe("newCodeCents: what a new code of the collection asks", () => {
  const standing = (paidCents: number, remainingCents: number | null): CollectionStanding => ({
    paid: null,
    heldForMerchant: false,
    paidCents,
    remainingCents,
    hasOrder: true,
  });
  it.each([
    ["the session's amount, while nothing is paid", standing(0, 15_000), 15_000, 15_000],
    [
      "only what is left once a code paid part of it (an order edited up): the same link collects the rest",
      standing(10_000, 5_000),
      15_000,
      5_000,
    ],
    ["the session's amount when it asks less than is left", standing(10_000, 5_000), 3_000, 3_000],
  ])("%s", (_name, collection, sessionCents, asks) => {
    expect(newCodeCents(collection, sessionCents)).toBe(asks);
  });
});
