import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/**
 * The sales channel of the cart a charge pays for, so the store routes serve a session only
 * to publishable keys of that channel (another storefront's key cannot read it). Rows made
 * before this have none and stay readable as before.
 */
export class Migration20261121093000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table if exists "pix_checkout_charge" add column if not exists "sales_channel_id" text null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(
      `alter table if exists "pix_checkout_charge" drop column if exists "sales_channel_id";`,
    );
  }
}
