import { describe, expect, it } from "vitest";
import { CappedClients, type CapReading } from "./capped-clients";
import type { WaitingRefusal } from "./queue";

const FLOOD = "203.0.113.7";
const REFUSED: WaitingRefusal = {
  over: "client",
  waiting: 20,
  retryAfterMs: 30_000,
  earlier: true,
};

describe("CappedClients", () => {
  it("requests of a client arriving while its reading runs share that one reading", async () => {
    const capped = new CappedClients();
    let reads = 0;
    let answer!: (refusal: WaitingRefusal | null) => void;
    const read = () => {
      reads += 1;
      return new Promise<CapReading>(
        (resolve) => (answer = (refusal) => resolve({ refusal, capped: refusal !== null })),
      );
    };
    const judged = Array.from({ length: 16 }, () => capped.judge(FLOOD, read));
    answer(REFUSED);
    expect(await Promise.all(judged)).toEqual(Array(16).fill(REFUSED));
    expect(reads).toBe(1);
    // Once answered, the next request reads again: the refusal may have lapsed meanwhile.
    await capped.judge(FLOOD, async () => {
      reads += 1;
      return { refusal: REFUSED, capped: true };
    });
    expect(reads).toBe(2);
  });

  it("a client is noted capped only while its last reading found it refused or at its cap", async () => {
    const capped = new CappedClients();
    expect(capped.has(FLOOD)).toBe(false);
    await capped.judge(FLOOD, async () => ({ refusal: REFUSED, capped: false }));
    expect(capped.has(FLOOD)).toBe(true);
    await capped.judge(FLOOD, async () => ({ refusal: null, capped: false }));
    expect(capped.has(FLOOD)).toBe(false);
    // Its last place taken: let on, but its next request is read at once.
    expect(await capped.judge(FLOOD, async () => ({ refusal: null, capped: true }))).toBeNull();
    expect(capped.has(FLOOD)).toBe(true);
  });

  it("a reading that fails notes nothing and is not shared with the next request", async () => {
    const capped = new CappedClients();
    await expect(capped.judge(FLOOD, () => Promise.reject(new Error("db down")))).rejects.toThrow(
      "db down",
    );
    expect(capped.has(FLOOD)).toBe(false);
    expect(await capped.judge(FLOOD, async () => ({ refusal: REFUSED, capped: true }))).toEqual(
      REFUSED,
    );
  });
});
