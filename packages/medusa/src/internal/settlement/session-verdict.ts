import { PaymentSessionStatus } from "@medusajs/framework/utils";
import type { ChargeRow } from "../records/charges";
import { PixCheckoutError } from "../platform/errors";
import { ownedOfCharge, ownedOfRequest, type OwnedSessionData } from "../checkout/session-data";
import { verdictOf, type SessionStatus } from "./session-answer";

import { withCollection, type Recorded } from "./collection";
import { clientOfRow, providerOfRow, type SettlementCore } from "./context";
import { fetchBack } from "./fetch-back";
import { sessionMoney } from "./session-money";

/** What a Medusa payment session's money is, for Medusa. */
export interface SessionVerdict {
  status: PaymentSessionStatus;
  /** The session's data as the plugin answers it: every field it owns. */
  owned: OwnedSessionData;
}

/** How the provider's door asks. */
export interface VerdictOptions {
  /**
   * Cart completion (`authorizePayment`): a capture on this session is claimed for Medusa,
   * which captures the session itself when the answer is `captured`. `getPaymentStatus` only
   * reads.
   */
  authorizing: boolean;
  /** How long to wait for a collection another door is deciding about (Medusa waits on us). */
  waitMs: number;
}

/** The refusal when the plugin never asked for money on a session. */
export function noMoneyOnSession(sessionId: string): PixCheckoutError {
  return new PixCheckoutError(
    "session_has_no_charge",
    `Payment session ${sessionId} has no Pix or boleto code this store created for it, so nothing can have paid it. Start the payment again (create a new payment session) to get a code.`,
  );
}

/**
 * The provider's door into the money (`authorizePayment` at cart completion, and
 * `getPaymentStatus`): the session's money is found through the plugin's records keyed by the
 * session (session-money.ts), never through its `data`; an unpaid charge is asked of the
 * payment service (the fetch-back every door uses); then, under the collection's lease, the
 * collection's one decision (decide.ts) is made and recorded for every payment of the cart
 * still to settle, and this session's answer is read from those decisions: `captured` only for
 * money that pays this session in full, and only with the right to capture.
 *
 * No record of the session: refused (`session_has_no_charge`), whatever the payment service
 * would say of an id.
 */
export async function sessionVerdict(
  core: SettlementCore,
  sessionId: string,
  options: VerdictOptions,
): Promise<SessionVerdict> {
  const money = await sessionMoney(core, sessionId);
  if (!money) throw noMoneyOnSession(sessionId);
  if (money.kind === "request") {
    // Still in the create line: like a pending charge, an order may be placed for it
    // (order-first) and its code follows; a create that failed is an error.
    const owned = ownedOfRequest(money.request);
    return {
      status:
        owned.status === "failed"
          ? PaymentSessionStatus.ERROR
          : PaymentSessionStatus.PENDING_AUTHORIZATION,
      owned,
    };
  }
  let row = money.row;
  const collectionId = row.payment_collection_id;
  if (!collectionId) throw noMoneyOnSession(sessionId);
  if (row.status !== "paid") {
    row = (
      await fetchBack(core, await clientOfRow(core, row), row, "authorize", {
        waitMs: options.waitMs,
      })
    ).row;
  }
  const { cancelOrderOnExpiry } = providerOfRow(core, row).options;
  return withCollection(
    core,
    collectionId,
    cancelOrderOnExpiry,
    "authorize",
    async (desk) => {
      const { rows } = await desk.snapshot();
      const decided: Recorded[] = [];
      for (const candidate of rows) {
        if (!stillToSettle(candidate) && candidate.charge_id !== row.charge_id) continue;
        const recorded = await desk.decideAndRecord(
          candidate.charge_id,
          options.authorizing ? { holder: { door: "authorize", id: sessionId }, sessionId } : null,
        );
        if (recorded) decided.push(recorded);
      }
      const own = decided.find((d) => d.row.charge_id === row.charge_id)?.row ?? row;
      const answer = verdictOf(sessionId, own, decided, options.authorizing);
      const verdict: SessionVerdict = {
        status: medusaStatus(answer.status),
        owned: ownedOfCharge(answer.row, sessionId, answer.shows),
      };
      if (needsMedusaDoor(decided, own)) {
        // An ended charge whose order or session Medusa must cancel: this door cannot run
        // Medusa's workflows, so reconciliation looks at it now.
        await core.records.checks.scheduleCheck(own.charge_id, new Date());
      }
      return verdict;
    },
    { waitMs: options.waitMs },
  );
}

/** A paid charge whose money may still move: some of it is held. */
function stillToSettle(row: ChargeRow): boolean {
  return row.status === "paid" && Number(row.held_cents) > 0;
}

/** Whether the session's own ended charge left Medusa's side (an order, a session) to do. */
function needsMedusaDoor(decided: readonly Recorded[], own: ChargeRow): boolean {
  const kind = decided.find((d) => d.row.charge_id === own.charge_id)?.decision.kind;
  return kind === "end_order" || kind === "keep_order";
}

/** Whether two unions hold the same words. */
type SameWords<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/**
 * Compiles only while session-answer.ts's `SessionStatus` words are Medusa's
 * `PaymentSessionStatus` values, no more and no fewer: then each of its answers is Medusa's.
 */
type _StatusesAreMedusas = Assert<SameWords<SessionStatus, `${PaymentSessionStatus}`>>;
type Assert<T extends true> = T;

/** Medusa's session status for the same word (the words are checked above). */
const medusaStatus = (status: SessionStatus): PaymentSessionStatus =>
  status as PaymentSessionStatus;
