/**
 * How the line gives the service's minute out over the minute (fair-options.ts `burstCreates`,
 * `firstCodeReserve`): a token bucket, read from the sends themselves.
 *
 * Why: the window alone (no minute holds more than the budget) lets a flood that arrives first
 * spend the whole minute in a second, and the shoppers after it, whatever their turn, find
 * nothing left until the next minute. Paced, a send needs a token; tokens come one per
 * `tokenMs` (the window over the budget: 1 s for 60 a minute) up to `burst`, so a shopper who
 * arrives mid-flood waits for the next token, and turns by what a client holds give it to her.
 *
 * Stateless: the bucket is recomputed from the ages of the sends of the last window, so every
 * instance, deciding under the budget's advisory lock, reads the same tokens from the same rows,
 * and nothing else is written. A send at age `a` that is the k-th most recent leaves
 * `burst − k + a / tokenMs` tokens; the fewest over all k is what the bucket holds (a sequence of
 * sends fits a bucket exactly when no span holds more than the burst plus a token per
 * `tokenMs`). Sends older than the window are not read: the window's own limit bounds them.
 *
 * A first code (a client holding nothing live) draws on the whole bucket. Any other create of a
 * client leaves `reserve` tokens and `reserve` slots of the window untaken, so they are there for
 * the next shopper whichever moment she arrives. A create no client asked for (the merchant's
 * payment link, a job) draws as a first code, on the whole window: no flood can ask for one.
 *
 * A vouched create (client-origin.ts `Vouch`: the storefront signed its shopper, or a mailbox
 * with an order paid here asked) needs no token, only a slot of the window: the pace is there
 * to keep a flood from spending the minute before the shoppers come, and the vouched are the
 * shoppers the line can tell from a flood. Paced, shoppers arriving faster than a token a second
 * (a storefront's busy minute: two a second in the flood bench) queued behind each other for
 * seconds while most of the minute stood unused. Their sends still count in the bucket, so a
 * create nobody vouched for finds fewer tokens after them.
 *
 * And a share of the window is theirs alone (`vouchedReserve`): every client's create nobody
 * vouched for, a first code too, leaves that many slots of the window untaken. Sixty fresh addresses
 * ask for more than the whole minute, each a first code, and the flood bench saw them spend it:
 * the storefront's signed shoppers who came after waited for the next minute (3 of 20, 51 s).
 * Addresses cannot tell those sixty from sixty honest newcomers; a signature or a proven
 * mailbox can, and the share is what it buys when the minute is contested.
 */
/** Who asks for a create, as the pace tells them apart. */
export type Asker =
  /** A shopper someone vouched for (client-origin.ts `Vouch`). */
  | "vouched"
  /** No client: the merchant's payment link, a job. */
  | "store"
  /** A client holding nothing live: its first code. */
  | "first_code"
  /** A client holding an unpaid code or a create in flight. */
  | "holding";

export interface Pace {
  /** Tokens the bucket holds when full: sends that may go at once after a quiet spell. */
  burst: number;
  /** Of the burst and of the window, what only a first code may take. */
  reserve: number;
  /** Of the window, what only a vouched create may take. */
  vouchedReserve: number;
  /** How long one token takes to come (ms). */
  tokenMs: number;
}

/**
 * The pace of a budget of `limit` sends per `windowMs`: a burst of `burstCreates` (never above
 * the budget), a reserve of `firstCodeReserve` (never above half the burst, so a client
 * holding something always has the other half), and `vouchedReserve` slots for the vouched
 * (never above a sixth of the budget: 10 of 60, none of a budget under 6).
 */
export function paceOf(
  limit: number,
  windowMs: number,
  options: { burstCreates: number; firstCodeReserve: number; vouchedReserve: number },
): Pace {
  const burst = Math.max(1, Math.min(limit, options.burstCreates));
  return {
    burst,
    reserve: Math.max(0, Math.min(options.firstCodeReserve, Math.floor(burst / 2))),
    vouchedReserve: Math.max(0, Math.min(options.vouchedReserve, Math.floor(limit / 6))),
    tokenMs: windowMs / limit,
  };
}

/** The tokens a bucket of `size` holds after sends `agesMs` ago (any order). */
export function tokensLeft(agesMs: readonly number[], size: number, tokenMs: number): number {
  const ages = [...agesMs].sort((a, b) => a - b);
  let tokens = size;
  for (const [i, age] of ages.entries()) {
    tokens = Math.min(tokens, Math.floor(size - (i + 1) + age / tokenMs));
  }
  return Math.max(0, tokens);
}

/** How long until a bucket of `size` holds a token (ms), after sends `agesMs` ago. */
export function nextTokenInMs(agesMs: readonly number[], size: number, tokenMs: number): number {
  const ages = [...agesMs].sort((a, b) => a - b);
  let wait = 0;
  for (const [i, age] of ages.entries()) wait = Math.max(wait, (i + 2 - size) * tokenMs - age);
  return Math.max(0, Math.ceil(wait));
}

/** What held one more create back: the window's limit, or the pace. */
export type PaceStop = "window" | "tokens";

/**
 * What the pace and the window let go now, for one grant: built from the ages of the sends of
 * the last window and the slots the window holds, it says of each next create, in the line's
 * order, whether it may go after the ones this grant already let go.
 */
export class MinutePace {
  /** The tokens a first code may take, and those any other create may (the reserve left). */
  private readonly tokens: { first: number; other: number };

  constructor(
    private readonly pace: Pace,
    private readonly agesMs: readonly number[],
    private readonly used: number,
    private readonly limit: number,
  ) {
    // Read once per grant: every create of the grant asks, and the sends' ages do not move.
    this.tokens = {
      first: tokensLeft(agesMs, pace.burst, pace.tokenMs),
      other: tokensLeft(agesMs, pace.burst - pace.reserve, pace.tokenMs),
    };
  }

  /**
   * Null when `asker`'s create may go now after `granted` others of this grant; else what stops
   * it. A vouched create is stopped by the window only, and may take the whole of it.
   */
  stop(asker: Asker, granted: number): PaceStop | null {
    const kept = {
      vouched: 0,
      store: 0,
      first_code: this.pace.vouchedReserve,
      holding: this.pace.reserve + this.pace.vouchedReserve,
    }[asker];
    if (this.used + granted >= this.limit - kept) return "window";
    if (asker === "vouched") return null;
    const tokens = asker === "holding" ? this.tokens.other : this.tokens.first;
    return granted < tokens ? null : "tokens";
  }

  /** How long until the pace lets `asker`'s create go (ms), after `granted` sent now by this grant. */
  nextInMs(asker: Asker, granted: number): number {
    const kept = asker === "holding" ? this.pace.reserve : 0;
    const ages = [...Array<number>(granted).fill(0), ...this.agesMs];
    return nextTokenInMs(ages, this.pace.burst - kept, this.pace.tokenMs);
  }

  /**
   * About when the create `ahead` places from the front goes, by the pace alone (ms): at once
   * while tokens last, then one per token. An estimate for a shopper's `ready_at`.
   */
  readyInMs(ahead: number): number {
    const tokens = this.tokens.first;
    if (ahead < tokens) return 0;
    const first = nextTokenInMs(
      [...Array<number>(tokens).fill(0), ...this.agesMs],
      this.pace.burst,
      this.pace.tokenMs,
    );
    return first + (ahead - tokens) * this.pace.tokenMs;
  }
}
