/** The caps on creates waiting in line (fair-options.ts). */
export interface WaitingCaps {
  /** What one client may hold waiting: its waiting creates plus its live unpaid codes. */
  clientWaitingMax: number;
  /** Creates for one mailbox that may wait, from any client. */
  emailWaitingMax: number;
  /** Creates that may wait in all, from every client. */
  storeWaitingMax: number;
  /** Of `storeWaitingMax`, the places only a client holding fewer than `storeReserveBelow` may take. */
  storeReserve: number;
  /** A client holding fewer waiting creates than this may take a reserved place. */
  storeReserveBelow: number;
}

/** Which cap a session request meets. */
export type WaitingCap = "client" | "email" | "store";

/**
 * What the line holds when a session request asks for a place: its client's waiting creates
 * (holds included) and live unpaid codes, its mailbox's waiting creates, and the whole line's.
 * A count the caller did not read is null, and no cap is judged on it.
 */
export interface WaitingCounts {
  client: number;
  email: number | null;
  store: number | null;
  /**
   * The creates that go before a first code (`CreateQueue.firstCodesWaiting`): the first codes
   * waiting, and creates no client asked for. Read only when it decides (`needsFirstCodes`);
   * absent or null, the whole line (`store`) stands for it.
   */
  firstCodes?: number | null;
}

/**
 * The cap a new waiting create would pass, if any. The store's last `storeReserve` places are
 * kept for clients holding fewer than `storeReserveBelow`: a flood that fills the rest of the
 * line, from however many addresses each holding its share, leaves them to the shoppers who
 * come after it (each holds none yet).
 *
 * A client holding nothing (no create waiting, none held, no live code) asks for a first code,
 * which the line serves before every create of a client holding something (holding-order.ts).
 * What it waits behind is the first codes already waiting, not the line: it is refused for the
 * store only when `storeWaitingMax` of those wait (its wait would then pass what the cap
 * allows anyone). So addresses that each hold a little, however many creates they keep
 * waiting, never shut a new shopper out; the line then holds at most twice `storeWaitingMax`.
 */
export function capReached(counts: WaitingCounts, caps: WaitingCaps): WaitingCap | null {
  if (counts.client >= caps.clientWaitingMax) return "client";
  if (counts.email !== null && counts.email >= caps.emailWaitingMax) return "email";
  if (counts.store !== null) {
    if (counts.client === 0) {
      return (counts.firstCodes ?? counts.store) >= caps.storeWaitingMax ? "store" : null;
    }
    if (counts.store >= caps.storeWaitingMax) return "store";
    const open = Math.max(0, caps.storeWaitingMax - caps.storeReserve);
    if (counts.store >= open && counts.client >= caps.storeReserveBelow) return "store";
  }
  return null;
}

/**
 * Whether reading the first codes waiting could change `capReached`'s answer: a client holding
 * nothing meets a line at its cap, and they were not read (they cost a query, read only then).
 */
export function needsFirstCodes(counts: WaitingCounts, caps: WaitingCaps): boolean {
  return (
    counts.client === 0 &&
    counts.store !== null &&
    counts.firstCodes == null &&
    counts.store >= caps.storeWaitingMax
  );
}

/**
 * How long a refused client waits before it may ask again (`Retry-After`, and how long its
 * refusal stands): past its own cap, until one of its slots of the window frees (its line moves
 * then); past a mailbox's or the store's, a window (`windowMs`: each moves at least that often). Whole
 * seconds, at least one, as the header says it.
 */
export function retryAfterMs(
  over: WaitingCap,
  clientSlotFreesInMs: number | null,
  windowMs: number,
): number {
  const ms = over === "client" ? (clientSlotFreesInMs ?? windowMs) : windowMs;
  return Math.max(1, Math.ceil(ms / 1000)) * 1000;
}
