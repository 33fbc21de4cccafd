import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/**
 * `pix_checkout_create_request.kept_order_id`: the order a failed create left for the merchant
 * (placed while its code was preparing, kept because `cancelOrderOnExpiry` is off;
 * settlement/failed-creates.ts). Such a row outlives the create line's one-day retention, so the
 * "Needs attention" list keeps the order until Medusa says it was paid or canceled, and a
 * partial index holds only these rows, so the list, the health card and the alerts read that
 * index, never the line's history.
 */
export class Migration20261130100000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table if exists "pix_checkout_create_request" add column if not exists "kept_order_id" text null;`,
    );
    this.addSql(
      `create index if not exists "IDX_pix_checkout_create_request_kept_order" on "pix_checkout_create_request" ("kept_order_id") where kept_order_id is not null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "IDX_pix_checkout_create_request_kept_order";`);
    this.addSql(
      `alter table if exists "pix_checkout_create_request" drop column if exists "kept_order_id";`,
    );
  }
}
