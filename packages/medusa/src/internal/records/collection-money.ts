import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import { CHARGES, type ChargeRow } from "./charges";
import { everCapturedSql, Ledger, liveClaimSql } from "./ledger";

/** A charge row as settlement decides it: with what its ledger says beyond its balances. */
export interface DecisionRow extends ChargeRow {
  /** What the ledger ever moved into `captured` for it (records/ledger.ts `everCapturedSql`). */
  ever_captured_cents: string | number;
  /** Its capture claim is live (records/ledger.ts `liveClaimSql`). */
  claim_live: boolean;
}

/** A capture entry of the ledger: the Medusa capture it names (null: named none). */
export type CaptureEntry = Awaited<ReturnType<Ledger["capturesOf"]>>[number];

/**
 * A payment collection's charges as one decision reads them (settlement/snapshot.ts): each row
 * with what the ledger ever captured of it and whether a capture claim on it is live, read in
 * the row's own statement so the figures agree, and the ledger's capture entries, which name
 * Medusa's captures by id.
 */
export class CollectionMoney {
  constructor(private readonly db: Knex) {}

  /** The collection's charges, oldest first, and their capture entries. */
  async ofCollection(
    paymentCollectionId: string,
  ): Promise<{ rows: DecisionRow[]; captures: CaptureEntry[] }> {
    const result = await this.db.raw<{ rows: DecisionRow[] }>(
      `select c.*, ${everCapturedSql("c")} as ever_captured_cents, ${liveClaimSql("c")} as claim_live
         from ${CHARGES} c
        where c.payment_collection_id = ? and c.deleted_at is null
        order by c.created_at asc`,
      [paymentCollectionId],
    );
    const rows = result.rows;
    const captures = await new Ledger(this.db).capturesOf(rows.map((r) => r.charge_id));
    return { rows, captures };
  }
}
