import { describe, expect, it } from "vitest";
import { orderByHolding, type WaitingCreate } from "./holding-order";

let seq = 0;
/** A waiting create of `client` (null: no client asked), arriving after the ones made before. */
const create = (
  client: string | null,
  email = "shopper",
  vouchedBy: WaitingCreate["vouched_by"] = null,
): WaitingCreate => {
  seq += 1;
  return {
    id: `pxcr_${seq}`,
    provider_key: "pp_pix_a",
    seq: String(seq),
    client_key: client,
    email_key: email,
    vouched_by: vouchedBy,
  };
};
const ids = (order: { id: string }[]) => order.map((c) => c.id);

describe("the create line's order, by what each client already holds", () => {
  it("serves a client holding no code before clients holding 1, 2 and 3, whoever came first", () => {
    const three = create("203.0.113.3");
    const two = create("203.0.113.2");
    const one = create("203.0.113.1");
    const none = create("198.51.100.4");
    const holding = new Map([
      ["203.0.113.3", 3],
      ["203.0.113.2", 2],
      ["203.0.113.1", 1],
    ]);
    const order = orderByHolding([three, two, one, none], (c) => holding.get(c) ?? 0);
    expect(ids(order)).toEqual([none.id, one.id, two.id, three.id]);
    expect(order.map((c) => c.holding)).toEqual([0, 1, 2, 3]);
  });

  it("keeps arrival order among clients holding as many", () => {
    const first = create("203.0.113.1");
    const second = create("203.0.113.2");
    const third = create("198.51.100.4");
    expect(ids(orderByHolding([first, second, third], () => 1))).toEqual([
      first.id,
      second.id,
      third.id,
    ]);
  });

  it("takes clients holding as many in rounds: one create each before anyone's second", () => {
    const floodA = [
      create("203.0.113.1", "a1"),
      create("203.0.113.1", "a2"),
      create("203.0.113.1", "a3"),
    ];
    const floodB = [create("203.0.113.2", "b1"), create("203.0.113.2", "b2")];
    const order = orderByHolding([...floodA, ...floodB], () => 2);
    expect(ids(order)).toEqual([
      floodA[0]!.id,
      floodB[0]!.id,
      floodA[1]!.id,
      floodB[1]!.id,
      floodA[2]!.id,
    ]);
  });

  it("puts a flooding client's creates behind a shopper who arrives after all of them, and still serves them after", () => {
    const flood = Array.from({ length: 20 }, (_, i) => create("203.0.113.7", `cart${i}`));
    const shopper = create("198.51.100.4");
    const order = orderByHolding([...flood, shopper], (c) => (c === "203.0.113.7" ? 5 : 0));
    expect(order[0]!.id).toBe(shopper.id);
    // Liveness: every create of the flood is in the order, in its own arrival order.
    expect(ids(order.slice(1))).toEqual(ids(flood));
  });

  it("lets one client's mailboxes take turns, so one cart's retries do not push its other shopper back", () => {
    const retries = [create("203.0.113.9", "a"), create("203.0.113.9", "a")];
    const other = create("203.0.113.9", "b");
    expect(ids(orderByHolding([...retries, other], () => 0))).toEqual([
      retries[0]!.id,
      other.id,
      retries[1]!.id,
    ]);
  });

  it("keeps creates no client asked for (admin, jobs) first, in the order they joined", () => {
    const shopper = create("198.51.100.4");
    const admin = create(null);
    const job = create(null);
    expect(ids(orderByHolding([shopper, admin, job], () => 0))).toEqual([
      admin.id,
      job.id,
      shopper.id,
    ]);
  });

  describe("vouched creates (the storefront signed its shopper's address)", () => {
    it("serves shoppers the storefront vouched for before a flood from more fresh addresses than a minute serves, though the flood came first", () => {
      // 60 fresh addresses, one first code each: every one is a newcomer at turn 1, as a
      // shopper is, so by turns alone the shoppers after them would wait a whole minute.
      const flood = Array.from({ length: 60 }, (_, i) => create(`203.0.113.${i + 1}`, `f${i}`));
      const shoppers = [
        create("198.51.100.4", "ana", "storefront"),
        create("198.51.100.5", "bia", "storefront"),
      ];
      const order = orderByHolding([...flood, ...shoppers], () => 0);
      expect(ids(order.slice(0, 2))).toEqual(ids(shoppers));
      // Liveness: the flood is served after them, in its own order.
      expect(ids(order.slice(2))).toEqual(ids(flood));
    });

    it("keeps turns among vouched creates: a vouched client holding codes comes after a vouched newcomer", () => {
      const holder = create("198.51.100.9", "many", "storefront");
      const newcomer = create("198.51.100.4", "ana", "storefront");
      const order = orderByHolding([holder, newcomer], (c) => (c === "198.51.100.9" ? 3 : 0));
      expect(ids(order)).toEqual([newcomer.id, holder.id]);
    });

    it("still serves creates no client asked for (admin, jobs) before all of them", () => {
      const shopper = create("198.51.100.4", "ana", "storefront");
      const job = create(null);
      expect(ids(orderByHolding([shopper, job], () => 0))).toEqual([job.id, shopper.id]);
    });
  });
});
