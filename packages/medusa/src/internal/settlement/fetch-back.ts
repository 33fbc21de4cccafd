import type { ChargeRow } from "../records/charges";
import type { LifecycleSource, Transition } from "../records/charge-lifecycle";
import type { ClientCharge, PaymentServiceClient } from "../platform/client-port";
import type { ChargeStatus } from "../platform/status";
import type { SettlementCore } from "./context";
import { arrivalOf } from "./decide";

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
 * merchant, more is partly owed back), or an end.
 */
export async function recordConfirmed(
  core: SettlementCore,
  row: ChargeRow,
  read: { status: ChargeStatus; charge?: ClientCharge },
  source: LifecycleSource,
): Promise<FetchedBack> {
  const { status, charge } = read;
  if (status === "pending" || !charge) return { status, row };
  const moved = await core.lifecycle.confirmed(row, status, source, {
    amountCents: charge.amountCents,
    paidAt: charge.paidAt ?? null,
    arrival: arrivalOf(Number(row.amount_cents), charge.amountCents),
  });
  const now = moved?.row ?? (await core.records.charges.byChargeId(row.charge_id)) ?? row;
  return { status, charge, ...(moved ? { moved } : {}), row: now };
}

/** Asks the payment service about a charge and records what it confirms (the fetch-back). */
export async function fetchBack(
  core: SettlementCore,
  client: PaymentServiceClient,
  row: ChargeRow,
  source: LifecycleSource,
): Promise<FetchedBack> {
  return recordConfirmed(core, row, await readCharge(core, client, row.charge_id), source);
}
