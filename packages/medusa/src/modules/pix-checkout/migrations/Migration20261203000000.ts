import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/**
 * Who vouched that a create is a shopper's (create-line/client-origin.ts `Vouch`): `storefront`
 * when the store's storefront server signed the shopper's address. The line serves vouched
 * creates first (holding-order.ts). Null for every create made before, and for creates nobody
 * vouched for: they are served as before.
 */
export class Migration20261203000000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
alter table pix_checkout_create_request add column if not exists vouched_by text null;
alter table pix_checkout_create_request add constraint pix_checkout_create_request_vouched_by_check
  check (vouched_by is null or vouched_by in ('storefront'));
`);
  }

  override async down(): Promise<void> {
    this.addSql(`
alter table pix_checkout_create_request drop constraint if exists pix_checkout_create_request_vouched_by_check;
alter table pix_checkout_create_request drop column if exists vouched_by;
`);
  }
}
