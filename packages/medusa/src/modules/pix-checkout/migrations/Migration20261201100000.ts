import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/**
 * `pix_checkout_charge.buyer_document`: the buyer's CPF or CNPJ the charge was created with (bare,
 * checked: checkout/buyer-document.ts), the plugin's own record of it. Medusa's order is given it
 * from here (order `metadata.pix_checkout_buyer_document`) when the order is placed, whichever
 * came first, the order or the payment; a session's `data` keeps it only masked. Personal data
 * (LGPD): retention clears it when it compacts a finished charge.
 */
export class Migration20261201100000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table if exists "pix_checkout_charge" add column if not exists "buyer_document" text null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(
      `alter table if exists "pix_checkout_charge" drop column if exists "buyer_document";`,
    );
  }
}
