import { generateEntityId } from "@medusajs/framework/utils";
import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import type { ClientCreateChargeInput } from "../platform/client-port";
import type { PaymentMethod } from "../platform/options";
import { payerKey, type Vouch } from "./client-origin";
import { orderByHolding, type OrderedCreate, type WaitingCreate } from "./holding-order";
import { fairOptionsSchema } from "./fair-options";
import { MinutePace, paceOf, type Asker, type Pace, type PaceStop } from "./pacing";
import { UnpaidOrders } from "./unpaid-orders";
import {
  ClientRefusals,
  REFUSAL_IN_FORCE_COLUMNS,
  refusalInForce,
  type RefusalInForce,
} from "./client-refusals";
import {
  capReached,
  needsFirstCodes,
  retryAfterMs,
  type WaitingCap,
  type WaitingCaps,
  type WaitingCounts,
} from "./waiting-caps";

/** The service's create limit: this many creates in any minute (spec, "Limits"). */
export const CREATE_WINDOW_MS = 60_000;

/** How long a sender holds a request it is sending; a silent holder has died. */
export const SEND_LEASE_MS = 2 * 60_000;

/** Ended requests are kept this long (the window, then support questions), then pruned. */
export const ENDED_REQUEST_RETENTION_MS = 24 * 60 * 60_000;

/**
 * `error_code` of a row that only keeps the slot of one spent send: a send of a request that
 * was answered without a charge (a 5xx, a timeout, no answer, a 429) before the request went
 * back to its place. The service counts every POST, so the line does too: a request's own row
 * holds the slot of its current (or last) send, and each earlier send keeps a row like this,
 * `failed` from its answer on, for a window. Such a row is never in line and never the
 * session's request.
 */
export const SPENT_SEND = "resent";

/** Where a create request is. */
export type CreateRequestState = "waiting" | "sending" | "done" | "failed" | "canceled";

/** A row of `pix_checkout_create_request`. */
export interface CreateRequestRow {
  id: string;
  /** Place in line (bigint, read as a string). */
  seq: string;
  budget_key: string;
  provider_key: string;
  provider_id: string;
  method: PaymentMethod;
  session_id: string;
  payment_collection_id: string | null;
  sales_channel_id: string | null;
  amount_cents: number;
  /** What is sent to the API, payer included; null once the request ended. */
  input: ClientCreateChargeInput | null;
  state: CreateRequestState;
  enqueued_at: Date;
  sent_at: Date | null;
  lease_until: Date | null;
  done_at: Date | null;
  charge_id: string | null;
  cancel_requested: boolean;
  /** Sends that ended in a passing failure (the request went back to its place). */
  attempts: number;
  /** Why it ended (or why its last send failed); `SPENT_SEND` on a row that only keeps a slot. */
  error_code: string | null;
  error_message: string | null;
  /**
   * The asking client's address; null when no store request asked (admin, jobs), or once the
   * service failed the request's send in passing (its slot is then no client's share).
   */
  client_key: string | null;
  /** The cart e-mail's key (client-origin.ts `emailKey`), when a store request asked. */
  email_key: string | null;
  /** The payer document's pseudonymous key (client-origin.ts `payerKey`), if it had one. */
  payer_key: string | null;
  /** Who vouched that a shopper asked (client-origin.ts `Vouch`); null: nobody. */
  vouched_by: Vouch | null;
}

/** A create a payment session asks for. */
export interface NewCreateRequest {
  budgetKey: string;
  providerKey: string;
  providerId: string;
  method: PaymentMethod;
  sessionId: string;
  paymentCollectionId: string | null;
  salesChannelId: string | null;
  amountCents: number;
  input: ClientCreateChargeInput;
  /**
   * Who asked (the store's session route); absent for creates no client asked for. `holdId`
   * is the place `admit` kept for it, given back as the request joins the line.
   */
  origin?: { clientKey: string; emailKey: string; vouchedBy?: Vouch | null; holdId?: string };
}

/** A session request refused a place in line, and for how long (`Retry-After`). */
export interface WaitingRefusal {
  /** Which cap was reached, and how many wait for it (holds included). */
  over: WaitingCap;
  waiting: number;
  /** How long the client's refusal stands (ms): asking again sooner is refused again. */
  retryAfterMs: number;
  /** Refused because an earlier refusal of the client still stands (`over` is that one's). */
  earlier: boolean;
  /** Refused after waiting this long for its client's turn in the process (client-turns.ts). */
  waitedMs?: number;
}

/**
 * What `admit` decided for a session request; admitted, with who vouches for it in the line
 * (the request's own vouch, or its proven mailbox's, or none).
 */
export type Admission =
  | { admitted: true; holdId: string; vouchedBy: Vouch | null }
  | ({ admitted: false } & WaitingRefusal);

/** What the line holds for one client, read in one query (the session route's early refusal). */
export interface ClientStanding {
  /** `client`: its waiting creates and holds, plus what it holds (`holding`). */
  counts: WaitingCounts;
  /** Its live unpaid codes and creates in flight (`CreateQueue.holdingOf`). */
  holding: number;
  /** When the client's oldest slot in the window frees (ms from now), if it holds one. */
  clientSlotFreesInMs: number | null;
  /** Its refusal still standing, if any. */
  refusal: RefusalInForce | null;
}

/** How long a boleto counts as held (fair-options.ts); the option's default when absent. */
export interface HoldingRule {
  /** Minutes an unpaid boleto counts as held after its page showed it. */
  boletoHeldMinutes?: number;
}

/** How the budget is shared among clients (fair-options.ts); absent fields take the defaults. */
export interface FairShare extends HoldingRule {
  /** Slots one client address may hold in the window. */
  clientCreatesPerMinute: number;
  /** Sends that may go at once after a quiet spell; then one per token (pacing.ts). */
  burstCreates?: number;
  /** Of the burst and of the window, what only a first code may take (pacing.ts). */
  firstCodeReserve?: number;
  /** Of the window, what only a vouched create may take (pacing.ts). */
  vouchedReserve?: number;
}

/** The `fairness` defaults, for a share or a rule that leaves a field out. */
const DEFAULTS = fairOptionsSchema.parse({});

/** The pace of a budget of `limit` creates a window, as `share` sets it (pacing.ts). */
const paceFor = (limit: number, share: FairShare): Pace =>
  paceOf(limit, CREATE_WINDOW_MS, {
    burstCreates: share.burstCreates ?? DEFAULTS.burstCreates,
    firstCodeReserve: share.firstCodeReserve ?? DEFAULTS.firstCodeReserve,
    vouchedReserve: share.vouchedReserve ?? DEFAULTS.vouchedReserve,
  });

/** What one grant did. */
export interface Grant {
  /** Requests now `sending`, for the caller to send, in line order. */
  granted: CreateRequestRow[];
  /** Requests still waiting after this grant. */
  waiting: number;
  /** When the next slot opens (ms from now, database clock), if anyone still waits. */
  nextOpeningMs: number | null;
  /** Client addresses whose waiting creates were held back by their share of the minute. */
  heldBack: string[];
}

/** Where a waiting request stands. */
export interface LinePlace {
  /** Requests ahead of it. */
  ahead: number;
  /** Earliest the budget lets it be sent, from now (ms); 0 when it could go now. */
  readyInMs: number;
}

const REQUESTS = "pix_checkout_create_request";
/**
 * Places kept by `admit` for session requests between the session gate and the provider's
 * create, so requests of one client arriving together are counted against its cap together.
 */
const HOLDS = "pix_checkout_create_hold";
/** A hold outlives its request only if the process died mid-request; it then lapses. */
const HOLD_MS = 2 * 60_000;
/** How soon a grant looks again when only clients' own in-flight slots hold them back. */
const SHARE_RECHECK_MS = 1_000;
const BUDGETS = "pix_checkout_create_budget";
const CHARGES = "pix_checkout_charge";
/**
 * How far back a client's unpaid codes count as what it holds: the line keeps its ended
 * requests this long (`ENDED_REQUEST_RETENTION_MS`), and a code older than a day is no flood's.
 */
const HOLDING_WINDOW = `interval '${ENDED_REQUEST_RETENTION_MS / 1000} seconds'`;
/**
 * The requests (aliased `r`, its charge `c` left-joined) that are something their client holds:
 * on their way to the service, or done with a code still live and unpaid (`holdingOf`).
 */
const HOLDING_FROM = `${REQUESTS} r
  left join ${CHARGES} c on c.charge_id = r.charge_id and c.deleted_at is null`;
/**
 * What a request waits behind in the store's count (`storeWaitingMax`): every waiting create
 * and live place, or, for a vouched request, the vouched ones and the creates no client asked
 * for, which the line serves before everything else (holding-order.ts). A flood nobody vouched
 * for then never fills the line a storefront's shoppers wait in. SQL conditions on `REQUESTS`
 * and `HOLDS` rows, to append after a `where`.
 */
function waitingBehind(vouchedBy: Vouch | null): { requests: string; holds: string } {
  return vouchedBy
    ? {
        requests: "and (vouched_by is not null or client_key is null)",
        holds: "and vouched_by is not null",
      }
    : { requests: "", holds: "" };
}

/**
 * Whether a client's earlier refusal still stands for this request: a refusal for a full line
 * nobody vouched for does not stand for a vouched request, which waits in the vouched line
 * (`waitingBehind`); one for a full vouched line stands for both (the vouched line is part of
 * the other). A refusal for the client's own caps is the client's, whatever line it asks in.
 */
function standingFor(
  refusal: RefusalInForce | null,
  vouchedBy: Vouch | null,
): RefusalInForce | null {
  return refusal && vouchedBy && refusal.over === "store" && !refusal.vouchedBy ? null : refusal;
}

/**
 * The condition on `HOLDING_FROM` that a request is something its client holds. A boleto counts
 * only for `boletoHeldMinutes` after its page showed it (or after its create, if none did): it
 * stays payable for days, and a day of them would shut a shared address out (fair-options.ts).
 */
function holdsSomething(rule: HoldingRule): string {
  const minutes = Math.max(0, Math.floor(rule.boletoHeldMinutes ?? DEFAULTS.boletoHeldMinutes));
  return `(r.state = 'sending'
  or (r.state = 'done' and r.done_at > now() - ${HOLDING_WINDOW}
    and c.status = 'pending' and c.superseded_at is null
    and (c.expires_at is null or c.expires_at > now())
    and (r.method <> 'boleto'
      or coalesce(c.shown_at, r.done_at) > now() - interval '${minutes * 60} seconds')))`;
}
const WINDOW = `interval '${CREATE_WINDOW_MS / 1000} seconds'`;
/**
 * How long ago each send of a budget (`?`) within the window went, in ms: the pace's tokens
 * (pacing.ts). Every `POST /charges` has a row of its own with its `sent_at` (a spent send's row
 * keeps it), and a send of the window is in flight or answered within it, which the window's
 * indexes find.
 */
const SENT_AGES = `(select
     coalesce(json_agg(extract(epoch from now() - sent_at) * 1000), '[]'::json)
   from ${REQUESTS}
   where budget_key = ? and (state = 'sending' or done_at > now() - ${WINDOW})
     and sent_at > now() - ${WINDOW})`;

/** A row of the counts `admit` and `standing` read. */
interface StandingRow {
  client: string | null;
  email?: string | null;
  store?: string | null;
  frees_ms: string | null;
  refused_ms: string | null;
  refused_cap: string | null;
  refused_vouched_by: string | null;
}

const freesMsOf = (r: StandingRow): number | null =>
  r.frees_ms == null ? null : Math.max(0, Number(r.frees_ms));

const row = (r: CreateRequestRow): CreateRequestRow => ({
  ...r,
  seq: String(r.seq),
  amount_cents: Number(r.amount_cents),
});

/**
 * All SQL of the create line. Every decision about the budget is taken by the database clock,
 * under one advisory lock per budget, so any number of server and worker instances share the
 * service's 60 creates a minute and serve them fairly among clients (`grant`). The budget counts
 * sends, not requests: every `POST /charges` is one row's slot (see `SPENT_SEND`).
 */
export class CreateQueue {
  constructor(private readonly db: Knex) {}

  /** Joins the line; an older request of the same session still waiting leaves it. */
  async enqueue(request: NewCreateRequest): Promise<CreateRequestRow> {
    return this.db.transaction(async (trx) => {
      // The request takes over its hold's place in the counts, in the same transaction.
      if (request.origin?.holdId) {
        await trx(HOLDS).where({ id: request.origin.holdId }).delete();
      }
      await trx(REQUESTS)
        .where({ session_id: request.sessionId, state: "waiting" })
        .update({ state: "canceled", input: null, done_at: null });
      const [saved] = (await trx(REQUESTS)
        .insert({
          id: generateEntityId(undefined, "pxcr"),
          budget_key: request.budgetKey,
          provider_key: request.providerKey,
          provider_id: request.providerId,
          method: request.method,
          session_id: request.sessionId,
          payment_collection_id: request.paymentCollectionId,
          sales_channel_id: request.salesChannelId,
          amount_cents: request.amountCents,
          input: JSON.stringify(request.input),
          client_key: request.origin?.clientKey ?? null,
          email_key: request.origin?.emailKey ?? null,
          vouched_by: request.origin?.vouchedBy ?? null,
          // Kept after the payer data is dropped: an order-first order is counted by it.
          payer_key: payerKey(request.input.customer?.document),
        })
        .returning("*")) as CreateRequestRow[];
      return row(saved as CreateRequestRow);
    });
  }

  /**
   * Hands out the budget's free slots, fairly. A slot is taken from when a request is sent
   * until a window after its answer: counting from the answer, not the send, keeps the
   * guarantee against a service that counts arrivals. A request sent again takes a new slot;
   * the slots of its earlier sends stay taken (`requeue`).
   *
   * Fair, not first come: by what each client already holds (holding-order.ts), its n-th
   * waiting request coming at turn (its unpaid codes and creates in flight + n), the lowest
   * turns first, oldest first among equals; within an address, its e-mails take turns the same
   * way. A shopper with no code yet goes before every client holding one. A client holding
   * `clientCreatesPerMinute` slots waits for one of them to free even when the budget has
   * room, so one client can never take the minute from shoppers who arrive after it. Requests
   * no client asked for (admin, jobs) keep the first turn, in the order they joined.
   *
   * Paced, not in a burst (pacing.ts): a send also needs a token of the minute, read from the
   * sends of the last window under the same lock, and a create of a client that holds something
   * leaves the reserve's tokens and slots to first codes. The window's limit still holds on its
   * own: the pace only ever sends less, never more.
   *
   * `canSend` says which registrations this process can send for; the grant stops at the
   * first request it cannot (another instance will), so the order always holds.
   */
  async grant(
    budgetKey: string,
    limit: number,
    canSend: (providerKey: string) => boolean,
    share: FairShare = { clientCreatesPerMinute: limit },
  ): Promise<Grant> {
    return this.db.transaction(async (trx) => {
      await trx.raw(`select pg_advisory_xact_lock(hashtext(?))`, [
        `pix_checkout_create:${budgetKey}`,
      ]);
      const used = await this.inWindow(trx, budgetKey);
      const paused = used.pausedMs > 0;
      const pace = new MinutePace(paceFor(limit, share), used.sentAgesMs, used.count, limit);
      // What the pace held back first: a first code if one was, else another create.
      const stopNow = paused ? null : pace.stop("first_code", 0);
      let paceStop: { stop: PaceStop; asker: Asker } | null =
        stopNow === null ? null : { stop: stopNow, asker: "first_code" };
      // Out of tokens, or past what the rest may take of the window, a vouched create may still
      // go (pacing.ts): the line is read unless the window itself is full.
      const full = !paused && pace.stop("vouched", 0) === "window";
      const line = paused || full ? [] : await this.fairOrder(trx, budgetKey, share);
      const ids: string[] = [];
      const heldBy = new Map<string, number>();
      const sentNow = new Map<string, number>();
      const heldBack = new Set<string>();
      for (const candidate of line) {
        const client = candidate.client_key;
        const held = client === null ? 0 : (heldBy.get(client) ?? Number(candidate.held));
        if (client !== null && held >= share.clientCreatesPerMinute) {
          heldBack.add(client);
          continue;
        }
        // Holding nothing live, counting what this grant sends it: the client's first code.
        const firstCode = client === null || candidate.holding + (sentNow.get(client) ?? 0) === 0;
        const asker: Asker = candidate.vouched_by
          ? "vouched"
          : client === null
            ? "store"
            : firstCode
              ? "first_code"
              : "holding";
        const stop = pace.stop(asker, ids.length);
        if (stop !== null) {
          // No later create can go if a first code cannot (the vouched and the store's own are
          // served first); a later first code may go when only the reserve held this one back.
          if (firstCode) {
            paceStop = { stop, asker };
            break;
          }
          paceStop ??= { stop, asker };
          continue;
        }
        if (!canSend(candidate.provider_key)) break;
        if (client !== null) {
          heldBy.set(client, held + 1);
          sentNow.set(client, (sentNow.get(client) ?? 0) + 1);
        }
        ids.push(candidate.id);
      }
      const granted =
        ids.length === 0
          ? []
          : ((await trx(REQUESTS)
              .whereIn("id", ids)
              .update({
                state: "sending",
                sent_at: trx.raw("now()"),
                lease_until: trx.raw(`now() + interval '${SEND_LEASE_MS / 1000} seconds'`),
              })
              .returning("*")) as CreateRequestRow[]);
      const order = new Map(ids.map((id, i) => [id, i]));
      granted.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
      const waitingRow = (await trx(REQUESTS)
        .where({ budget_key: budgetKey, state: "waiting" })
        .count({ n: "*" })
        .first()) as { n: string | number } | undefined;
      const waiting = Number(waitingRow?.n ?? 0);
      let nextOpeningMs: number | null = null;
      if (waiting > 0) {
        if (paused) nextOpeningMs = used.pausedMs;
        else if (used.firstCloseMs !== null) nextOpeningMs = Math.max(0, used.firstCloseMs);
        else if (paceStop === null && heldBack.size === 0) nextOpeningMs = 0;
        // Only a client's own slots hold it back, all still in flight: look again shortly.
        else if (heldBack.size > 0) nextOpeningMs = SHARE_RECHECK_MS;
        // The pace held a create back: its next token lets it go, sooner than a slot frees.
        if (!paused && paceStop?.stop === "tokens") {
          const tokenMs = pace.nextInMs(paceStop.asker, ids.length);
          nextOpeningMs = Math.min(nextOpeningMs ?? tokenMs, tokenMs);
        }
      }
      return { granted: granted.map(row), waiting, nextOpeningMs, heldBack: [...heldBack] };
    });
  }

  /**
   * The waiting requests in the order they are served (holding-order.ts), each with the slots
   * its client holds in the window (its share, `grant`). Every waiting request is read: the
   * store's cap (`storeWaitingMax`) keeps them few, and a newcomer's request, the newest of all,
   * must be seen to go first.
   */
  private async fairOrder(
    trx: Knex,
    budgetKey: string,
    rule: HoldingRule,
  ): Promise<(OrderedCreate & { held: number })[]> {
    const waiting = (await trx(REQUESTS)
      .select("id", "provider_key", "seq", "client_key", "email_key", "vouched_by")
      .where({ budget_key: budgetKey, state: "waiting" })
      .orderBy("seq", "asc")) as WaitingCreate[];
    if (waiting.length === 0) return [];
    const clients = [
      ...new Set(waiting.map((w) => w.client_key).filter((k): k is string => k !== null)),
    ];
    const slots = new Map<string, number>();
    const holding = new Map<string, number>();
    if (clients.length > 0) {
      const result = (await trx.raw(
        `select client_key, count(*) as slots from ${REQUESTS}
          where budget_key = ? and client_key = any(?)
            and (state = 'sending' or done_at > now() - ${WINDOW})
          group by client_key`,
        [budgetKey, clients],
      )) as { rows: { client_key: string; slots: string }[] };
      for (const r of result.rows) slots.set(r.client_key, Number(r.slots));
      for (const [client, n] of await this.holdingOf(trx, clients, rule)) holding.set(client, n);
    }
    return orderByHolding(
      waiting.map((w) => ({ ...w, seq: String(w.seq) })),
      (client) => holding.get(client) ?? 0,
    ).map((create) => ({
      ...create,
      held: create.client_key === null ? 0 : (slots.get(create.client_key) ?? 0),
    }));
  }

  /**
   * What each client holds, by the plugin's own records: its creates on their way to the
   * service, and the codes the line made for it in the last `HOLDING_WINDOW` that are still
   * live and unpaid (pending, not superseded, not expired; a boleto only for `boletoHeldMinutes`
   * after it was shown). Paid, expired, canceled or replaced codes stop counting the moment their
   * charge row says so.
   */
  async holdingOf(
    db: Knex,
    clients: readonly string[],
    rule: HoldingRule = {},
  ): Promise<Map<string, number>> {
    const result = (await db.raw(
      `select r.client_key, count(*) as n from ${HOLDING_FROM}
        where r.client_key = any(?) and ${holdsSomething(rule)}
        group by r.client_key`,
      [clients as string[]],
    )) as { rows: { client_key: string; n: string }[] };
    return new Map(result.rows.map((r) => [r.client_key, Number(r.n)]));
  }

  /**
   * Slots taken in the window, when the first of them frees (ms from now, null when every
   * slot is still in flight), how long a pause lasts, and how long ago each send of the window
   * went (the pace's tokens, pacing.ts).
   */
  private async inWindow(
    trx: Knex,
    budgetKey: string,
  ): Promise<{
    count: number;
    firstCloseMs: number | null;
    pausedMs: number;
    sentAgesMs: number[];
  }> {
    const result = (await trx.raw(
      `select
         (select count(*) from ${REQUESTS}
           where budget_key = ? and (state = 'sending' or done_at > now() - ${WINDOW})) as count,
         ${SENT_AGES} as sent_ages,
         (select extract(epoch from (min(done_at) + ${WINDOW} - now())) * 1000 from ${REQUESTS}
           where budget_key = ? and state <> 'sending' and done_at > now() - ${WINDOW}) as first_close_ms,
         (select greatest(0, extract(epoch from (paused_until - now())) * 1000) from ${BUDGETS}
           where budget_key = ?) as paused_ms`,
      [budgetKey, budgetKey, budgetKey, budgetKey],
    )) as {
      rows: {
        count: string;
        sent_ages: (number | string)[];
        first_close_ms: string | null;
        paused_ms: string | null;
      }[];
    };
    const r = result.rows[0];
    return {
      count: Number(r?.count ?? 0),
      firstCloseMs: r?.first_close_ms == null ? null : Math.ceil(Number(r.first_close_ms)),
      pausedMs: r?.paused_ms == null ? 0 : Math.ceil(Number(r.paused_ms)),
      sentAgesMs: (r?.sent_ages ?? []).map(Number),
    };
  }

  /**
   * Where a waiting request stands, by the same rule the grant follows: the requests served
   * before it (clients in turn), the slots in the window freeing in order, each serving the
   * next, a window later serving the next round, its own client's share, and the pace's tokens
   * (one create a token once the burst is spent). An estimate: a slot in flight is taken to
   * free a window from now.
   */
  async place(
    request: CreateRequestRow,
    limit: number,
    share: FairShare = { clientCreatesPerMinute: limit },
  ): Promise<LinePlace> {
    const result = (await this.db.raw(
      `select
         (select count(*) from ${REQUESTS}
           where budget_key = ? and state = 'sending') as sending,
         (select coalesce(json_agg(ms order by ms), '[]'::json) from (
            select extract(epoch from (done_at + ${WINDOW} - now())) * 1000 as ms from ${REQUESTS}
             where budget_key = ? and state <> 'sending' and done_at > now() - ${WINDOW}) closes) as closes,
         (select greatest(0, extract(epoch from (paused_until - now())) * 1000) from ${BUDGETS}
           where budget_key = ?) as paused_ms,
         ${SENT_AGES} as sent_ages,
         (select count(*) from ${REQUESTS}
           where budget_key = ? and client_key = ? and state = 'waiting' and seq < ?) as own_ahead,
         (select count(*) from ${REQUESTS}
           where budget_key = ? and client_key = ?
             and (state = 'sending' or done_at > now() - ${WINDOW})) as own_held`,
      [
        request.budget_key,
        request.budget_key,
        request.budget_key,
        request.budget_key,
        request.budget_key,
        request.client_key,
        request.seq,
        request.budget_key,
        request.client_key,
      ],
    )) as {
      rows: {
        sending: string;
        closes: number[];
        paused_ms: string | null;
        sent_ages: (number | string)[];
        own_ahead: string;
        own_held: string;
      }[];
    };
    const r = result.rows[0];
    // Requests served before this one, in the grant's own order (clients in turn).
    const order = await this.fairOrder(this.db, request.budget_key, share);
    const index = order.findIndex((candidate) => candidate.id === request.id);
    const ahead = index === -1 ? order.length : index;
    const closes = (r?.closes ?? []).map(Number);
    for (let i = 0; i < Number(r?.sending ?? 0); i += 1) closes.push(CREATE_WINDOW_MS);
    const free = Math.max(0, limit - closes.length);
    const paused = r?.paused_ms == null ? 0 : Number(r.paused_ms);
    // A client past its share waits for its own slots too: its k-th request beyond the share
    // goes about a window after the one `share` places before it.
    const ownTurn = Number(r?.own_held ?? 0) + Number(r?.own_ahead ?? 0);
    const ownWaitMs =
      request.client_key === null || ownTurn < share.clientCreatesPerMinute
        ? 0
        : Math.floor(ownTurn / share.clientCreatesPerMinute) * CREATE_WINDOW_MS;
    // A vouched create waits for no token (pacing.ts), only for the window and its turn.
    const paceMs = request.vouched_by
      ? 0
      : new MinutePace(
          paceFor(limit, share),
          (r?.sent_ages ?? []).map(Number),
          closes.length,
          limit,
        ).readyInMs(ahead);
    if (ahead < free) {
      return { ahead, readyInMs: Math.ceil(Math.max(paused, ownWaitMs, paceMs)) };
    }
    // The slots free in order; the ones still free now serve now and free a window later.
    const slots = [...closes.slice(0, limit), ...Array<number>(free).fill(CREATE_WINDOW_MS)];
    const i = ahead - free;
    const at = (slots[i % limit] ?? CREATE_WINDOW_MS) + Math.floor(i / limit) * CREATE_WINDOW_MS;
    return {
      ahead,
      readyInMs: Math.max(Math.ceil(at), Math.ceil(paused), ownWaitMs, Math.ceil(paceMs)),
    };
  }

  /**
   * Lets a store's session request ask for a create, or says which cap it meets: creates of
   * the client waiting in line (or held for a request on its way there) against
   * `clientWaitingMax`, the same for the e-mail key from any client against `emailWaitingMax`,
   * and the whole line against `storeWaitingMax`, whose last `storeReserve` places only a client
   * holding fewer than `storeReserveBelow` may take (waiting-caps.ts); a client holding nothing
   * meets the first codes waiting instead (`firstCodesWaiting`). A request its storefront
   * vouched for (`vouchedBy`) is counted against the vouched creates only, the line it waits in
   * (`waitingBehind`): a flood nobody vouched for cannot fill it. A request nobody vouched for
   * whose mailbox is proven (`provenMailbox`: an order paid here, medusa/buyers.ts) is vouched
   * for by it when that mailbox holds nothing in the line now, no create waiting or held and no
   * live unpaid code, read under the mailbox's lock (client-origin.ts `Vouch`). A client refused any cap
   * is refused again until its `Retry-After` has passed, even when a place frees sooner
   * (client-refusals.ts). Counted and held under the client's and the e-mail's locks, so
   * requests arriving together never pass a cap together, on any number of instances. An
   * admitted request holds its place until `enqueue` takes it over or `releaseHold` frees it.
   * The session route's early refusal (`standing`) only ever refuses what this would.
   */
  async admit(
    clientKey: string,
    emailKey: string,
    caps: WaitingCaps & HoldingRule,
    askedVouch: Vouch | null = null,
    provenMailbox = false,
  ): Promise<Admission> {
    return this.db.transaction(async (trx) => {
      // Always the address's lock first, then the e-mail's, then the store's (held only for
      // the count and the hold): no two admissions wait on each other.
      await trx.raw(`select pg_advisory_xact_lock(hashtext(?))`, [
        `pix_checkout_client:${clientKey}`,
      ]);
      await trx.raw(`select pg_advisory_xact_lock(hashtext(?))`, [
        `pix_checkout_email:${emailKey}`,
      ]);
      await trx(HOLDS)
        .where((q) => q.where({ client_key: clientKey }).orWhere({ email_key: emailKey }))
        .where("expires_at", "<", trx.raw("now()"))
        .delete();
      const result = (await trx.raw(
        `select
           (select count(*) from ${REQUESTS} where state = 'waiting' and client_key = ?)
             + (select count(*) from ${HOLDS} where client_key = ?)
             + (select count(*) from ${HOLDING_FROM}
                 where r.client_key = ? and ${holdsSomething(caps)}) as client,
           (select count(*) from ${REQUESTS} where state = 'waiting' and email_key = ?)
             + (select count(*) from ${HOLDS} where email_key = ?) as email,
           (select extract(epoch from (min(done_at) + ${WINDOW} - now())) * 1000 from ${REQUESTS}
             where client_key = ? and done_at > now() - ${WINDOW}) as frees_ms,
           ${REFUSAL_IN_FORCE_COLUMNS}`,
        [
          ...[clientKey, clientKey, clientKey, emailKey, emailKey, clientKey],
          ...[clientKey, clientKey, clientKey],
        ],
      )) as { rows: StandingRow[] };
      const r = result.rows[0] as StandingRow;
      const client = Number(r.client ?? 0);
      const email = Number(r.email ?? 0);
      const vouchedBy =
        askedVouch ??
        (provenMailbox && email === 0 && (await this.mailboxHolding(emailKey, caps, trx)) === 0
          ? "mailbox"
          : null);
      const behind = waitingBehind(vouchedBy);
      const earlier = standingFor(refusalInForce(r), vouchedBy);
      if (earlier) {
        return { admitted: false as const, ...earlier, waiting: client, earlier: true };
      }
      const counts: WaitingCounts = { client, email, store: null };
      let over = capReached(counts, caps);
      if (!over) {
        await trx.raw(`select pg_advisory_xact_lock(hashtext('pix_checkout_store_line'))`);
        // Live holds only: a hold whose request died lapses by itself.
        const total = (await trx.raw(
          `select (select count(*) from ${REQUESTS} where state = 'waiting' ${behind.requests})
                + (select count(*) from ${HOLDS} where expires_at > now() ${behind.holds}) as n`,
        )) as { rows: { n: string }[] };
        counts.store = Number(total.rows[0]?.n ?? 0);
        // Under the same lock: first codes admitted together are counted together.
        if (needsFirstCodes(counts, caps)) {
          counts.firstCodes = await this.firstCodesWaiting(caps, trx, vouchedBy);
        }
        over = capReached(counts, caps);
      }
      if (over) {
        const retry = retryAfterMs(over, freesMsOf(r), CREATE_WINDOW_MS);
        await new ClientRefusals(trx).record(clientKey, over, retry, vouchedBy);
        const store = counts.firstCodes ?? counts.store ?? 0;
        return {
          admitted: false as const,
          over,
          waiting: over === "client" ? client : over === "email" ? email : store,
          retryAfterMs: retry,
          earlier: false,
        };
      }
      const holdId = generateEntityId(undefined, "pxch");
      await trx(HOLDS).insert({
        id: holdId,
        client_key: clientKey,
        email_key: emailKey,
        vouched_by: vouchedBy,
        expires_at: trx.raw(`now() + interval '${HOLD_MS / 1000} seconds'`),
      });
      return { admitted: true as const, holdId, vouchedBy };
    });
  }

  /**
   * What a mailbox holds in the line from any address: its creates on their way to the service
   * and its live unpaid codes (`holdsSomething`), by the e-mail index of the ended requests.
   */
  private async mailboxHolding(emailKey: string, rule: HoldingRule, db: Knex): Promise<number> {
    const result = (await db.raw(
      `select count(*) as n from ${HOLDING_FROM} where r.email_key = ? and ${holdsSomething(rule)}`,
      [emailKey],
    )) as { rows: { n: string }[] };
    return Number(result.rows[0]?.n ?? 0);
  }

  /**
   * What the line holds for one client, in one indexed query and no lock: its waiting creates
   * and live holds, the whole line's, when its oldest slot frees and its refusal still
   * standing. The session route reads it before anything costly (early-refusal.ts); `admit`
   * stays the authority. `rule`: how long a boleto counts as held (the store's `fairness`).
   */
  async standing(
    clientKey: string,
    rule: HoldingRule = {},
    vouchedBy: Vouch | null = null,
  ): Promise<ClientStanding> {
    const behind = waitingBehind(vouchedBy);
    const result = (await this.db.raw(
      `select
         (select count(*) from ${REQUESTS} where state = 'waiting' and client_key = ?)
           + (select count(*) from ${HOLDS} where client_key = ? and expires_at > now()) as client,
         (select count(*) from ${HOLDING_FROM}
           where r.client_key = ? and ${holdsSomething(rule)}) as holding,
         (select count(*) from ${REQUESTS} where state = 'waiting' ${behind.requests})
           + (select count(*) from ${HOLDS} where expires_at > now() ${behind.holds}) as store,
         (select extract(epoch from (min(done_at) + ${WINDOW} - now())) * 1000 from ${REQUESTS}
           where client_key = ? and done_at > now() - ${WINDOW}) as frees_ms,
         ${REFUSAL_IN_FORCE_COLUMNS}`,
      [clientKey, clientKey, clientKey, clientKey, clientKey, clientKey, clientKey],
    )) as { rows: (StandingRow & { holding: string })[] };
    const r = result.rows[0] as StandingRow & { holding: string };
    const holding = Number(r.holding ?? 0);
    return {
      counts: {
        client: Number(r.client ?? 0) + holding,
        email: null,
        store: Number(r.store ?? 0),
      },
      holding,
      clientSlotFreesInMs: freesMsOf(r),
      refusal: standingFor(refusalInForce(r), vouchedBy),
    };
  }

  /**
   * The creates a new shopper's first code would wait behind, in every budget: one first code
   * per client that waits (or holds a place on its way in) and holds nothing live, and the
   * creates no client asked for (holding-order.ts serves both before any other). Read only when
   * a client holding nothing meets a full line (waiting-caps.ts `needsFirstCodes`): one pass
   * over the waiting creates, each client looked up once by the holding index.
   */
  async firstCodesWaiting(
    rule: HoldingRule = {},
    db: Knex = this.db,
    vouchedBy: Vouch | null = null,
  ): Promise<number> {
    const behind = waitingBehind(vouchedBy);
    const result = (await db.raw(
      `select
         (select count(*) from ${REQUESTS} where state = 'waiting' and client_key is null)
         + (select count(*) from (
             select client_key from ${REQUESTS}
               where state = 'waiting' and client_key is not null ${behind.requests}
             union
             select client_key from ${HOLDS} where expires_at > now() ${behind.holds}) asking
           where not exists (select 1 from ${HOLDING_FROM}
             where r.client_key = asking.client_key and ${holdsSomething(rule)})) as n`,
    )) as { rows: { n: string }[] };
    return Number(result.rows[0]?.n ?? 0);
  }

  /** Records a refusal the line did not decide itself (the early refusal's), as `admit` does. */
  async refuse(
    clientKey: string,
    over: WaitingCap,
    retryMs: number,
    vouchedBy: Vouch | null,
  ): Promise<void> {
    await new ClientRefusals(this.db).record(clientKey, over, retryMs, vouchedBy);
  }

  /** The request ended without joining the line (refused, failed, answered): its place frees. */
  async releaseHold(holdId: string): Promise<void> {
    await this.db(HOLDS).where({ id: holdId }).delete();
  }

  /**
   * The answer arrived and the charge is recorded: the request is done (its slot stays taken
   * for a window from now). Returns whether the session was deleted meanwhile.
   */
  async finish(id: string, chargeId: string): Promise<{ cancelRequested: boolean }> {
    const [done] = (await this.db(REQUESTS)
      .where({ id })
      .update({
        state: "done",
        charge_id: chargeId,
        input: null,
        done_at: this.db.raw("now()"),
        lease_until: null,
      })
      .returning(["cancel_requested"])) as { cancel_requested: boolean }[];
    return { cancelRequested: done?.cancel_requested ?? false };
  }

  /**
   * The service refused the create: the request ends, saying why (no payer data kept).
   * `servicesFault`: it failed in passing (a 5xx, a timeout, no answer); its slot stays in the
   * budget but leaves its client's share (`client_key` is cleared), since the client did not
   * spend it.
   */
  async fail(
    id: string,
    code: string,
    message: string,
    sent = true,
    servicesFault = false,
  ): Promise<void> {
    await this.db(REQUESTS)
      .where({ id })
      .update({
        state: "failed",
        input: null,
        error_code: code,
        error_message: message.slice(0, 500),
        lease_until: null,
        ...(sent ? { done_at: this.db.raw("now()") } : {}),
        ...(servicesFault ? { client_key: null, email_key: null } : {}),
      });
  }

  /**
   * The request goes back to its place: the service answered 429 anyway (something else
   * spends the same limit), or failed in passing (`passing`: a 5xx, a timeout, no answer).
   * The send still reached (or may have reached) the service, so its slot stays taken for a
   * window after this answer, in a row of its own (`SPENT_SEND`), and the request's next send
   * takes a slot of its own. The budget pauses for `pauseMs` (until the service's reset; a
   * moment after a failure), so no instance sends into the same refusal.
   */
  async requeue(
    id: string,
    budgetKey: string,
    pauseMs: number,
    failure: { code: string; message: string },
    passing: boolean,
  ): Promise<void> {
    await this.db.transaction(async (trx) => {
      await trx.raw(
        `insert into ${REQUESTS} (id, seq, budget_key, provider_key, provider_id, method,
           session_id, payment_collection_id, sales_channel_id, amount_cents, state, enqueued_at,
           sent_at, done_at, attempts, error_code, error_message)
         select ?, seq, budget_key, provider_key, provider_id, method,
           session_id, payment_collection_id, sales_channel_id, amount_cents, 'failed', now(),
           sent_at, now(), attempts, ?, ?
         from ${REQUESTS} where id = ?`,
        [
          generateEntityId(undefined, "pxcr"),
          SPENT_SEND,
          `${failure.code}: ${failure.message}`.slice(0, 500),
          id,
        ],
      );
      await trx(REQUESTS)
        .where({ id })
        .update({
          state: "waiting",
          lease_until: null,
          // The spent send's row holds its slot; the request holds one again when re-sent.
          done_at: null,
          ...(passing
            ? {
                attempts: trx.raw("attempts + 1"),
                error_code: failure.code,
                error_message: failure.message.slice(0, 500),
              }
            : {}),
        });
      const until = trx.raw(`now() + (? * interval '1 millisecond')`, [Math.max(1000, pauseMs)]);
      await trx(BUDGETS)
        .insert({ budget_key: budgetKey, paused_until: until })
        .onConflict("budget_key")
        .merge({
          paused_until: trx.raw(`greatest(${BUDGETS}.paused_until, excluded.paused_until)`),
        });
    });
  }

  /** Takes a request that is still waiting out of the line. */
  async cancel(id: string): Promise<void> {
    await this.db(REQUESTS)
      .where({ id, state: "waiting" })
      .update({ state: "canceled", input: null });
  }

  /**
   * The session was deleted (cart changed, method switched): a request still waiting leaves
   * the line; one in flight is marked, so its charge is recorded as superseded.
   */
  async cancelForSession(sessionId: string): Promise<void> {
    await this.db(REQUESTS)
      .where({ session_id: sessionId, state: "waiting" })
      .update({ state: "canceled", input: null });
    await this.db(REQUESTS)
      .where({ session_id: sessionId, state: "sending" })
      .update({ cancel_requested: true });
  }

  /**
   * A collection was paid: the creates its sessions still wait for are no longer wanted (a
   * paid cart gets no second code). One being sent is asked to stop, like a session's.
   */
  async cancelForCollection(collectionId: string): Promise<void> {
    // `state` first: the open requests are few, whatever the history (IDX_..._open).
    await this.db(REQUESTS)
      .whereIn("state", ["waiting"])
      .where({ payment_collection_id: collectionId })
      .update({ state: "canceled", input: null });
    await this.db(REQUESTS)
      .whereIn("state", ["sending"])
      .where({ payment_collection_id: collectionId })
      .update({ cancel_requested: true });
  }

  /**
   * Each budget with requests in flight, waiting or answered in the window: slots taken and
   * requests waiting (the telemetry gauges; the partial indexes keep it small).
   */
  async usage(): Promise<{ budgetKey: string; used: number; waiting: number }[]> {
    const result = (await this.db.raw(
      `select budget_key,
         count(*) filter (where state = 'sending' or done_at > now() - ${WINDOW}) as used,
         count(*) filter (where state = 'waiting') as waiting
       from ${REQUESTS}
       where state in ('waiting', 'sending') or done_at > now() - ${WINDOW}
       group by budget_key`,
    )) as { rows: { budget_key: string; used: string; waiting: string }[] };
    return result.rows.map((r) => ({
      budgetKey: r.budget_key,
      used: Number(r.used),
      waiting: Number(r.waiting),
    }));
  }

  /** One request. */
  async byId(id: string): Promise<CreateRequestRow | undefined> {
    const found = (await this.db(REQUESTS).where({ id }).first()) as CreateRequestRow | undefined;
    return found ? row(found) : undefined;
  }

  /** The session's latest request (never a spent send's row). */
  async latestOfSession(sessionId: string): Promise<CreateRequestRow | undefined> {
    const found = (await this.db(REQUESTS)
      .where({ session_id: sessionId })
      .whereRaw("error_code is distinct from ?", [SPENT_SEND])
      .orderBy("seq", "desc")
      .first()) as CreateRequestRow | undefined;
    return found ? row(found) : undefined;
  }

  /**
   * Requests that failed before `before` and whose order nobody has looked at yet (settlement/
   * failed-creates.ts), oldest first, read on the partial index
   * IDX_pix_checkout_create_request_failed_undecided. Spent sends (`error_code` `SPENT_SEND`)
   * are among them: they keep a slot only, and are marked decided with the rest.
   */
  async failedUndecided(before: Date, limit: number): Promise<CreateRequestRow[]> {
    const found = (await this.db(REQUESTS)
      .where({ state: "failed" })
      .whereNull("failure_decided_at")
      .where("done_at", "<", before)
      .orderBy("done_at", "asc")
      .limit(limit)) as CreateRequestRow[];
    return found.map(row);
  }

  /**
   * A failed request left its order for the merchant (settlement/failed-creates.ts): the row
   * names it, is listed (medusa/orders-without-code.ts) and outlives the line's retention.
   */
  async keptOrder(id: string, orderId: string): Promise<void> {
    await this.db(REQUESTS).where({ id }).update({ kept_order_id: orderId });
  }

  /** What a failed request left (an order ended, kept or none) was decided: it is not read again. */
  async failureDecided(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db(REQUESTS)
      .whereIn("id", ids as string[])
      .update({ failure_decided_at: this.db.fn.now() });
  }

  /**
   * Ends waiting requests no registration of this store can send any more (renamed or removed
   * from medusa-config), which would otherwise hold the head of the line forever.
   */
  async failOrphans(knownProviderKeys: readonly string[]): Promise<number> {
    const query = this.db(REQUESTS).where({ state: "waiting" });
    if (knownProviderKeys.length > 0) query.whereNotIn("provider_key", knownProviderKeys);
    const ended = await query.update({
      state: "failed",
      input: null,
      error_code: "provider_not_found",
      error_message: "No provider registration of this store sends this request any more.",
    });
    return Number(ended);
  }

  /** The budgets with requests open (waiting, or sending under a lapsed lease). */
  async openBudgets(): Promise<string[]> {
    const rows = (await this.db(REQUESTS)
      .whereIn("state", ["waiting", "sending"])
      .distinct("budget_key")) as { budget_key: string }[];
    return rows.map((r) => r.budget_key);
  }

  /**
   * Requests whose sender went silent (its process died mid-send), claimed under a new lease
   * so one recovery handles each.
   */
  async claimLapsedSends(budgetKey: string, limit: number): Promise<CreateRequestRow[]> {
    const rows = (await this.db(REQUESTS)
      .whereIn(
        "id",
        this.db(REQUESTS)
          .select("id")
          .where({ budget_key: budgetKey, state: "sending" })
          .where("lease_until", "<", this.db.raw("now()"))
          .orderBy("seq", "asc")
          .limit(limit)
          .forUpdate()
          .skipLocked(),
      )
      .update({
        lease_until: this.db.raw(`now() + interval '${SEND_LEASE_MS / 1000} seconds'`),
      })
      .returning("*")) as CreateRequestRow[];
    return rows.map(row);
  }

  /**
   * Drops ended requests older than `olderThanMs`, at most `limit` of them; never one that names
   * an order kept for the merchant (`keptOrder`): the list reads it while the order waits.
   */
  async prune(olderThanMs: number, limit: number): Promise<number> {
    const deleted = await this.db(REQUESTS)
      .whereIn(
        "id",
        this.db(REQUESTS)
          .select("id")
          .whereIn("state", ["done", "failed", "canceled"])
          .whereNull("kept_order_id")
          .where(
            "enqueued_at",
            "<",
            this.db.raw(`now() - (? * interval '1 millisecond')`, [olderThanMs]),
          )
          .limit(limit),
      )
      .delete();
    // Holds of requests whose process died, for clients that never came back.
    await this.db(HOLDS).where("expires_at", "<", this.db.raw("now()")).delete();
    await new ClientRefusals(this.db).prune(limit);
    await new UnpaidOrders(this.db).prune(limit);
    return Number(deleted);
  }
}
