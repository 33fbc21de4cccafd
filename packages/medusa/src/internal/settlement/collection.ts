import { randomUUID } from "node:crypto";
import type { ChargeRow } from "../records/charges";
import type { LifecycleSource } from "../records/charge-lifecycle";
import { withCollectionLock } from "../records/collection-locks";
import { readMedusaSide } from "../medusa/collection-snapshot";
import type { ClaimHolder } from "../records/claim-door";
import { captureOnce, type CaptureClaim, type CaptureResult } from "./capture";
import { completeCart } from "./cart-completion";
import { underCartLock } from "../medusa/cart-lock";
import { createLineOf } from "../create-line/line";
import { actInMedusaUnderLease } from "./medusa-side";
import { cartOfCollection, collectionsOfOrder } from "../medusa/collection-links";
import { coverageOf, decide, stageOf, type CollectionSnapshot, type Decision } from "./decide";
import { readCollection } from "./snapshot";
import { providerOfRow, type SettleContext, type SettlementCore } from "./context";

/** What settling a collection decided for one charge, and what acting on it did. */
export interface CollectionOutcome {
  decision: Decision;
  /** The capture's result, when the decision was to capture. */
  capture?: CaptureResult;
  /** The cart completion's result, when the decision was to complete the cart. */
  cart?: "completed" | "failed";
  /** This door saw the captured charge's order first: what waited for it is due now. */
  orderSeen?: true;
}

/** One charge's decision, as recorded in the ledger under the collection's lease. */
export interface Recorded {
  decision: Decision;
  /** The charge as it stands after the decision was recorded. */
  row: ChargeRow;
  /** For a capture: the right to capture it, when the door asked for it and got it. */
  claim?: CaptureClaim;
  /** The captured charge was waiting for its order, and this decision saw it. */
  orderSeen?: true;
}

/** Which capture a door takes the right to, when the decision is to capture. */
export interface ClaimAs {
  holder: ClaimHolder;
  /** Only a capture on this session (the provider's door claims only its own session's). */
  sessionId?: string;
}

/** One collection under its lease, as a door reads and decides it. */
export interface CollectionDesk {
  /** The collection as it stands now, this door's earlier records included. */
  snapshot(): Promise<{ snapshot: CollectionSnapshot; rows: ChargeRow[] }>;
  /**
   * Decides one charge (`decide`, pure) and records the decision in the ledger; undefined for
   * a charge that is not the collection's.
   */
  decideAndRecord(chargeId: string, claimAs: ClaimAs | null): Promise<Recorded | undefined>;
}

/**
 * Every door's way into a collection's money: under the collection's lease (one door at a
 * time, on every instance), read one snapshot, `decide` (decide.ts, pure) and record the
 * decision in the ledger. The provider's door (session-verdict.ts), which cannot run Medusa's
 * workflows, uses this directly; the doors that can use `settleCollection`.
 */
export async function withCollection<T>(
  core: SettlementCore,
  collectionId: string,
  cancelOrderOnExpiry: boolean,
  source: LifecycleSource,
  work: (desk: CollectionDesk) => Promise<T>,
  lease: { waitMs?: number } = {},
): Promise<T> {
  return withCollectionLock(
    core.db,
    collectionId,
    async () => {
      const medusa = await readMedusaSide(core.db, collectionId);
      const snapshot = () =>
        readCollection(core.records, core.config, collectionId, medusa, cancelOrderOnExpiry);
      const desk: CollectionDesk = {
        snapshot,
        async decideAndRecord(chargeId, claimAs) {
          const read = await snapshot();
          const row = read.rows.find((r) => r.charge_id === chargeId);
          if (!row) return undefined;
          const decision = decide(read.snapshot, chargeId);
          return record(core, read.snapshot, decision, row, read.rows, source, claimAs);
        },
      };
      return work(desk);
    },
    lease,
  );
}

/**
 * The one way a door that runs Medusa's workflows (a webhook, a repeated delivery,
 * reconciliation, the admin's re-check and accept, the capture and order subscribers, the
 * boleto grace recheck, the outbox) gives a charge its fate, read as a line: under the
 * collection's lease, decide and record it in the ledger, and do Medusa's side of it that must
 * not interleave with another door (cancel an order or a session); once the lease is released,
 * capture (Medusa's workflow completes the cart, and cart completion calls the provider's door,
 * which takes the same lease). What follows a capture is in the outbox the capture wrote;
 * follow-ups.ts `settleAndFollow` delivers it right away for the doors that wait for it.
 *
 * A capture that fails is decided again without its claim: money that is no capture any more
 * (its order canceled meanwhile) is owed back at once; a capture still due throws (the failure is
 * on the timeline and reconciliation retries it).
 */
export async function settleCollection(
  ctx: SettleContext,
  chargeId: string,
  source: LifecycleSource,
): Promise<CollectionOutcome> {
  const first = await ctx.records.charges.byChargeId(chargeId);
  if (!first) return { decision: { kind: "nothing", why: "unknown charge" } };
  const collectionId = first.payment_collection_id;
  if (!collectionId) {
    // Recorded before the plugin knew collections (or without one): only its own session.
    return { decision: { kind: "nothing", why: "the charge has no payment collection" } };
  }
  const options = providerOfRow(ctx, first).options;
  const decideHere = (claimAs: ClaimAs | null) => () =>
    withCollection(ctx, collectionId, options.cancelOrderOnExpiry, source, async (desk) => {
      const done = await desk.decideAndRecord(chargeId, claimAs);
      if (done) await actInMedusaUnderLease(ctx, done.decision, done.row, source);
      return done;
    });
  // Captured money still waiting for its order is decided under Medusa's lock on the cart as
  // well, which the shopper's `cart.complete` holds to its end: the decision sees the order that
  // completion made, or closes the session before any completion can use it (decide.ts 7).
  const cartId =
    first.captured_at && first.awaiting_order_since
      ? await cartOfCollection(ctx.container, collectionId)
      : null;
  const decideOnce = (claimAs: ClaimAs | null) =>
    cartId ? underCartLock(ctx.container, cartId, decideHere(claimAs)) : decideHere(claimAs)();
  const recorded = await decideOnce({ holder: { door: "settlement", id: randomUUID() } });
  if (!recorded) return { decision: { kind: "nothing", why: "not a charge of this collection" } };
  const { decision, row, claim } = recorded;
  const seen = recorded.orderSeen ? { orderSeen: true as const } : {};
  switch (decision.kind) {
    case "capture":
      try {
        return {
          decision,
          capture: await captureOnce(ctx, row, source, decision.amountCents, claim),
        };
      } catch (error) {
        // Medusa refused the capture, and its claim was given back (capture.ts). While the
        // claim ran, every other door's decision left the money held for it (decide.ts 8): an
        // order the merchant canceled meanwhile decided nothing. The money is decided again,
        // by the same `decide`, without the claim and taking none: money that is no capture any
        // more (owed back) is recorded now; anything else throws as before, and is retried.
        if (!claim || claim.medusa) throw error;
        const again = await decideOnce(null);
        if (again?.decision.kind !== "refund_due") throw error;
        return { decision: again.decision };
      }
    case "complete_cart":
      return { decision, cart: await completeCart(ctx, row, decision.cartId, source) };
    default:
      return { decision, ...seen };
  }
}

/**
 * Records a decision in the ledger and the plugin's tables, never in Medusa's: money owed back,
 * an adoption, the right to capture, the next look at an unpaid boleto. Each step is a
 * conditional write, so a repeated door changes nothing.
 */
async function record(
  core: SettlementCore,
  snapshot: CollectionSnapshot,
  decision: Decision,
  row: ChargeRow,
  rows: readonly ChargeRow[],
  source: LifecycleSource,
  claimAs: ClaimAs | null,
): Promise<Recorded> {
  switch (decision.kind) {
    case "capture": {
      let paying = row;
      if (decision.excessCents) {
        // What the collection no longer asks of this code is owed back first (decide.ts 4).
        const owed = await core.lifecycle.owe(
          row,
          "held",
          decision.excessCents,
          "amount_lowered",
          source,
          snapshot.order?.id ?? null,
        );
        if (!owed) return { decision, row }; // Another door moved it first; it decides again.
        paying = owed;
      }
      if (decision.adopted) paying = await adopt(core, paying, rows, decision.sessionId, source);
      // The collection is paid once this capture is made: a code any of its sessions still
      // waits for in the create line is not wanted.
      if (row.payment_collection_id && paysInFull(snapshot, row.charge_id, decision.amountCents)) {
        await createLineOf(core.db, core.config).cancelForCollection(row.payment_collection_id);
      }
      const wanted = claimAs && (!claimAs.sessionId || claimAs.sessionId === decision.sessionId);
      if (!wanted) return { decision, row: paying };
      const claim = await takeCapture(
        core,
        snapshot,
        decision.sessionId,
        paying,
        claimAs.holder,
        decision.amountCents,
      );
      return { decision, row: paying, ...(claim ? { claim } : {}) };
    }
    case "refund_due": {
      const moved = await core.lifecycle.owe(
        row,
        decision.from,
        decision.amountCents,
        decision.reason,
        source,
        snapshot.order?.id ?? null,
      );
      return { decision, row: moved ?? row };
    }
    case "recheck":
      await core.records.checks.scheduleCheck(row.charge_id, decision.at);
      return { decision, row };
    case "keep_order":
      await core.records.events.add({
        chargeId: row.charge_id,
        kind: "order_kept",
        source,
        detail: { order_id: decision.orderId, reason: "cancelOrderOnExpiry is off" },
      });
      return { decision, row };
    case "nothing":
      if (row.awaiting_order_since && (snapshot.order || !snapshot.cartId)) {
        // Captured, and its cart is an order (or no cart is left to become one).
        if (await core.lifecycle.orderSeen(row.charge_id))
          return { decision, row, orderSeen: true };
      }
      return { decision, row };
    case "hold":
    case "end_order":
    case "cancel_session":
    case "complete_cart":
      return { decision, row };
  }
}

/** Whether capturing `amountCents` of a charge leaves nothing of what the collection asks. */
function paysInFull(snapshot: CollectionSnapshot, chargeId: string, amountCents: number): boolean {
  const stage = stageOf(snapshot);
  if (stage === "cart") return true;
  const others = snapshot.charges.filter((c) => c.chargeId !== chargeId);
  return coverageOf(others, snapshot.asksCents, stage).remainingCents <= amountCents;
}

/**
 * Takes the right to capture a paid charge's held money on `sessionId`, or finds (in the
 * snapshot) a capture Medusa already holds there that no ledger entry names: only its recording
 * is left, under that capture's own id. Undefined when another holder has the claim. A holder
 * may take its own claim again: the provider's door claims for the session it authorizes, and a
 * shopper completing the same cart twice is the same party.
 */
async function takeCapture(
  core: SettlementCore,
  snapshot: CollectionSnapshot,
  sessionId: string,
  row: ChargeRow,
  holder: ClaimHolder,
  amountCents: number,
): Promise<CaptureClaim | undefined> {
  const held = snapshot.payments
    .filter((payment) => payment.sessionId === sessionId && !payment.canceled)
    .flatMap((payment) => payment.captures)
    .find((capture) => !capture.recorded);
  if (held) return { medusa: true, captureId: held.id };
  return (await core.records.captures.claim(row.charge_id, holder, amountCents))
    ? { medusa: false, holder }
    : undefined;
}

/**
 * A replaced code the shopper paid becomes the payment of the collection's live session of
 * ours of the same amount; that session's own code is then no longer needed (the cart is paid).
 */
async function adopt(
  core: SettlementCore,
  row: ChargeRow,
  rows: readonly ChargeRow[],
  sessionId: string,
  source: LifecycleSource,
): Promise<ChargeRow> {
  const adopted = (await core.records.charges.adopt(row.charge_id, sessionId)) ?? row;
  await core.records.events.add({
    chargeId: row.charge_id,
    kind: "adopted",
    source,
    detail: { session_id: sessionId },
  });
  for (const other of rows) {
    if (other.session_id === sessionId && other.charge_id !== row.charge_id) {
      await core.lifecycle.superseded(other.charge_id, source, sessionId);
    }
  }
  return adopted;
}

/**
 * An order was canceled. Medusa's cancel asks the provider to refund its captured payments,
 * which this provider refuses (no money moves from here), so each charge of the order holding
 * money is decided again: captured money becomes owed back (decide.ts 5) instead of Medusa's
 * books reading "refunded". Reconciliation finds the orders whose event this missed.
 */
export async function refundsDueOnCanceledOrder(
  ctx: SettleContext,
  orderId: string,
): Promise<number> {
  const collections = await collectionsOfOrder(ctx.container, orderId);
  let marked = 0;
  for (const collectionId of collections) {
    for (const row of await ctx.records.charges.ofCollection(collectionId)) {
      if (Number(row.captured_cents) === 0 && Number(row.held_cents) === 0) continue;
      const { decision } = await settleCollection(ctx, row.charge_id, "admin");
      if (decision.kind === "refund_due") marked += 1;
    }
  }
  return marked;
}
