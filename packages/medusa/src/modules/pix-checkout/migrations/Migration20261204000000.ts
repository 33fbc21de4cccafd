import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/**
 * Who vouched for the session request holding a place in the create line (the column
 * Migration20261203000000 gave the waiting creates): a vouched request is counted against the
 * vouched creates only (waiting-caps.ts), since the line serves those first (holding-order.ts).
 * Null for every place held before, and for places nobody vouched for.
 */
export class Migration20261204000000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
alter table pix_checkout_create_hold add column if not exists vouched_by text null;
alter table pix_checkout_create_hold add constraint pix_checkout_create_hold_vouched_by_check
  check (vouched_by is null or vouched_by in ('storefront'));
`);
  }

  override async down(): Promise<void> {
    this.addSql(`
alter table pix_checkout_create_hold drop constraint if exists pix_checkout_create_hold_vouched_by_check;
alter table pix_checkout_create_hold drop column if exists vouched_by;
`);
  }
}
