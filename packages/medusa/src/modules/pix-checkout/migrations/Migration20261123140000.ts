import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/**
 * `amount_cents` as `bigint`: a Postgres `integer` ends at 2,147,483,647 cents, so a cart above
 * R$ 21.474.836,47 failed the insert and was reported as "database unavailable". Rows are read
 * through `Number(...)` (int8 arrives as a string), exact up to 2^53 cents.
 */
export class Migration20261123140000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table if exists "pix_checkout_charge" alter column "amount_cents" type bigint;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(
      `alter table if exists "pix_checkout_charge" alter column "amount_cents" type integer;`,
    );
  }
}
