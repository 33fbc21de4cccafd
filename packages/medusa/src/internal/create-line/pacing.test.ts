import { describe, expect, it } from "vitest";
import { MinutePace, nextTokenInMs, paceOf, tokensLeft } from "./pacing";

const MINUTE = 60_000;
/**
 * 60 creates a minute, a burst of 10, 5 of them kept for first codes (the defaults until
 * 2026-11-29), none of the minute kept for the vouched.
 */
const pace = paceOf(60, MINUTE, { burstCreates: 10, firstCodeReserve: 5, vouchedReserve: 0 });
/** The defaults: a burst of 30, 15 kept for first codes, 10 of the minute for the vouched. */
const defaults = paceOf(60, MINUTE, { burstCreates: 30, firstCodeReserve: 15, vouchedReserve: 10 });
/** `n` sends, all `ageMs` ago. */
const sends = (n: number, ageMs: number) => Array<number>(n).fill(ageMs);

describe("the pace of a budget", () => {
  it("gives a token a second for 60 a minute, the burst never above the budget, the reserve never above half the burst, the vouched share never above a sixth of the budget", () => {
    expect(pace).toEqual({ burst: 10, reserve: 5, vouchedReserve: 0, tokenMs: 1_000 });
    expect(
      paceOf(5, MINUTE, { burstCreates: 10, firstCodeReserve: 5, vouchedReserve: 10 }),
    ).toEqual({ burst: 5, reserve: 2, vouchedReserve: 0, tokenMs: 12_000 });
    expect(
      paceOf(60, MINUTE, { burstCreates: 60, firstCodeReserve: 0, vouchedReserve: 30 }),
    ).toMatchObject({ reserve: 0, vouchedReserve: 10 });
    expect(
      paceOf(30, MINUTE, { burstCreates: 30, firstCodeReserve: 15, vouchedReserve: 10 }),
    ).toMatchObject({ vouchedReserve: 5 });
  });
});

describe("the tokens a bucket holds", () => {
  it("is full after a quiet spell", () => {
    expect(tokensLeft([], 10, 1_000)).toBe(10);
    expect(tokensLeft(sends(10, 10_000), 10, 1_000)).toBe(10);
  });

  it("is empty after a burst, and refills a token a second", () => {
    expect(tokensLeft(sends(10, 0), 10, 1_000)).toBe(0);
    expect(tokensLeft(sends(10, 999), 10, 1_000)).toBe(0);
    expect(tokensLeft(sends(10, 1_000), 10, 1_000)).toBe(1);
    expect(tokensLeft(sends(10, 4_000), 10, 1_000)).toBe(4);
  });

  it("counts every span: a send a second for a while leaves the burst less one", () => {
    const steady = Array.from({ length: 30 }, (_, i) => i * 1_000);
    expect(tokensLeft(steady, 10, 1_000)).toBe(9);
  });

  it("says when the next token comes", () => {
    expect(nextTokenInMs([], 10, 1_000)).toBe(0);
    expect(nextTokenInMs(sends(10, 0), 10, 1_000)).toBe(1_000);
    expect(nextTokenInMs(sends(10, 400), 10, 1_000)).toBe(600);
    expect(nextTokenInMs(sends(3, 0), 10, 1_000)).toBe(0);
  });
});

describe("a minute's pace for one grant", () => {
  it("lets the burst go at once to first codes, and leaves the reserve to them", () => {
    const quiet = new MinutePace(pace, [], 0, 60);
    expect(quiet.stop("first_code", 9)).toBeNull();
    expect(quiet.stop("first_code", 10)).toBe("tokens");
    expect(quiet.stop("holding", 4)).toBeNull();
    expect(quiet.stop("holding", 5)).toBe("tokens");
  });

  it("after the flood took what it may, a shopper still finds a token at once", () => {
    // A flood holding codes took half the burst: it waits for the bucket, a shopper does not.
    const afterFlood = new MinutePace(pace, sends(5, 0), 5, 60);
    expect(afterFlood.stop("holding", 0)).toBe("tokens");
    expect(afterFlood.stop("first_code", 0)).toBeNull();
    expect(afterFlood.nextInMs("holding", 0)).toBe(1_000);
  });

  it("keeps the reserve's slots of the window for first codes, whatever the tokens", () => {
    const nearlyFull = new MinutePace(pace, [], 55, 60);
    expect(nearlyFull.stop("holding", 0)).toBe("window");
    expect(nearlyFull.stop("first_code", 4)).toBeNull();
    expect(nearlyFull.stop("first_code", 5)).toBe("window");
  });

  it("lets a vouched create go with the bucket empty, stopped by the window alone", () => {
    // A flood took the burst this instant: nobody else finds a token, a vouched shopper needs none.
    const drained = new MinutePace(pace, sends(10, 0), 10, 60);
    expect(drained.stop("first_code", 0)).toBe("tokens");
    expect(drained.stop("vouched", 0)).toBeNull();
    expect(drained.stop("vouched", 49)).toBeNull();
    // The window holds 60 whoever asks; the reserve is no vouched create's business.
    expect(drained.stop("vouched", 50)).toBe("window");
    expect(new MinutePace(pace, [], 56, 60).stop("vouched", 3)).toBeNull();
  });

  it("keeps the vouched share of the window from every create nobody vouched for, first codes too", () => {
    // Sixty fresh addresses, each a first code, after the burst and a token a second: they stop
    // at 50 of the minute, and a signed shopper who comes after still goes at once.
    const sixty = new MinutePace(defaults, [], 49, 60);
    expect(sixty.stop("first_code", 0)).toBeNull();
    expect(sixty.stop("first_code", 1)).toBe("window");
    expect(sixty.stop("holding", 0)).toBe("window");
    expect(sixty.stop("vouched", 1)).toBeNull();
    expect(sixty.stop("vouched", 10)).toBeNull();
    expect(sixty.stop("vouched", 11)).toBe("window");
    // A client holding something leaves the first codes' reserve and the vouched share both.
    expect(new MinutePace(defaults, [], 35, 60).stop("holding", 0)).toBe("window");
    expect(new MinutePace(defaults, [], 35, 60).stop("first_code", 0)).toBeNull();
    // The merchant's own creates (a payment link, a job) take the whole window: no flood asks.
    expect(sixty.stop("store", 10)).toBeNull();
    expect(sixty.stop("store", 11)).toBe("window");
  });

  it("estimates a place by the tokens: at once while they last, then one a token", () => {
    const half = new MinutePace(pace, sends(5, 0), 5, 60);
    expect(half.readyInMs(4)).toBe(0);
    expect(half.readyInMs(5)).toBe(1_000);
    expect(half.readyInMs(7)).toBe(3_000);
  });
});
