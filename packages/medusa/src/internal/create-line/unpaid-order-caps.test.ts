import { describe, expect, it } from "vitest";
import { unpaidOrderCapReached, type UnpaidOrderCaps } from "./unpaid-order-caps";

const caps: UnpaidOrderCaps = { unpaidOrdersMax: 3, unpaidUnitsMax: 10 };
const none = { orders: 0, units: 0 };

describe("which cap a new unpaid order-first order meets", () => {
  it.each<[string, Parameters<typeof unpaidOrderCapReached>[0], number, unknown]>([
    ["a first order of a few units", { client: none, email: none, document: none }, 2, null],
    ["the last order a client may hold", { client: { orders: 2, units: 4 }, email: none }, 2, null],
    [
      "one order more than a client may hold",
      { client: { orders: 3, units: 3 }, email: none },
      1,
      { over: "client", cap: "orders", holding: { orders: 3, units: 3 } },
    ],
    ["units up to the cap", { client: { orders: 1, units: 6 }, email: none }, 4, null],
    [
      "one unit past the cap",
      { client: { orders: 1, units: 6 }, email: none },
      5,
      { over: "client", cap: "units", holding: { orders: 1, units: 6 } },
    ],
    [
      "a single order bigger than the cap, from a client holding none",
      { client: none, email: none },
      11,
      { over: "client", cap: "units", holding: none },
    ],
    [
      "a mailbox full from other addresses",
      { client: none, email: { orders: 3, units: 3 } },
      1,
      { over: "email", cap: "orders", holding: { orders: 3, units: 3 } },
    ],
    [
      "a CPF holding its units under other mailboxes",
      { client: none, email: none, document: { orders: 1, units: 10 } },
      1,
      { over: "document", cap: "units", holding: { orders: 1, units: 10 } },
    ],
    ["no document known: judged on the rest", { client: none, email: none }, 3, null],
  ])("%s", (_, held, units, expected) => {
    expect(unpaidOrderCapReached(held, units, caps)).toEqual(expected);
  });

  it("names the client before the mailbox and the document when all are full", () => {
    const full = { orders: 3, units: 10 };
    expect(
      unpaidOrderCapReached({ client: full, email: full, document: full }, 1, caps)?.over,
    ).toBe("client");
  });
});
