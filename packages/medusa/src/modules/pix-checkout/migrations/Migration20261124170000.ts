import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/**
 * The admin's first screen reads the last 30 days of codes shown and money paid
 * (internal/operations/overview.ts): by creation for the codes, by payment for the money, so
 * its cost follows those 30 days and not the store's history.
 */
export class Migration20261124170000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create index if not exists "IDX_pix_checkout_charge_created_at" on "pix_checkout_charge" ("created_at") where "deleted_at" is null;`,
    );
    this.addSql(
      `create index if not exists "IDX_pix_checkout_charge_paid_at" on "pix_checkout_charge" ("paid_at") where "status" = 'paid' and "deleted_at" is null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "IDX_pix_checkout_charge_created_at";`);
    this.addSql(`drop index if exists "IDX_pix_checkout_charge_paid_at";`);
  }
}
