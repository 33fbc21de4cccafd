import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/**
 * Indexes for what the admin reads on every visit, so a store's history does not slow it:
 *
 * - `pix_checkout_webhook_delivery (created_at)`: the health card's last delivery, its count of
 *   the day and its last hour of `charge.paid` delays filter on `created_at`; the deliveries
 *   list sorts on it (newest first, every row, so the index is not partial).
 * - `pix_checkout_charge_event (created_at)`, only payments (`to_status = 'paid'` and kind
 *   `paid` or `late_payment`): the health card's count of payments of the day by source. The
 *   predicate is the card's own, so Postgres proves the index covers it.
 * - `pix_checkout_charge (updated_at)` and `(status, updated_at)`: the charges list, newest
 *   first, all of them or one status.
 */
export class Migration20261124110000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create index if not exists "IDX_pix_checkout_webhook_delivery_created_at"
         on "pix_checkout_webhook_delivery" ("created_at");`,
    );
    this.addSql(
      `create index if not exists "IDX_pix_checkout_charge_event_paid_created_at"
         on "pix_checkout_charge_event" ("created_at")
         where "deleted_at" is null and "to_status" = 'paid' and "kind" in ('paid', 'late_payment');`,
    );
    this.addSql(
      `create index if not exists "IDX_pix_checkout_charge_updated_at"
         on "pix_checkout_charge" ("updated_at") where "deleted_at" is null;`,
    );
    this.addSql(
      `create index if not exists "IDX_pix_checkout_charge_status_updated_at"
         on "pix_checkout_charge" ("status", "updated_at") where "deleted_at" is null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "IDX_pix_checkout_webhook_delivery_created_at";`);
    this.addSql(`drop index if exists "IDX_pix_checkout_charge_event_paid_created_at";`);
    this.addSql(`drop index if exists "IDX_pix_checkout_charge_updated_at";`);
    this.addSql(`drop index if exists "IDX_pix_checkout_charge_status_updated_at";`);
  }
}
