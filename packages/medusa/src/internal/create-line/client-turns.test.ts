import { afterEach, describe, expect, it, vi } from "vitest";
import { ClientTurns, type Turn } from "./client-turns";

const FLOOD = "203.0.113.7";
const SHOPPER = "198.51.100.4";

const releaseOf = (turn: Turn): (() => void) => {
  if (!("release" in turn)) throw new Error("refused");
  return turn.release;
};

/** Whether `promise` has settled once the microtasks queued now have run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  for (let i = 0; i < 5; i += 1) await Promise.resolve();
  return done;
}

/**
 * Asks one turn for each client, in this order (`tick` moves the clock between them), each
 * released as soon as it is granted; resolves with the clients in the order they were served.
 */
async function servedInOrder(
  turns: ClientTurns,
  clients: string[],
  tick: () => void,
): Promise<string[]> {
  const served: string[] = [];
  const asked = clients.map((client) => {
    tick();
    return turns.take(client, 20).then((turn) => {
      served.push(client);
      releaseOf(turn)();
    });
  });
  await Promise.all(asked);
  return served;
}

describe("the session requests' turns in one process", () => {
  it("gives a request its turn at once when nobody holds one", async () => {
    const turns = new ClientTurns(2);
    expect("release" in (await turns.take(FLOOD, 20))).toBe(true);
  });

  it("makes a client's second request wait until its first releases the turn, though turns are free", async () => {
    const turns = new ClientTurns(4);
    const first = releaseOf(await turns.take(FLOOD, 20));
    const second = turns.take(FLOOD, 20);
    expect(await settled(second)).toBe(false);
    expect(turns.waitingOf(FLOOD)).toBe(1);
    first();
    expect("release" in (await second)).toBe(true);
  });

  it("never makes a client wait for another client's requests while a turn is free", async () => {
    const turns = new ClientTurns(2);
    releaseOf(await turns.take(FLOOD, 20));
    void turns.take(FLOOD, 20);
    void turns.take(FLOOD, 20);
    expect(await settled(turns.take(SHOPPER, 20))).toBe(true);
  });

  it("holds at most atOnce turns; the next request waits for one to free", async () => {
    const turns = new ClientTurns(2);
    releaseOf(await turns.take("192.0.2.1", 20));
    const second = releaseOf(await turns.take("192.0.2.2", 20));
    const third = turns.take("192.0.2.3", 20);
    expect(await settled(third)).toBe(false);
    second();
    expect(await settled(third)).toBe(true);
    expect(turns.held).toBe(2);
  });

  it("gives a freed turn to a shopper asking for its first code before a client that asked many times, whoever came first", async () => {
    const turns = new ClientTurns(1);
    let release = releaseOf(await turns.take(FLOOD, 20));
    // The flood has taken turns this minute and keeps asking.
    for (let i = 0; i < 3; i += 1) {
      const next = turns.take(FLOOD, 20);
      release();
      release = releaseOf(await next);
    }
    const floodAgain = turns.take(FLOOD, 20);
    const shopper = turns.take(SHOPPER, 20);
    release();
    expect(await settled(shopper)).toBe(true);
    expect(await settled(floodAgain)).toBe(false);
  });

  it("among clients that took as many turns, serves the one waiting longest", async () => {
    let now = 0;
    const turns = new ClientTurns(1, { now: () => now });
    const release = releaseOf(await turns.take("192.0.2.9", 20));
    now = 10;
    const earlier = turns.take("192.0.2.1", 20);
    now = 20;
    const later = turns.take("192.0.2.2", 20);
    release();
    expect(await settled(earlier)).toBe(true);
    expect(await settled(later)).toBe(false);
  });

  it("counts a client's turns by the minute: a minute later it is a newcomer again", async () => {
    let now = 0;
    const turns = new ClientTurns(1, { now: () => now });
    let release = releaseOf(await turns.take(FLOOD, 20));
    for (let i = 0; i < 3; i += 1) {
      const next = turns.take(FLOOD, 20);
      release();
      release = releaseOf(await next);
    }
    now = 1_000;
    const shopper = turns.take(SHOPPER, 20);
    // The shopper took one turn this minute; the flood's minute is over, so it took none.
    const shopperRelease = releaseOf(await (release(), shopper));
    now = 60_500;
    const flood = turns.take(FLOOD, 20);
    const shopperAgain = turns.take(SHOPPER, 20);
    shopperRelease();
    expect(await settled(flood)).toBe(true);
    expect(await settled(shopperAgain)).toBe(false);
  });

  it("serves a client's waiting requests in the order they came", async () => {
    const turns = new ClientTurns(4);
    const order: number[] = [];
    let release = releaseOf(await turns.take(FLOOD, 20));
    const waiting = [1, 2, 3].map((n) =>
      turns.take(FLOOD, 20).then((turn) => {
        order.push(n);
        return releaseOf(turn);
      }),
    );
    for (const next of waiting) {
      release();
      release = await next;
    }
    expect(order).toEqual([1, 2, 3]);
  });

  it("refuses a client's request at once when maxWaiting of its requests already wait", async () => {
    const turns = new ClientTurns(2);
    releaseOf(await turns.take(FLOOD, 2));
    void turns.take(FLOOD, 2);
    void turns.take(FLOOD, 2);
    expect(await turns.take(FLOOD, 2)).toEqual({ refused: true, waiting: 2, waitedMs: 0 });
  });

  it("ignores a second release of the same turn, which would let two requests of a client run", async () => {
    const turns = new ClientTurns(4);
    const first = releaseOf(await turns.take(FLOOD, 20));
    const second = turns.take(FLOOD, 20);
    const third = turns.take(FLOOD, 20);
    first();
    first();
    await second;
    expect(await settled(third)).toBe(false);
    expect(turns.held).toBe(1);
  });

  it("serves a client holding no code before clients holding 1, 2 and 3 codes, whoever waited longest", async () => {
    let now = 0;
    const turns = new ClientTurns(1, { now: () => now });
    const holders = ["192.0.2.3", "192.0.2.2", "192.0.2.1"];
    // Each holder had its turn a minute ago, and the line's records gave it its codes.
    for (const [i, holder] of holders.entries()) {
      releaseOf(await turns.take(holder, 20))();
      turns.noteHolding(holder, 3 - i);
    }
    now = 61_000;
    const busy = releaseOf(await turns.take("192.0.2.9", 20));
    const served = servedInOrder(turns, [...holders, SHOPPER], () => (now += 10));
    busy();
    expect(await served).toEqual([SHOPPER, "192.0.2.1", "192.0.2.2", "192.0.2.3"]);
  });

  it("among clients holding as many codes, serves them in the order they came", async () => {
    let now = 0;
    const turns = new ClientTurns(1, { now: () => now });
    for (const client of ["192.0.2.1", "192.0.2.2", "192.0.2.3"]) {
      releaseOf(await turns.take(client, 20))();
      turns.noteHolding(client, 2);
    }
    now = 61_000;
    const busy = releaseOf(await turns.take("192.0.2.9", 20));
    const served = servedInOrder(turns, ["192.0.2.2", "192.0.2.3", "192.0.2.1"], () => (now += 10));
    busy();
    expect(await served).toEqual(["192.0.2.2", "192.0.2.3", "192.0.2.1"]);
  });

  it("serves a shopper the storefront signed before fresh addresses that came first, and the signed by rank among them", async () => {
    let now = 0;
    const turns = new ClientTurns(1, { now: () => now });
    // A signed shopper who already holds a code (a turn a minute ago, one code since).
    releaseOf(await turns.take("storefront:198.51.100.9", 20, true))();
    turns.noteHolding("storefront:198.51.100.9", 1);
    now = 61_000;
    const busy = releaseOf(await turns.take("192.0.2.9", 20));
    // Sixty fresh addresses are newcomers as a shopper is; they asked first.
    const flood = Array.from({ length: 60 }, (_, i) => `203.0.113.${i + 1}`);
    const served: string[] = [];
    const ask = (key: string, vouched: boolean) =>
      turns.take(key, 20, vouched).then((turn) => {
        served.push(key);
        releaseOf(turn)();
      });
    const asked = flood.map((address) => ((now += 10), ask(address, false)));
    asked.push(((now += 10), ask("storefront:198.51.100.9", true)));
    asked.push(((now += 10), ask(`storefront:${SHOPPER}`, true)));
    busy();
    await Promise.all(asked);
    expect(served.slice(0, 3)).toEqual([
      `storefront:${SHOPPER}`,
      "storefront:198.51.100.9",
      flood[0],
    ]);
    expect(served).toHaveLength(62);
  });

  it("refuses at its cap by the requests waiting here only: what a client was last seen holding may be paid since, and is counted by the line", async () => {
    const turns = new ClientTurns(1);
    releaseOf(await turns.take(FLOOD, 2))();
    turns.noteHolding(FLOOD, 18);
    const busy = releaseOf(await turns.take(SHOPPER, 2));
    const waiting = [turns.take(FLOOD, 2), turns.take(FLOOD, 2)];
    expect(turns.waitingOf(FLOOD)).toBe(2);
    expect(await turns.take(FLOOD, 2)).toEqual({ refused: true, waiting: 2, waitedMs: 0 });
    busy();
    expect("release" in (await waiting[0]!)).toBe(true);
  });

  describe("with a patience", () => {
    afterEach(() => vi.useRealTimers());

    it("refuses a repeat client's request at exactly 30 s of waiting, and not a millisecond before", async () => {
      vi.useFakeTimers();
      const turns = new ClientTurns(1, { patienceMs: 30_000, now: () => Date.now() });
      releaseOf(await turns.take(FLOOD, 20))();
      // The line's records gave it two unpaid codes at that turn; a minute later it took no
      // turn this minute, and is a repeat client by what it holds alone.
      turns.noteHolding(FLOOD, 2);
      vi.advanceTimersByTime(61_000);
      const busy = releaseOf(await turns.take(SHOPPER, 20));
      const again = turns.take(FLOOD, 20);
      vi.advanceTimersByTime(29_999);
      expect(await settled(again)).toBe(false);
      expect(turns.waitingOf(FLOOD)).toBe(1);
      vi.advanceTimersByTime(1);
      expect(await again).toEqual({ refused: true, waiting: 0, waitedMs: 30_000 });
      expect(turns.waitingOf(FLOOD)).toBe(0);
      busy();
    });

    it("keeps a first-time client's place after 95 s of waiting, and serves it next, before repeat clients that came earlier", async () => {
      vi.useFakeTimers();
      const turns = new ClientTurns(1, { patienceMs: 30_000, now: () => Date.now() });
      const busy = releaseOf(await turns.take("192.0.2.50", 20));
      turns.noteHolding("192.0.2.50", 1);
      // A repeat client (holding a code) waiting since before the newcomer arrived.
      const seen = releaseOf(await (busy(), turns.take(FLOOD, 20)));
      turns.noteHolding(FLOOD, 1);
      const repeat = turns.take("192.0.2.50", 20);
      vi.advanceTimersByTime(1_000);
      const newcomer = turns.take(SHOPPER, 20);
      vi.advanceTimersByTime(95_000);
      expect(await repeat).toMatchObject({ refused: true });
      expect(await settled(newcomer)).toBe(false);
      expect(turns.waitingOf(SHOPPER)).toBe(1);
      const floodAgain = turns.take(FLOOD, 20);
      seen();
      expect("release" in (await newcomer)).toBe(true);
      expect(await settled(floodAgain)).toBe(false);
    });

    it("answers a request of a client that already had a turn this minute once it waited out its patience, and serves the next", async () => {
      vi.useFakeTimers();
      const turns = new ClientTurns(1, { patienceMs: 30_000, now: () => Date.now() });
      const shopper = releaseOf(await turns.take(SHOPPER, 20));
      const floodFirst = turns.take(FLOOD, 20);
      shopper();
      const floodRelease = releaseOf(await floodFirst);
      // The flood holds the one turn; a shopper and the flood's next request wait behind it.
      const floodAgain = turns.take(FLOOD, 20);
      vi.advanceTimersByTime(29_999);
      expect(await settled(floodAgain)).toBe(false);
      vi.advanceTimersByTime(1);
      expect(await floodAgain).toEqual({ refused: true, waiting: 0, waitedMs: 30_000 });
      expect(turns.waitingOf(FLOOD)).toBe(0);
      // The refused request holds no place: the flood's turn, once freed, goes on as before.
      const next = turns.take(SHOPPER, 20);
      floodRelease();
      expect("release" in (await next)).toBe(true);
    });

    it("never refuses a client that had no turn this minute for waiting: it keeps its place and is served next", async () => {
      vi.useFakeTimers();
      const turns = new ClientTurns(1, { patienceMs: 30_000, now: () => Date.now() });
      const busy = releaseOf(await turns.take(FLOOD, 20));
      const shopper = turns.take(SHOPPER, 20);
      vi.advanceTimersByTime(95_000);
      expect(await settled(shopper)).toBe(false);
      expect(turns.waitingOf(SHOPPER)).toBe(1);
      busy();
      expect("release" in (await shopper)).toBe(true);
    });
  });

  it("sendBack answers every waiting request of a client at once, without a turn, and leaves the others' places", async () => {
    const turns = new ClientTurns(1);
    const shopper = releaseOf(await turns.take(SHOPPER, 20));
    const flood = [turns.take(FLOOD, 20), turns.take(FLOOD, 20), turns.take(FLOOD, 20)];
    const other = turns.take("192.0.2.9", 20);
    expect(turns.sendBack(FLOOD)).toBe(3);
    expect(await Promise.all(flood)).toEqual([
      { sentBack: true },
      { sentBack: true },
      { sentBack: true },
    ]);
    expect(turns.waitingOf(FLOOD)).toBe(0);
    expect(turns.sendBack(FLOOD)).toBe(0);
    expect(await settled(other)).toBe(false);
    shopper();
    expect("release" in (await other)).toBe(true);
  });
});
