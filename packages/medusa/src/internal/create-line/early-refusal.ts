import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http";
import { ContainerRegistrationKeys } from "@medusajs/framework/utils";
import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import { createPluginLogger } from "../platform/logger";
import { clientWithVouch } from "./client-of-request";
import { fairOptions, type FairOptions } from "./fair-options";
import { createLineOf } from "./line";
import { CREATE_WINDOW_MS, type CreateQueue } from "./queue";
import { sendWaitingRefusal } from "./refusal-answer";
import { OWN_PROVIDER } from "../platform/provider-registry";
import { capReached, needsFirstCodes, retryAfterMs } from "./waiting-caps";
import { ClientTurns } from "./client-turns";
import { CappedClients, type CapReading } from "./capped-clients";
import type { Vouch } from "./client-origin";
import type { WaitingRefusal } from "./queue";
import { cartHasProvenMailbox } from "./proven-mailbox";

/**
 * Session requests past the early refusal at once in this process. A session workflow waits
 * mostly on the database and the service, so a few at once keep the process busy; more only
 * share the same two cores more thinly, and a shopper's request would run beside more of a
 * flood's.
 */
export const SESSION_TURNS_AT_ONCE = 4;

/**
 * How long a request of a repeat client (a turn this minute, or a code it holds) waits for
 * another before it is answered 429: well inside the 60 s a proxy in front of the store commonly allows, so a
 * flood behind a busy minute of shoppers hears "try again" rather than a timeout. A chaos run
 * with a Redis failover inside the busiest minute saw such requests wait up to 129 s.
 */
export const SESSION_TURN_PATIENCE_MS = 30_000;

/** When a request refused for waiting may ask again: soon, the line is judged afresh then. */
const AFTER_PATIENCE_RETRY_MS = 5_000;

/** The process's turns (client-turns.ts): one per client at a time, who holds least first. */
const turns = new ClientTurns(SESSION_TURNS_AT_ONCE, { patienceMs: SESSION_TURN_PATIENCE_MS });

/** The clients last found refused or at their cap, judged without a turn (capped-clients.ts). */
const capped = new CappedClients();

/**
 * The early refusal's reading of a client (one query, `CreateQueue.standing`): its refusal still
 * standing, or the cap it reached (then recorded as the admission's would be), or none when it
 * may go on to the session gate; and whether it is at its cap. What it holds ranks the next
 * requests of `turnKey` in the turns (null: a second reading of a request, not its turn's).
 */
async function readRefusal(
  queue: CreateQueue,
  clientKey: string,
  options: FairOptions,
  vouchedBy: Vouch | null,
  turnKey: string | null,
): Promise<CapReading> {
  const standing = await queue.standing(clientKey, options, vouchedBy);
  if (turnKey !== null) turns.noteHolding(turnKey, standing.holding);
  if (standing.refusal) {
    return {
      refusal: { ...standing.refusal, waiting: standing.counts.client, earlier: true },
      capped: true,
    };
  }
  // A client holding nothing at a full line: what it waits behind is the first codes (one more
  // query, only then), as `admit` judges it.
  if (needsFirstCodes(standing.counts, options)) {
    standing.counts.firstCodes = await queue.firstCodesWaiting(options, undefined, vouchedBy);
  }
  const over = capReached(standing.counts, options);
  if (!over) {
    // This request may take its last place: its next one is read at once (capped-clients.ts).
    return { refusal: null, capped: standing.counts.client + 1 >= options.clientWaitingMax };
  }
  const retryMs = retryAfterMs(over, standing.clientSlotFreesInMs, CREATE_WINDOW_MS);
  await queue.refuse(clientKey, over, retryMs, vouchedBy);
  const { counts } = standing;
  const waiting = over === "client" ? counts.client : (counts.firstCodes ?? counts.store ?? 0);
  return { refusal: { over, waiting, retryAfterMs: retryMs, earlier: false }, capped: true };
}

/** The early refusal's reading for a request its proven mailbox may vouch for: never cached. */
async function readRefusalOfMailbox(
  queue: CreateQueue,
  clientKey: string,
  options: FairOptions,
): Promise<WaitingRefusal | null> {
  // Its turn was its address's, whose reading already noted what the address holds.
  return (await readRefusal(queue, clientKey, options, "mailbox", null)).refusal;
}

/**
 * The first middleware of `POST /store/payment-collections/:id/payment-sessions` with a Pix or
 * boleto provider: a client the create line would refuse anyway is answered 429
 * `too_many_waiting_creates` at once, from one indexed query (`CreateQueue.standing`), before
 * the collection's lock, the cart's read and Medusa's session workflow cost anything. A flood
 * retrying at once is then a few milliseconds a request instead of a whole session request each.
 *
 * Before that query, the request takes its client's turn in this process (client-turns.ts):
 * one request per client at a time goes on, `SESSION_TURNS_AT_ONCE` in all, the client holding
 * least first (its live unpaid codes, as the query said at its last turn, plus the turns it
 * took this minute); the rest wait in memory, costing nothing, and hold the turn until their
 * answer is sent. A flood's many requests at once are then one place among the clients here,
 * behind every shopper asking for a first code. Past `clientWaitingMax` requests of one client
 * waiting here, the next is answered 429 at once (`over: "client"`, `Retry-After: 1`): that
 * many creates of it would be refused by the line anyway. A request of a repeat client (a
 * turn this minute, or a code it holds) that waits `SESSION_TURN_PATIENCE_MS` for another is
 * answered 429 too (`Retry-After: 5`); a first-time client's request waits for its turn however
 * long that takes, first in line.
 *
 * A client whose last reading here found it refused or at its cap (capped-clients.ts) takes no
 * turn: its request is judged at once by that one query, shared by its requests arriving while
 * it runs, and its requests already waiting for a turn are sent back to be told the same. Ranked
 * by the unpaid codes it holds, it would otherwise wait behind every shopper only to hear 429.
 *
 * It refuses only what `CreateQueue.admit` would: a refusal of this client still standing
 * (its `Retry-After` not yet passed), its own cap reached (its waiting creates and live unpaid
 * codes), or a line with no place it may take
 * (the reserve, waiting-caps.ts). Anything else goes on to the session gate, whose admission
 * under locks stays the authority: a request let through here may still be refused there. A
 * refusal decided here (not an earlier one repeated) is recorded as the admission's would be.
 */
export async function refuseWaitingClientsEarly(
  req: MedusaRequest,
  res: MedusaResponse,
  next: MedusaNextFunction,
): Promise<void> {
  const body = req.body as { provider_id?: unknown } | undefined;
  if (typeof body?.provider_id !== "string" || !OWN_PROVIDER.test(body.provider_id)) {
    return next();
  }
  try {
    const config = req.scope.resolve(ContainerRegistrationKeys.CONFIG_MODULE);
    const options = fairOptions(config);
    const { clientKey, vouchedBy } = clientWithVouch(
      req,
      options,
      createPluginLogger(req.scope.resolve(ContainerRegistrationKeys.LOGGER)),
    );
    const queue = createLineOf(
      req.scope.resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION),
      config,
    ).requests;
    // A vouched request is judged against another line (queue.ts `waitingBehind`): its reading
    // is kept apart from the same address's unvouched one.
    // The same key takes the turns: a signed shopper goes before the unsigned (client-turns.ts).
    const reading = vouchedBy ? `${vouchedBy}:${clientKey}` : clientKey;
    const judgeAddress = () =>
      capped.judge(reading, () => readRefusal(queue, clientKey, options, vouchedBy, reading));
    // A refusal for the full line nobody vouched for is no refusal for a returning customer, whom
    // the admission may vouch for by her proven mailbox (queue.ts `admit`): she is judged again
    // against the vouched line, her reading her own (her cart's, not her address's). Looked up
    // only then, once per request: one cart read and one indexed query.
    let mailbox: Promise<boolean> | undefined;
    const judge = async () => {
      const refusal = await judgeAddress();
      if (refusal?.over !== "store" || vouchedBy) return refusal;
      const collectionId = (req.params as Record<string, string | undefined>).id;
      mailbox ??= collectionId
        ? cartHasProvenMailbox(req.scope, collectionId)
        : Promise.resolve(false);
      return (await mailbox) ? readRefusalOfMailbox(queue, clientKey, options) : refusal;
    };
    // A client last found refused or at its cap is judged at once, without a turn: ranked by
    // what it holds, it would wait behind every shopper only to be told 429 (capped-clients.ts).
    if (capped.has(reading)) {
      const refusal = await judge();
      if (refusal) return sendWaitingRefusal(res, refusal);
    }
    const vouched = vouchedBy !== null;
    let turn = await turns.take(reading, options.clientWaitingMax, vouched);
    while ("sentBack" in turn) {
      const refusal = await judge();
      if (refusal) return sendWaitingRefusal(res, refusal);
      turn = await turns.take(reading, options.clientWaitingMax, vouched);
    }
    if ("refused" in turn) {
      return sendWaitingRefusal(res, {
        over: "client",
        waiting: turn.waiting,
        retryAfterMs: turn.waitedMs > 0 ? AFTER_PATIENCE_RETRY_MS : 1_000,
        earlier: false,
        ...(turn.waitedMs > 0 ? { waitedMs: turn.waitedMs } : {}),
      });
    }
    const { release } = turn;
    // A response emits `close` once, whether it was sent or its connection dropped.
    res.once("close", release);
    // The client left while its request waited: nothing to do for it.
    if (res.destroyed || res.writableEnded || req.socket?.destroyed) return release();
    const refusal = await judge();
    if (refusal) {
      // Its requests still waiting for a turn are told the same now, not after every shopper's.
      turns.sendBack(reading);
      return sendWaitingRefusal(res, refusal);
    }
  } catch (error) {
    return next(error);
  }
  next();
}
