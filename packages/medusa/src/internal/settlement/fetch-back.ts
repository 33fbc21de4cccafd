import type { ChargeRow } from "../records/charges";
import type { LifecycleSource, Transition } from "../records/charge-lifecycle";
import type { ClientCharge, PaymentServiceClient } from "../platform/client-port";
import { clientFor } from "../platform/provider-registry";
import type { ChargeStatus } from "../platform/status";
import { providerOfRow, type SettleContext, type SettlementCore } from "./context";
import { arrivalOf } from "./decide";
import { withCollectionLock } from "../records/collection-locks";

/** What a webhook claimed, to compare with what the API says. */
export interface Claim {
  status: ChargeStatus;
  amountCents: number;
}

/**
 * What a door heard of a charge, once checked with the payment service: a claim the service
 * does not confirm (`forged`: nothing changed), or what it confirms, recorded.
 */
export type Heard =
  { kind: "forged"; status: ChargeStatus; detail: string } | ({ kind: "confirmed" } & FetchedBack);

/**
 * The fetch-back of every door that hears about a charge (a webhook, reconciliation, a
 * refresh), in one place:
 * 1. a charge recorded paid is final: when nobody claims otherwise (a check that reaches a
 *    charge a webhook settled meanwhile, a repeated `charge.paid` of what the service already
 *    confirmed), the service is not asked again;
 * 2. otherwise the service is asked (the full read when there is a claim to compare);
 * 3. a claim the service does not confirm is `forged`, and goes on the timeline;
 * 4. what the service confirms is recorded through the charge's lifecycle.
 */
export async function hear(
  ctx: SettleContext,
  row: ChargeRow,
  source: LifecycleSource,
  claim?: Claim,
): Promise<Heard> {
  const repeatsConfirmedPayment =
    claim?.status === "paid" && claim.amountCents === Number(row.amount_cents);
  if (row.status === "paid" && (!claim || repeatsConfirmedPayment)) {
    return { kind: "confirmed", status: "paid", row };
  }
  const client = await clientFor(providerOfRow(ctx, row), ctx.logger);
  const read = await readCharge(ctx, client, row.charge_id, { full: claim !== undefined });
  const detail = claim && read.charge ? untrueClaim(claim, read.charge) : null;
  if (detail) {
    await ctx.records.events.add({
      chargeId: row.charge_id,
      kind: "forged_webhook",
      source,
      detail: { claim, detail },
    });
    ctx.logger.warn(
      `ignored a webhook for charge ${row.charge_id} that the API does not confirm: ${detail}`,
    );
    return { kind: "forged", status: read.charge!.status, detail };
  }
  return { kind: "confirmed", ...(await recordConfirmed(ctx, row, read, source)) };
}

/**
 * What is untrue in a claim, by the service's read; null when the service confirms it. A
 * claim of a payment the service has not seen, of a change to a charge it says is pending, or
 * of another amount is untrue.
 */
function untrueClaim(claim: Claim, charge: ClientCharge): string | null {
  if (claim.status !== charge.status && (claim.status === "paid" || charge.status === "pending")) {
    return `claimed ${claim.status}, the API says ${charge.status}`;
  }
  if (claim.amountCents !== charge.amountCents) {
    return `claimed ${claim.amountCents} cents, the API says ${charge.amountCents}`;
  }
  return null;
}

/** What the payment service said of a charge, and what recording it changed. */
export interface FetchedBack {
  status: ChargeStatus;
  /** The full read, when the charge was not pending (or the caller asked for it). */
  charge?: ClientCharge;
  /** The transition recorded, undefined when the charge already stood there. */
  moved?: Transition;
  /** The charge as it stands now. */
  row: ChargeRow;
}

/**
 * Reads a charge from the payment service: the light status read first, which answers the
 * common case (still pending) in one small call, then the full read for a change, which says
 * how much was paid and when. `full` skips the light read (a webhook's claim is compared with
 * the full read). Every answer touches the row.
 */
export async function readCharge(
  core: SettlementCore,
  client: PaymentServiceClient,
  chargeId: string,
  { full = false }: { full?: boolean } = {},
): Promise<{ status: ChargeStatus; charge?: ClientCharge }> {
  if (!full) {
    const light = await client.charges.status(chargeId);
    await core.records.checks.touch(chargeId);
    if (light.status === "pending") return { status: "pending" };
  }
  const charge = await client.charges.retrieve(chargeId);
  await core.records.checks.touch(chargeId);
  return { status: charge.status, charge };
}

/**
 * Records what the payment service confirmed of a charge through its lifecycle (the one owner
 * of a charge's status): a payment with the amount and time the service gives, its money split
 * into the ledger's parts as it arrives (decide.ts `arrivalOf`: less than asked is held for the
 * merchant, more is partly owed back), or an end. Under the collection's lease, which a session
 * swap holds from its first look to its last write (checkout/session-requests.ts): a payment is
 * recorded before the swap looks (which then refuses a paid collection) or after it (and finds
 * its code replaced), never while Medusa deletes the code's session. `waitMs`: how long to wait
 * for the lease (the provider's door, inside Medusa's workflows, waits little).
 */
export async function recordConfirmed(
  core: SettlementCore,
  row: ChargeRow,
  read: { status: ChargeStatus; charge?: ClientCharge },
  source: LifecycleSource,
  lease: { waitMs?: number } = {},
): Promise<FetchedBack> {
  const { status, charge } = read;
  if (status === "pending" || !charge) return { status, row };
  const record = () =>
    core.lifecycle.confirmed(row, status, source, {
      amountCents: charge.amountCents,
      paidAt: charge.paidAt ?? null,
      arrival: arrivalOf(Number(row.amount_cents), charge.amountCents),
    });
  const collectionId = row.payment_collection_id;
  const moved = collectionId
    ? await withCollectionLock(core.db, collectionId, record, lease)
    : await record();
  const now = moved?.row ?? (await core.records.charges.byChargeId(row.charge_id)) ?? row;
  return { status, charge, ...(moved ? { moved } : {}), row: now };
}

/** Asks the payment service about a charge and records what it confirms (the fetch-back). */
export async function fetchBack(
  core: SettlementCore,
  client: PaymentServiceClient,
  row: ChargeRow,
  source: LifecycleSource,
  lease: { waitMs?: number } = {},
): Promise<FetchedBack> {
  return recordConfirmed(core, row, await readCharge(core, client, row.charge_id), source, lease);
}
