import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import { liveCharge, type ChargeRow } from "./charges";
import type { FlagReason } from "./flag-reasons";

/**
 * A charge's note for the merchant (`flagged`, `flag_code`, `flag_detail`): why it waits for
 * them, and how they resolved it. A note explains; it never holds money (where the money is,
 * the ledger says, and "Needs attention" reads the ledger first).
 */
export class ChargeNotes {
  constructor(private readonly db: Knex) {}

  /**
   * Marks a charge for the merchant's attention, with its reason as a code and values. Use
   * `ChargeLifecycle.flag`, which also puts it on the timeline and emits the event.
   */
  async flag(chargeId: string, reason: FlagReason): Promise<ChargeRow | undefined> {
    const rows = await liveCharge(this.db, chargeId)
      .update({ ...this.flagColumns(reason), updated_at: new Date() })
      .returning("*");
    return rows[0] as ChargeRow | undefined;
  }

  /** The columns of an open note for the merchant, for an UPDATE that writes it with others. */
  flagColumns(reason: FlagReason): Record<string, unknown> {
    const { code, ...detail } = reason;
    return {
      flagged: true,
      flag_code: code,
      flag_detail: this.db.raw("?::jsonb", [JSON.stringify(detail)]),
      flag_resolved_at: null,
      flag_resolution_note: null,
    };
  }

  /** The merchant dealt with a flag; the note says how. */
  async resolveFlag(chargeId: string, note: string): Promise<ChargeRow | undefined> {
    const rows = await liveCharge(this.db, chargeId)
      .where({ flagged: true })
      .update({ ...this.resolutionColumns(note), updated_at: new Date() })
      .returning("*");
    return rows[0] as ChargeRow | undefined;
  }

  /** The columns of a resolved note, for an UPDATE that resolves it with others. */
  resolutionColumns(note: string): Record<string, unknown> {
    return {
      flagged: false,
      flag_resolved_at: this.db.raw("case when flagged then now() else flag_resolved_at end"),
      flag_resolution_note: this.db.raw("case when flagged then ? else flag_resolution_note end", [
        note,
      ]),
    };
  }
}
