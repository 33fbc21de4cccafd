import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/**
 * The open-flags gauge (telemetry) counts flagged charges at every metrics collection; a
 * partial index keeps that count to the few rows that need the merchant.
 */
export class Migration20261123213000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create index if not exists "IDX_pix_checkout_charge_flagged" on "pix_checkout_charge" ("id") where "flagged" and "deleted_at" is null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "IDX_pix_checkout_charge_flagged";`);
  }
}
