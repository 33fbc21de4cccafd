import { generateEntityId } from "@medusajs/framework/utils";
import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import type { ChargeRow, LocalChargeStatus } from "./charges";
import type { ChargeEventSource } from "./charge-events";
import {
  CAPTURABLE_HELD,
  LEDGER_PARTS,
  type Arrival,
  type HeldReason,
  type LedgerPart,
  type OwedReason,
} from "./ledger-parts";

const num = (value: unknown): number => Number(value ?? 0);

/**
 * How long a capture claim stays with its holder. processPaymentWorkflow takes well under a
 * second; a holder silent for this long has died, so its claim lapses and another run captures.
 * Capturing after a lapse cannot double the money: Medusa's workflow skips a payment that
 * already has `captured_at`, and a capture Medusa holds is recorded by its id, never made again.
 */
export const CAPTURE_LEASE_MS = 2 * 60_000;

/**
 * Whether a charge row's capture claim is live, as SQL on the table reference `charge`: its
 * lease runs (on the database's clock), nothing recorded the capture yet, and the money it
 * claims is still held for Medusa's capture. Money moved from under a claim (owed back, returned)
 * ends the claim with it, so the capture door refuses Medusa a capture of money that left.
 */
export function liveClaimSql(charge: string, leaseMs = CAPTURE_LEASE_MS): string {
  // coalesce: a null anywhere (no reason held) reads as "not live", never as unknown.
  return `coalesce(${charge}.capture_claimed_at is not null and ${charge}.captured_at is null
    and ${charge}.capture_claimed_at > now() - make_interval(secs => ${Number(leaseMs) / 1000})
    and ${charge}.held_cents >= coalesce(${charge}.capture_claimed_cents, 0)
    and ${charge}.held_reason in (${CAPTURABLE_HELD.map((r) => `'${r}'`).join(", ")}), false)`;
}

/** Who moved money: a door of the settlement, or the migration that opened the ledger. */
export type LedgerDoor = ChargeEventSource | "migration";

/** One movement of money between two parts (or into one, from the service). */
export interface LedgerMove {
  /** Null: the money arrives from the payment service. */
  from: LedgerPart | null;
  to: LedgerPart;
  amountCents: number;
  /** The reason of the part the money moves into (`owed_reason`, `held_reason`, ...). */
  reason: string;
  /** Medusa's capture or refund this movement matches, when there is one. */
  medusaRef?: string | null;
  /**
   * What the merchant wrote about it (how a refund was returned): it explains the entry, shown
   * on the charge's timeline and in the books, and never holds money.
   */
  note?: string | null;
}

/** What else must hold of the row for the moves to be made, and what else the statement writes. */
export interface MoveTerms {
  /** The charge's status must be one of these (the arrival moves it to `paid`). */
  statusIn?: readonly LocalChargeStatus[];
  /** Held money must be held for one of these reasons. */
  heldFor?: readonly HeldReason[];
  /** Medusa must not hold a capture of it yet (captured_at is null). */
  notCapturedInMedusa?: boolean;
  /** No capture claim may be live on it (money a capture in flight is taking stays put). */
  noLiveClaim?: boolean;
  /** The charge's MED case must be open (`open`), or none may be open (`none_open`). */
  med?: "open" | "none_open";
  /** At least this much must be owed (money a MED blocks without moving it). */
  owedAtLeast?: number;
  /** Other columns written in the same statement (values, or `knex.raw`). */
  set?: Record<string, unknown>;
  /** Other rows written in the same statement, once the move is made (the outbox). */
  alsoInsert?: { table: string; rows: Record<string, unknown>[]; onConflictIgnore?: string[] };
}

/** An entry of the ledger (`pix_checkout_ledger_entry`), as read back. */
export interface LedgerEntry {
  id: string;
  seq: string;
  charge_id: string;
  payment_collection_id: string | null;
  from_part: LedgerPart | null;
  to_part: LedgerPart;
  amount_cents: string;
  reason: string;
  door: LedgerDoor;
  medusa_ref: string | null;
  note: string | null;
  created_at: Date;
}

const CHARGES = "pix_checkout_charge";
const ENTRIES = "pix_checkout_ledger_entry";

/**
 * An entry that records one of Medusa's captures, as SQL on an entry table reference `e`: money
 * moved into `captured` from anywhere but `contested` (a MED's block lifted gives back money
 * captured once already; it is no new capture).
 */
export const CAPTURE_ENTRY_SQL = (e: string): string =>
  `${e}.to_part = 'captured' and ${e}.from_part is distinct from 'contested'`;

/**
 * What the ledger ever moved into `captured` for a charge, as SQL on a charge table reference
 * `charge` (integer cents, 0 for none): money Medusa captured, whatever became of it since.
 * Read in the charge row's own statement, it agrees with the row's parts.
 */
export function everCapturedSql(charge: string): string {
  return `coalesce((select sum(e.amount_cents) from ${ENTRIES} e
    where e.charge_id = ${charge}.charge_id and ${CAPTURE_ENTRY_SQL("e")}), 0)`;
}

/**
 * The ledger of received money: every movement of a charge's money is an entry, and the
 * charge row keeps each part's balance. One statement moves money: it writes the balances
 * (only when the row still holds what the moves take: a racing door finds nothing to move),
 * the entries, and anything the caller writes with them (a status, the outbox), so no
 * failure can leave one without the other. The row's check constraint makes the parts add up
 * to what the service received. How much is owed back, held or captured is a sum, never a
 * flag; a note for the merchant explains an entry and never holds money.
 */
export class Ledger {
  constructor(private readonly db: Knex) {}

  /**
   * Makes `moves` on one charge in one statement. Returns the row as it stands after, or
   * undefined when the row does not hold what the moves take (or `terms` do not hold): someone
   * moved it first, and nothing was written. Private: each kind of move below carries its own
   * guard, written once.
   */
  private async move(
    chargeId: string,
    moves: readonly LedgerMove[],
    door: LedgerDoor,
    terms: MoveTerms = {},
  ): Promise<ChargeRow | undefined> {
    const real = moves.filter((m) => m.amountCents > 0);
    for (const m of real) {
      if (!Number.isSafeInteger(m.amountCents))
        throw new Error(`not whole cents: ${m.amountCents}`);
    }
    const delta = new Map<LedgerPart, number>(LEDGER_PARTS.map((part) => [part, 0]));
    const reasonInto = new Map<LedgerPart, string>();
    for (const m of real) {
      if (m.from) delta.set(m.from, delta.get(m.from)! - m.amountCents);
      delta.set(m.to, delta.get(m.to)! + m.amountCents);
      reasonInto.set(m.to, m.reason);
    }
    const sets: string[] = [];
    const setBindings: unknown[] = [];
    const wheres: string[] = ["charge_id = ?", "deleted_at is null"];
    const whereBindings: unknown[] = [chargeId];
    for (const part of LEDGER_PARTS) {
      const change = delta.get(part)!;
      const column = `${part}_cents`;
      if (change !== 0) {
        sets.push(`${column} = ${column} + ?`);
        setBindings.push(change);
        // A part that gives money must hold it: a door that lost a race moves nothing.
        if (change < 0) {
          wheres.push(`${column} >= ?`);
          whereBindings.push(-change);
        }
      }
      if (part === "held" || part === "owed") {
        const reason = reasonInto.get(part);
        // The part's reason is the reason of the money last moved into it, and none once empty.
        if (reason !== undefined || change !== 0) {
          sets.push(
            `${part}_reason = case when ${column} + ? = 0 then null else coalesce(?, ${part}_reason) end`,
          );
          setBindings.push(change, reason ?? null);
        }
      }
    }
    if (terms.statusIn) {
      wheres.push(`status = any(?)`);
      whereBindings.push(terms.statusIn as string[]);
    }
    if (terms.heldFor) {
      wheres.push(`held_reason = any(?)`);
      whereBindings.push(terms.heldFor as string[]);
    }
    if (terms.notCapturedInMedusa) wheres.push("captured_at is null");
    if (terms.noLiveClaim) wheres.push(`not ${liveClaimSql(CHARGES)}`);
    if (terms.med === "open") wheres.push("med_state = 'open'");
    if (terms.med === "none_open") wheres.push("med_state is distinct from 'open'");
    if (terms.owedAtLeast) {
      wheres.push("owed_cents >= ?");
      whereBindings.push(terms.owedAtLeast);
    }
    for (const [column, value] of Object.entries(terms.set ?? {})) {
      sets.push(`${column} = ?`);
      setBindings.push(value);
    }
    sets.push("updated_at = now()");

    const entryRows = real.map((m) => [
      generateEntityId(undefined, "pxle"),
      m.from,
      m.to,
      m.amountCents,
      m.reason,
      m.medusaRef ?? null,
      m.note ?? null,
    ]);
    const ctes: string[] = [
      `moved as (update ${CHARGES} set ${sets.join(", ")} where ${wheres.join(" and ")} returning *)`,
    ];
    const bindings: unknown[] = [...setBindings, ...whereBindings];
    if (entryRows.length > 0) {
      ctes.push(
        `entries as (insert into ${ENTRIES} (id, charge_id, payment_collection_id, from_part, to_part, amount_cents, reason, door, medusa_ref, note)
           select v.id, moved.charge_id, moved.payment_collection_id, v.from_part, v.to_part, v.amount_cents, v.reason, ?, v.medusa_ref, v.note
             from moved cross join (values ${entryRows.map(() => "(?, ?::text, ?::text, ?::bigint, ?::text, ?::text, ?::text)").join(", ")})
                  as v(id, from_part, to_part, amount_cents, reason, medusa_ref, note))`,
      );
      bindings.push(door, ...entryRows.flat());
    }
    const also = terms.alsoInsert;
    if (also && also.rows.length > 0) {
      const columns = Object.keys(also.rows[0]!);
      ctes.push(
        `also as (insert into ${also.table} (${columns.join(", ")})
           select v.* from moved cross join (values ${also.rows
             .map(() => `(${columns.map(() => "?").join(", ")})`)
             .join(", ")}) as v(${columns.join(", ")})
           ${also.onConflictIgnore ? `on conflict (${also.onConflictIgnore.join(", ")}) do nothing` : ""})`,
      );
      for (const row of also.rows) bindings.push(...columns.map((column) => row[column]));
    }
    const result = await this.db.raw(
      `with ${ctes.join(", ")} select * from moved`,
      bindings as Knex.RawBinding[],
    );
    return (result.rows as ChargeRow[])[0];
  }

  /**
   * A payment arrives: the charge moves from one of `from` to `paid` (with `transition`'s
   * columns) and what the service received goes into its parts, as `arrival` splits it
   * (settlement/decide.ts `arrivalOf`), in one statement. Undefined when the charge was not in
   * one of `from` (a duplicate, or another door recorded it first).
   */
  arrive(
    chargeId: string,
    from: readonly LocalChargeStatus[],
    arrival: Arrival,
    door: LedgerDoor,
    transition: Record<string, unknown>,
  ): Promise<ChargeRow | undefined> {
    const moves: LedgerMove[] = [];
    if (arrival.held > 0) {
      moves.push({ from: null, to: "held", amountCents: arrival.held, reason: arrival.heldReason });
    }
    if (arrival.owed > 0) {
      moves.push({ from: null, to: "owed", amountCents: arrival.owed, reason: arrival.owedReason });
    }
    return this.move(chargeId, moves, door, {
      statusIn: from,
      set: { ...transition, status: "paid", received_cents: arrival.held + arrival.owed },
    });
  }

  /**
   * Medusa holds the capture of `amountCents` of the held money: it becomes the order's, the
   * claim is done, the charge waits to see its cart become an order, and the follow-ups of a
   * capture are written to the outbox, all in one statement. The entry names Medusa's capture
   * (`medusaRef`, its id), so each of Medusa's captures is attributed once, never by the session
   * alone. Undefined when it was recorded already (by another door, or this one after a lapsed
   * lease).
   */
  capture(
    chargeId: string,
    amountCents: number,
    door: LedgerDoor,
    followUps: Record<string, unknown>[],
    medusaRef: string | null = null,
  ): Promise<ChargeRow | undefined> {
    return this.move(
      chargeId,
      [{ from: "held", to: "captured", amountCents, reason: "captured", medusaRef }],
      door,
      {
        heldFor: CAPTURABLE_HELD,
        notCapturedInMedusa: true,
        set: {
          captured_at: this.db.raw("now()"),
          awaiting_order_since: this.db.raw("now()"),
          capture_claimed_at: null,
          capture_claimed_by: null,
          capture_claim_door: null,
          capture_claimed_cents: null,
        },
        alsoInsert: {
          table: "pix_checkout_outbox",
          rows: followUps,
          onConflictIgnore: ["charge_id", "kind"],
        },
      },
    );
  }

  /**
   * Money no order can come of, or the order's no longer, is owed back: `amountCents` of `from`
   * (held or captured) with its reason, and the note that tells the merchant, in one statement.
   * Owed money waits for no order. Held money a live capture claim is taking is never moved
   * (undefined: the capture goes first, and its follow-ups decide again); moving held money
   * clears a lapsed claim with it.
   */
  owe(
    chargeId: string,
    from: "held" | "captured",
    amountCents: number,
    reason: OwedReason,
    door: LedgerDoor,
    note: Record<string, unknown>,
  ): Promise<ChargeRow | undefined> {
    const fromHeld = from === "held";
    return this.move(chargeId, [{ from, to: "owed", amountCents, reason }], door, {
      ...(fromHeld ? { noLiveClaim: true } : {}),
      set: {
        awaiting_order_since: null,
        ...note,
        ...(fromHeld
          ? {
              capture_claimed_at: null,
              capture_claimed_by: null,
              capture_claim_door: null,
              capture_claimed_cents: null,
            }
          : {}),
      },
    });
  }

  /**
   * The merchant accepts an underpaid amount: what is held for their decision is held for
   * Medusa's capture instead (an entry from held to held, with the reason `accepted`), and
   * their note is resolved in the same statement.
   */
  accept(
    chargeId: string,
    amountCents: number,
    door: LedgerDoor,
    resolution: Record<string, unknown>,
  ): Promise<ChargeRow | undefined> {
    return this.move(
      chargeId,
      [{ from: "held", to: "held", amountCents, reason: "accepted" }],
      door,
      { heldFor: ["underpaid"], set: resolution },
    );
  }

  /**
   * The merchant returned money to the shopper: each take moves from its part to returned
   * (settlement/decide.ts `returnOf` says from which), in one statement with what else the
   * caller writes (a resolved note).
   */
  giveBack(
    chargeId: string,
    takes: readonly LedgerMove[],
    door: LedgerDoor,
    set: Record<string, unknown> = {},
  ): Promise<ChargeRow | undefined> {
    return this.move(chargeId, takes, door, { set });
  }

  /**
   * A MED's bloqueio cautelar (`medBlockOf` of `@pix-checkout/client/med`): of the block, `owedCents`
   * falls on money already owed back, which stays `owed` and is marked as the case's
   * (`med_blocked_owed_cents`), and `capturedCents` on the captured money, which moves to
   * `contested` (`med_blocked`); the charge's MED case opens with it (protocol, deadline, the
   * amount blocked), in one statement. Undefined when less is owed or captured, or a case is open
   * already: nothing was written (docs/ledger.md, "Pix returned by the MED").
   */
  contest(
    chargeId: string,
    block: { owedCents: number; capturedCents: number },
    med: { protocol: string; deadline: string },
    door: LedgerDoor,
  ): Promise<ChargeRow | undefined> {
    return this.move(
      chargeId,
      [
        {
          from: "captured",
          to: "contested",
          amountCents: block.capturedCents,
          reason: "med_blocked",
        },
      ],
      door,
      {
        med: "none_open",
        owedAtLeast: block.owedCents,
        set: {
          med_protocol: med.protocol,
          med_deadline: med.deadline,
          med_state: "open",
          med_blocked_cents: block.owedCents + block.capturedCents,
          med_blocked_owed_cents: block.owedCents,
          med_opened_at: this.db.raw("now()"),
          med_closed_at: null,
        },
      },
    );
  }

  /**
   * The MED's outcome (`medOutcomeSplit` of `@pix-checkout/client/med`): the blocked owed money the MED
   * returned is settled (`owed` → `returned`, `med_returned`; what of it Medusa holds captured
   * names Medusa's payment `medusaRef`), then the contested money it returned (`contested` →
   * `returned`, `med_returned`, naming `medusaRef` so the provider's refundPayment accepts
   * exactly what Medusa records), and the contested rest, `keptCents`, is the store's again
   * (`contested` → `captured`, `med_kept`); blocked owed money not returned stays owed, its
   * clock running again. The case closes, in one statement. The contested moves must take all of
   * it (the row's check constraint holds contested money to an open case). Undefined when no
   * case is open or it holds less: nothing was written.
   */
  endContest(
    chargeId: string,
    outcome: {
      owedSettledCents: number;
      owedSettledOnOrderCents: number;
      returnedCents: number;
      keptCents: number;
      medusaRef: string | null;
      note: string;
    },
    door: LedgerDoor,
  ): Promise<ChargeRow | undefined> {
    const settledOutside = outcome.owedSettledCents - outcome.owedSettledOnOrderCents;
    const anyReturned = outcome.owedSettledCents + outcome.returnedCents > 0;
    return this.move(
      chargeId,
      [
        {
          from: "owed",
          to: "returned",
          amountCents: settledOutside,
          reason: "med_returned",
          note: outcome.note,
        },
        {
          from: "owed",
          to: "returned",
          amountCents: outcome.owedSettledOnOrderCents,
          reason: "med_returned",
          medusaRef: outcome.medusaRef,
          note: outcome.note,
        },
        {
          from: "contested",
          to: "returned",
          amountCents: outcome.returnedCents,
          reason: "med_returned",
          medusaRef: outcome.medusaRef,
          note: outcome.note,
        },
        {
          from: "contested",
          to: "captured",
          amountCents: outcome.keptCents,
          reason: "med_kept",
          note: outcome.note,
        },
      ],
      door,
      {
        med: "open",
        set: {
          med_state: anyReturned ? "returned" : "kept",
          med_closed_at: this.db.raw("now()"),
        },
      },
    );
  }

  /**
   * Owed money of a charge that Medusa holds captured: moved from captured to owed (an order
   * canceled after its capture, a cart that never became an order), less what of it was
   * returned and recorded in Medusa since (returned entries that name a Medusa payment).
   */
  async owedInMedusa(chargeId: string): Promise<number> {
    const result = await this.db.raw(
      `select coalesce(sum(amount_cents) filter (where from_part = 'captured' and to_part = 'owed'), 0)
            - coalesce(sum(amount_cents) filter (where from_part = 'owed' and to_part = 'returned' and medusa_ref is not null), 0)
              as cents
         from ${ENTRIES} where charge_id = ?`,
      [chargeId],
    );
    return Math.max(0, Number((result.rows as { cents: string }[])[0]?.cents ?? 0));
  }

  /**
   * What the MED returned of these collections' charges that Medusa recorded as a refund of
   * their order (`med_returned` entries naming Medusa's payment), in integer cents: Medusa's order
   * owes it again, but the shopper's bank took it back, so no one collects it anew.
   */
  async medReturnedInMedusa(collectionIds: readonly string[]): Promise<number> {
    if (collectionIds.length === 0) return 0;
    const result = await this.db.raw(
      `select coalesce(sum(amount_cents), 0) as cents from ${ENTRIES}
        where payment_collection_id = any(?) and to_part = 'returned'
          and reason = 'med_returned' and medusa_ref is not null`,
      [collectionIds as string[]],
    );
    return num((result.rows as { cents: string }[])[0]?.cents);
  }

  /** `owedInMedusa` of each of these charges, in one read (the admin's lists); absent is 0. */
  async owedInMedusaOf(chargeIds: readonly string[]): Promise<Map<string, number>> {
    if (chargeIds.length === 0) return new Map();
    const result = await this.db.raw(
      `select charge_id,
              coalesce(sum(amount_cents) filter (where from_part = 'captured' and to_part = 'owed'), 0)
            - coalesce(sum(amount_cents) filter (where from_part = 'owed' and to_part = 'returned' and medusa_ref is not null), 0)
              as cents
         from ${ENTRIES} where charge_id = any(?) group by charge_id`,
      [chargeIds as string[]],
    );
    return new Map(
      (result.rows as { charge_id: string; cents: string }[]).map((row) => [
        row.charge_id,
        Math.max(0, Number(row.cents)),
      ]),
    );
  }

  /**
   * The ledger's parts summed over every charge of these Medusa providers (one registration's
   * `pp_pix_<id>` and `pp_boleto_<id>`): of the money its account received, how much is the
   * store's (captured for orders), owed back, returned, or held.
   */
  async totals(providerIds: readonly string[]): Promise<{
    received: number;
    captured: number;
    owed: number;
    returned: number;
    held: number;
    contested: number;
  }> {
    const result = await this.db.raw(
      `select coalesce(sum(received_cents), 0) as received, coalesce(sum(captured_cents), 0) as captured,
              coalesce(sum(owed_cents), 0) as owed, coalesce(sum(returned_cents), 0) as returned,
              coalesce(sum(held_cents), 0) as held, coalesce(sum(contested_cents), 0) as contested
         from ${CHARGES} where deleted_at is null and status = 'paid' and provider_id = any(?)`,
      [providerIds as string[]],
    );
    const row = (result.rows as Record<string, string>[])[0] ?? {};
    return {
      received: num(row.received),
      captured: num(row.captured),
      owed: num(row.owed),
      returned: num(row.returned),
      held: num(row.held),
      contested: num(row.contested),
    };
  }

  /**
   * The entries that moved money into `captured` for these charges, each with the Medusa capture
   * it names (null: recorded before captures were named), oldest first.
   */
  async capturesOf(
    chargeIds: readonly string[],
  ): Promise<{ chargeId: string; medusaRef: string | null; cents: number }[]> {
    if (chargeIds.length === 0) return [];
    const rows = await this.db<LedgerEntry>(ENTRIES)
      .whereIn("charge_id", chargeIds as string[])
      .where({ to_part: "captured" })
      .whereRaw("from_part is distinct from 'contested'")
      .orderBy("seq", "asc")
      .select("charge_id", "medusa_ref", "amount_cents");
    return rows.map((row) => ({
      chargeId: row.charge_id,
      medusaRef: row.medusa_ref,
      cents: num(row.amount_cents),
    }));
  }

  /** A charge's entries, oldest first. */
  async entriesOf(chargeId: string): Promise<LedgerEntry[]> {
    return this.db<LedgerEntry>(ENTRIES).where({ charge_id: chargeId }).orderBy("seq", "asc");
  }

  /** The entries of these charges, oldest first. */
  async entriesOfCharges(chargeIds: readonly string[]): Promise<LedgerEntry[]> {
    if (chargeIds.length === 0) return [];
    return this.db<LedgerEntry>(ENTRIES)
      .whereIn("charge_id", chargeIds as string[])
      .orderBy("seq", "asc");
  }

  /**
   * Money of these charges that was owed back for one of `reasons` without ever being an
   * order's (moved into `owed` from the arrival or from `held`), per charge and reason, in
   * integer cents. Read from the entries, so money returned since still counts.
   */
  async owedFor(
    chargeIds: readonly string[],
    reasons: readonly string[],
  ): Promise<{ chargeId: string; reason: OwedReason; cents: number }[]> {
    if (chargeIds.length === 0) return [];
    const result = await this.db.raw(
      `select charge_id, reason, sum(amount_cents) as cents from ${ENTRIES}
        where charge_id = any(?) and to_part = 'owed'
          and from_part is distinct from 'captured' and reason = any(?)
        group by charge_id, reason`,
      [chargeIds as string[], reasons as string[]],
    );
    return (result.rows as { charge_id: string; reason: OwedReason; cents: string }[]).map(
      (row) => ({ chargeId: row.charge_id, reason: row.reason, cents: num(row.cents) }),
    );
  }

  /**
   * Money of every registration that waits on someone, in integer cents: what is owed back, and
   * what is held (for the merchant's decision or, for seconds, for Medusa's capture). Read on
   * the "Needs attention" partial index, which every such charge is on.
   */
  async outstanding(): Promise<{ held: number; owed: number }> {
    const result = await this.db.raw(
      `select coalesce(sum(held_cents), 0) as held, coalesce(sum(owed_cents), 0) as owed
         from ${CHARGES} where deleted_at is null and (held_cents > 0 or owed_cents > 0)`,
    );
    const row = (result.rows as { held: string; owed: string }[])[0];
    return { held: num(row?.held), owed: num(row?.owed) };
  }
}
