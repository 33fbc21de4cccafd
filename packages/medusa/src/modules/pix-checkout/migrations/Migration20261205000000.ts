import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/**
 * Which line refused a client (the column Migration20261204000000 gave the places held): a
 * request the storefront vouched for waits behind vouched creates only, so a refusal for the
 * full line it waits in (`store`) stands for its next requests, while one for the line nobody
 * vouched for does not (queue.ts `standingFor`). Null for every refusal made before, and for
 * refusals of requests nobody vouched for.
 */
export class Migration20261205000000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
alter table pix_checkout_client_refusal add column if not exists vouched_by text null;
alter table pix_checkout_client_refusal add constraint pix_checkout_client_refusal_vouched_by_check
  check (vouched_by is null or vouched_by in ('storefront'));
`);
  }

  override async down(): Promise<void> {
    this.addSql(`
alter table pix_checkout_client_refusal drop constraint if exists pix_checkout_client_refusal_vouched_by_check;
alter table pix_checkout_client_refusal drop column if exists vouched_by;
`);
  }
}
