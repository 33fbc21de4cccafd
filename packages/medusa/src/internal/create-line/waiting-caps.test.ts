import { describe, expect, it } from "vitest";
import {
  capReached,
  needsFirstCodes,
  retryAfterMs,
  type WaitingCaps,
  type WaitingCounts,
} from "./waiting-caps";

const caps: WaitingCaps = {
  clientWaitingMax: 20,
  emailWaitingMax: 3,
  storeWaitingMax: 300,
  storeReserve: 60,
  storeReserveBelow: 3,
};

describe("which cap a new waiting create meets", () => {
  it.each<[string, WaitingCounts, ReturnType<typeof capReached>]>([
    ["an empty line takes anyone", { client: 0, email: 0, store: 0 }, null],
    ["a client at its own cap", { client: 20, email: 0, store: 20 }, "client"],
    ["a mailbox at its cap", { client: 2, email: 3, store: 5 }, "email"],
    [
      "a full line, for a new shopper whose first codes were not read",
      { client: 0, email: 0, store: 300 },
      "store",
    ],
    [
      "a full line of clients holding some, for a new shopper",
      { client: 0, email: 0, store: 300, firstCodes: 150 },
      null,
    ],
    [
      "a new shopper behind the cap's worth of first codes",
      { client: 0, email: 0, store: 420, firstCodes: 300 },
      "store",
    ],
    [
      "a full line, for a client holding one, however few first codes",
      { client: 1, email: 0, store: 300, firstCodes: 10 },
      "store",
    ],
    ["the reserve, for a shopper holding none", { client: 0, email: 0, store: 240 }, null],
    ["the reserve, for a client holding two", { client: 2, email: 0, store: 299 }, null],
    ["not the reserve, for a client holding three", { client: 3, email: 0, store: 240 }, "store"],
    ["the open places, for a client holding many", { client: 19, email: 0, store: 239 }, null],
    ["no mailbox read: judged on the rest", { client: 0, email: null, store: 250 }, null],
    ["no line read: judged on the client", { client: 5, email: 0, store: null }, null],
  ])("%s", (_, counts, expected) => {
    expect(capReached(counts, caps)).toBe(expected);
  });

  it("keeps every place for clients holding few when the reserve is the whole line", () => {
    const allReserved = { ...caps, storeWaitingMax: 50, storeReserve: 60 };
    expect(capReached({ client: 2, email: 0, store: 0 }, allReserved)).toBeNull();
    expect(capReached({ client: 3, email: 0, store: 0 }, allReserved)).toBe("store");
  });
});

describe("when the first codes waiting are read", () => {
  it("only for a client holding nothing that meets a full line", () => {
    expect(needsFirstCodes({ client: 0, email: 0, store: 300 }, caps)).toBe(true);
    expect(needsFirstCodes({ client: 0, email: 0, store: 299 }, caps)).toBe(false);
    expect(needsFirstCodes({ client: 1, email: 0, store: 300 }, caps)).toBe(false);
    expect(needsFirstCodes({ client: 0, email: 0, store: 300, firstCodes: 3 }, caps)).toBe(false);
    expect(needsFirstCodes({ client: 0, email: 0, store: null }, caps)).toBe(false);
  });
});

describe("how long a refused client waits", () => {
  it("past its own cap, until its oldest slot frees, in whole seconds", () => {
    expect(retryAfterMs("client", 12_300, 60_000)).toBe(13_000);
    expect(retryAfterMs("client", 0, 60_000)).toBe(1_000);
  });

  it("past its own cap with no slot in the window, or past another cap, a window", () => {
    expect(retryAfterMs("client", null, 60_000)).toBe(60_000);
    expect(retryAfterMs("store", 5_000, 60_000)).toBe(60_000);
    expect(retryAfterMs("email", null, 60_000)).toBe(60_000);
  });
});
