import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/**
 * Per-charge check schedule (reconciliation).
 *
 * - `next_check_at`: when the API should next be asked about a pending (or locally canceled)
 *   charge. Young charges are asked on a decaying schedule, so a lost webhook is recovered
 *   while the shopper still waits; the job claims a row by moving this forward, so each
 *   charge is asked once per due time across every instance.
 * - `check_failures`: consecutive checks that failed (the API answered 404 for a charge of
 *   another account, a renamed provider registration). Each failure backs the row off, so a
 *   bad row never delays a good one; after the cap it is flagged for the merchant.
 *
 * Existing pending rows become due at once.
 */
export class Migration20261122100000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table if exists "pix_checkout_charge" add column if not exists "next_check_at" timestamptz null, add column if not exists "check_failures" integer not null default 0;`,
    );
    this.addSql(
      `update "pix_checkout_charge" set "next_check_at" = coalesce("last_checked_at", "created_at") where "status" in ('pending', 'canceled') and "deleted_at" is null and "next_check_at" is null;`,
    );
    this.addSql(
      `create index if not exists "IDX_pix_checkout_charge_next_check_at" on "pix_checkout_charge" ("next_check_at") where "deleted_at" is null and "next_check_at" is not null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "IDX_pix_checkout_charge_next_check_at";`);
    this.addSql(
      `alter table if exists "pix_checkout_charge" drop column if exists "next_check_at", drop column if exists "check_failures";`,
    );
  }
}
