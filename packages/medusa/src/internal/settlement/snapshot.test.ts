import { describe, expect, it } from "vitest";
import type { MedusaSide } from "../medusa/collection-snapshot";
import type { ConfigModule } from "@medusajs/framework/types";
import { chargeRow } from "./__tests__/charge-row";
import { asksOf, newCodeCents, paymentsOf, type CollectionStanding } from "./snapshot";

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
    [
      "never more than the collection asks, even with nothing paid (a session made at another amount)",
      standing(0, 12_000),
      15_000,
      12_000,
    ],
    // refusalOf refuses a new code of these before it is made; were one asked, it would still
    // never be a code for nothing.
    [
      "the session's amount, never R$ 0,00, when its charges paid all of it",
      standing(10_000, 0),
      10_000,
      10_000,
    ],
    [
      "the session's amount, never R$ 0,00, when the collection pays for nothing",
      standing(0, null),
      10_000,
      10_000,
    ],
  ])("%s", (_name, collection, sessionCents, asks) => {
    expect(newCodeCents(collection, sessionCents)).toBe(asks);
  });
});

describe("paymentsOf: Medusa's payments of a collection, each capture attributed by its id", () => {
  const config = {
    modules: {
      payment: {
        resolve: "@medusajs/medusa/payment",
        options: {
          providers: [
            { resolve: "@medusajs/medusa/payment-stripe", id: "stripe", options: {} },
            {
              resolve: "@pix-checkout/medusa/providers/pix-checkout",
              id: "a",
              options: { apiKey: "sk_live_x", baseUrl: "http://127.0.0.1:1/v1", variant: "a" },
            },
          ],
        },
      },
    },
  } as unknown as ConfigModule;
  const row = (chargeId: string, sessionId: string, captureSessionId: string | null = null) => ({
    ...chargeRow({
      charge_id: chargeId,
      session_id: sessionId,
      capture_session_id: captureSessionId,
    }),
    ever_captured_cents: 0,
    claim_live: false,
  });
  const captures = (...ids: string[]) => ids.map((id) => ({ id, cents: 10_000 }));
  const paymentOf = (
    sessionId: string,
    ids: string[],
    providerId = "pp_pix_a",
  ): MedusaSide["payments"][number] => ({
    sessionId,
    providerId,
    captured: ids.length > 0,
    canceled: false,
    captures: captures(...ids),
  });
  const recorded = (payments: ReturnType<typeof paymentsOf>) =>
    payments.map((p) => p.captures.map((c) => c.recorded));

  it("counts a capture recorded when an entry names its id, and only then", () => {
    const payments = paymentsOf(
      config,
      side({ payments: [paymentOf("ps_a", ["cap_1", "cap_2"])] }),
      [row("ch_a", "ps_a")],
      [{ chargeId: "ch_a", medusaRef: "cap_1", cents: 10_000 }],
    );
    expect(recorded(payments)).toEqual([[true, false]]);
  });

  it("counts a capture recorded by its id whichever charge's entry names it (never by the session alone)", () => {
    const payments = paymentsOf(
      config,
      side({ payments: [paymentOf("ps_a", ["cap_1"]), paymentOf("ps_b", ["cap_2"])] }),
      [row("ch_a", "ps_a"), row("ch_b", "ps_b")],
      [{ chargeId: "ch_b", medusaRef: "cap_1", cents: 10_000 }],
    );
    expect(recorded(payments)).toEqual([[true], [false]]);
  });

  it("lets an entry that named no capture (recorded before entries named them) stand for one capture of the session its charge was captured on", () => {
    const payments = paymentsOf(
      config,
      side({
        payments: [paymentOf("ps_new", ["cap_1", "cap_2"]), paymentOf("ps_old", ["cap_3"])],
      }),
      [row("ch_old", "ps_old", "ps_new")],
      [{ chargeId: "ch_old", medusaRef: null, cents: 10_000 }],
    );
    expect(recorded(payments)).toEqual([[true, false], [false]]);
  });

  it("spends an unnamed entry once across the session's payments, and never on a capture an entry names", () => {
    const payments = paymentsOf(
      config,
      side({ payments: [paymentOf("ps_a", ["cap_1", "cap_2"]), paymentOf("ps_a", ["cap_3"])] }),
      [row("ch_a", "ps_a")],
      [
        { chargeId: "ch_a", medusaRef: "cap_1", cents: 10_000 },
        { chargeId: "ch_a", medusaRef: null, cents: 10_000 },
      ],
    );
    expect(recorded(payments)).toEqual([[true, true], [false]]);
  });

  it("lets an unnamed entry of a charge the collection does not hold stand for nothing", () => {
    const payments = paymentsOf(
      config,
      side({ payments: [paymentOf("ps_a", ["cap_1"])] }),
      [row("ch_a", "ps_a")],
      [{ chargeId: "ch_elsewhere", medusaRef: null, cents: 10_000 }],
    );
    expect(recorded(payments)).toEqual([[false]]);
  });

  it("says which payments are of this plugin's registrations, and keeps Medusa's captured and canceled", () => {
    const payments = paymentsOf(
      config,
      side({
        payments: [
          { ...paymentOf("ps_a", []), canceled: true },
          paymentOf("ps_card", ["cap_9"], "pp_stripe_stripe"),
          paymentOf("ps_b", [], "pp_pix_b"),
        ],
      }),
      [],
      [],
    );
    expect(
      payments.map(({ sessionId, ours, captured, canceled }) => [
        sessionId,
        ours,
        captured,
        canceled,
      ]),
    ).toEqual([
      ["ps_a", true, false, true],
      ["ps_card", false, true, false],
      ["ps_b", false, false, false],
    ]);
  });
});
