/**
 * What `ClientTurns.take` gives a request: its turn (free it when done), or a refusal: at once
 * (`waitedMs` 0, too many of its client's requests wait) or after it waited out its patience;
 * or, sent back (`sendBack`), no turn: its client was found at its cap meanwhile, and the
 * caller judges it again without one.
 */
export type Turn =
  | { release: () => void }
  | { refused: true; waiting: number; waitedMs: number }
  | { sentBack: true };

/** A request waiting for its turn: when it came, and how it is answered. */
interface WaitingRequest {
  at: number;
  grant: () => void;
  /** Answers it without a turn (`sendBack`). */
  back: () => void;
  /** Its patience timer, cleared once it is granted or refused. */
  timer?: ReturnType<typeof setTimeout>;
}

interface ClientState {
  /** Whether one of the client's requests holds a turn now. */
  busy: boolean;
  /** Its requests waiting for a turn, oldest first. */
  waiting: WaitingRequest[];
  /** Turns it took in the current minute, and when that minute began. */
  taken: number;
  minuteFrom: number;
  /**
   * What it holds, as the line's records said at its last turn (`noteHolding`): live unpaid
   * codes and creates in flight. Never from anything the client sends.
   */
  holding: number;
  /**
   * Whether the store's storefront signed its address (client-origin.ts `Vouch`): fixed with
   * its key, which the caller keeps apart from the same address unsigned.
   */
  vouched: boolean;
}

/** The window over which turns taken count against a client (as the line's slots do). */
const MINUTE_MS = 60_000;
/** Clients remembered with nothing here, past which the quiet ones are forgotten. */
const REMEMBERED = 10_000;

/**
 * The turns of one process's Pix and boleto session requests, fairly among clients: at most
 * `atOnce` of them go past the early refusal at a time (its query, the collection's lock, the
 * cart's read, Medusa's session workflow), and at most one per client. The others wait in
 * memory and cost nothing (no query, no connection of the pool, no workflow) until their turn.
 *
 * Fair, not first come, by the line's own rule (holding-order.ts): a freed turn goes to the
 * waiting client that holds least, its rank being the unpaid codes and creates in flight the
 * line's records gave it at its last turn (`noteHolding`) plus the turns it took this minute;
 * the longest waiting goes first among equals. A shopper asking for its first code (rank 0)
 * goes before every client already holding one, so one flooding client holds one place here,
 * not one per request, and 15 of them hold 15 places behind every shopper. A flooding client
 * is still served whenever no client ranked below it waits. Clients whose address the store's
 * storefront signed go before every client it did not, by the same ranks among them, as the
 * line orders its creates (holding-order.ts): past the addresses a minute can tell apart (a
 * flood from 60 fresh ones, each a newcomer at rank 0 like a shopper), the storefront's
 * shoppers still wait only for the turns running. When a waiting request's turn
 * comes it is judged afresh (the early refusal reads the line again), so a flood the line
 * refused meanwhile is answered 429 from that one query.
 *
 * `maxWaiting` bounds the requests one client keeps waiting here (each is an open socket and a
 * closure); past it, `take` refuses at once. What it holds is not counted there: the note may
 * be stale (a code paid since), and a client refused here would never be read again; the line's
 * own cap counts it, from the records, at the early refusal's query.
 * `patienceMs` bounds how long a request of a repeat client (rank above 0: a turn this minute,
 * or a code it holds) waits: past it, it is refused, so a flood's requests are answered 429 in
 * bounded time instead of outliving the proxy's or the client's timeout behind a busy minute
 * of shoppers. A first-time client (rank 0) is never refused for waiting: it is first in line
 * for the next free turn, whatever the others do.
 */
export class ClientTurns {
  private readonly clients = new Map<string, ClientState>();
  /** The clients with a request waiting: the only ones a freed turn looks at. */
  private readonly asking = new Set<ClientState>();
  private running = 0;

  private readonly now: () => number;
  private readonly patienceMs: number;

  constructor(
    private readonly atOnce: number,
    limits: { patienceMs?: number; now?: () => number } = {},
  ) {
    this.now = limits.now ?? Date.now;
    this.patienceMs = limits.patienceMs ?? Number.POSITIVE_INFINITY;
  }

  /**
   * Resolves with a turn once one is free and no client ranked below it waits (at once when
   * nobody waits), or with a refusal when `maxWaiting` requests of the client already wait. A
   * turn must be released; a second release does nothing. `vouched`: the storefront signed
   * the client's address; its key must differ from the same address's unsigned one.
   */
  take(clientKey: string, maxWaiting: number, vouched = false): Promise<Turn> {
    const client = this.stateOf(clientKey, vouched);
    if (client.waiting.length >= maxWaiting) {
      return Promise.resolve({ refused: true, waiting: client.waiting.length, waitedMs: 0 });
    }
    return new Promise<Turn>((resolve) => {
      const request: WaitingRequest = {
        at: this.now(),
        grant: () => {
          clearTimeout(request.timer);
          resolve({ release: this.releaserOf(client) });
        },
        back: () => {
          clearTimeout(request.timer);
          resolve({ sentBack: true });
        },
      };
      client.waiting.push(request);
      this.asking.add(client);
      this.next();
      if (client.waiting.includes(request) && Number.isFinite(this.patienceMs)) {
        this.watchPatience(client, request, (waitedMs) =>
          resolve({ refused: true, waiting: client.waiting.length, waitedMs }),
        );
      }
    });
  }

  /**
   * Refuses `request` once it has waited `patienceMs`, if its client is a repeat one by then (a
   * turn this minute, or a code it holds); a first-time client keeps its place (it is the next
   * served) and is looked at again after another `patienceMs`.
   */
  private watchPatience(
    client: ClientState,
    request: WaitingRequest,
    refuse: (waitedMs: number) => void,
  ): void {
    request.timer = setTimeout(() => {
      const place = client.waiting.indexOf(request);
      if (place === -1) return;
      const now = this.now();
      if (this.rankOf(client, now) === 0) return this.watchPatience(client, request, refuse);
      client.waiting.splice(place, 1);
      if (client.waiting.length === 0) this.asking.delete(client);
      refuse(now - request.at);
    }, this.patienceMs);
    // A waiting request must not keep a process that is shutting down alive.
    request.timer.unref?.();
  }

  /**
   * What the line's records say the client holds now (its live unpaid codes and creates in
   * flight), read by the early refusal at the client's turn: it ranks the client's next
   * requests here.
   */
  noteHolding(clientKey: string, holding: number): void {
    const client = this.clients.get(clientKey);
    if (client) client.holding = Math.max(0, holding);
  }

  /** A client's rank: what it holds plus the turns it took this minute (0: a first-timer). */
  private rankOf(client: ClientState, now: number): number {
    const taken = now - client.minuteFrom < MINUTE_MS ? client.taken : 0;
    return client.holding + taken;
  }

  /**
   * Answers every request of the client still waiting for a turn with `sentBack`: its client
   * was just found refused or at its cap, so they need no turn (and no place behind every
   * shopper) to be told so again. Returns how many there were.
   */
  sendBack(clientKey: string): number {
    const client = this.clients.get(clientKey);
    if (!client || client.waiting.length === 0) return 0;
    const waiting = client.waiting.splice(0);
    this.asking.delete(client);
    for (const request of waiting) request.back();
    return waiting.length;
  }

  /** Requests of the client waiting for a turn here (not counting one holding it). */
  waitingOf(clientKey: string): number {
    return this.clients.get(clientKey)?.waiting.length ?? 0;
  }

  /** Turns held now. */
  get held(): number {
    return this.running;
  }

  private stateOf(clientKey: string, vouched: boolean): ClientState {
    let client = this.clients.get(clientKey);
    if (!client) {
      if (this.clients.size >= REMEMBERED) this.forgetQuiet();
      client = {
        busy: false,
        waiting: [],
        taken: 0,
        minuteFrom: this.now(),
        holding: 0,
        vouched,
      };
      this.clients.set(clientKey, client);
    }
    return client;
  }

  /** Hands free turns out: the vouched first, then the lowest rank, then the longest waiting. */
  private next(): void {
    while (this.running < this.atOnce) {
      const now = this.now();
      let best: ClientState | undefined;
      let bestRank = 0;
      for (const client of this.asking) {
        if (client.busy) continue;
        if (now - client.minuteFrom >= MINUTE_MS) {
          client.taken = 0;
          client.minuteFrom = now;
        }
        const rank = this.rankOf(client, now);
        if (
          !best ||
          (client.vouched && !best.vouched) ||
          (client.vouched === best.vouched &&
            (rank < bestRank || (rank === bestRank && client.waiting[0]!.at < best.waiting[0]!.at)))
        ) {
          best = client;
          bestRank = rank;
        }
      }
      if (!best) return;
      const request = best.waiting.shift()!;
      if (best.waiting.length === 0) this.asking.delete(best);
      best.busy = true;
      best.taken += 1;
      this.running += 1;
      request.grant();
    }
  }

  private releaserOf(client: ClientState): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      client.busy = false;
      this.running -= 1;
      this.next();
    };
  }

  /**
   * Forgets clients with nothing here whose minute is over (their count is back to none; what
   * they hold is read again at their next turn).
   */
  private forgetQuiet(): void {
    const now = this.now();
    for (const [key, client] of this.clients) {
      if (!client.busy && client.waiting.length === 0 && now - client.minuteFrom >= MINUTE_MS) {
        this.clients.delete(key);
      }
    }
  }
}
