import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/**
 * History: a reconciliation pass costs what is due, not what was ever sold.
 *
 * The charge and event tables only grow, and two of the pass's queries read all of them every
 * 15 s: carts awaiting completion scanned the whole event table for `cart_completion_failed`,
 * and captures to retry walked every paid charge ever. Each due set now has a partial index
 * that holds only the rows that are due, so its size follows the work, not the history.
 *
 * - `cart_completion_failed_at`: set when a paid cart failed to become an order, cleared when
 *   it did (ChargeEvents.add keeps it in step with the timeline). Existing rows are
 *   backfilled from their events once, here.
 * - `compacted_at`: when retention (see README "Retention") deleted the finished deliveries of
 *   this charge and compacted its timeline; rows are taken once, so an hourly run reads only
 *   charges it has not taken yet.
 * - The index's predicates repeat the queries' own conditions (Charges.paidNotCaptured,
 *   awaitingCartCompletion and pickFinished, WebhookDeliveries.unfinished) so the planner can prove
 *   the query is inside the index.
 */
export class Migration20261123150000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table if exists "pix_checkout_charge"
         add column if not exists "cart_completion_failed_at" timestamptz null,
         add column if not exists "compacted_at" timestamptz null;`,
    );
    this.addSql(
      `update "pix_checkout_charge" c set "cart_completion_failed_at" = f.first_failed
       from (
         select e.charge_id, min(e.created_at) as first_failed from "pix_checkout_charge_event" e
         where e.kind = 'cart_completion_failed' and e.deleted_at is null
           and not exists (
             select 1 from "pix_checkout_charge_event" done
             where done.charge_id = e.charge_id and done.kind = 'cart_completed' and done.deleted_at is null
           )
         group by e.charge_id
       ) f
       where c.charge_id = f.charge_id and c.deleted_at is null;`,
    );
    this.addSql(
      `create index if not exists "IDX_pix_checkout_charge_capture_due" on "pix_checkout_charge" ("paid_at")
       where "deleted_at" is null and "status" = 'paid' and "captured_at" is null and coalesce("flag_code", '') <> 'refund_due';`,
    );
    this.addSql(
      `create index if not exists "IDX_pix_checkout_charge_cart_due" on "pix_checkout_charge" ("updated_at")
       where "deleted_at" is null and "cart_completion_failed_at" is not null and "status" = 'paid' and "captured_at" is not null and coalesce("flag_code", '') <> 'refund_due';`,
    );
    this.addSql(
      `create index if not exists "IDX_pix_checkout_charge_not_compacted" on "pix_checkout_charge" ("created_at", "id")
       where "deleted_at" is null and "compacted_at" is null;`,
    );
    this.addSql(
      `create index if not exists "IDX_pix_checkout_webhook_delivery_unfinished" on "pix_checkout_webhook_delivery" ("created_at")
       where "deleted_at" is null and "outcome" in ('received', 'unmatched', 'error') and "attempts" < 20;`,
    );
    // Deliveries that named no charge of this store are kept as long as any charge's.
    this.addSql(
      `create index if not exists "IDX_pix_checkout_webhook_delivery_no_charge" on "pix_checkout_webhook_delivery" ("created_at")
       where "deleted_at" is null and "charge_id" is null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "IDX_pix_checkout_webhook_delivery_no_charge";`);
    this.addSql(`drop index if exists "IDX_pix_checkout_webhook_delivery_unfinished";`);
    this.addSql(`drop index if exists "IDX_pix_checkout_charge_not_compacted";`);
    this.addSql(`drop index if exists "IDX_pix_checkout_charge_cart_due";`);
    this.addSql(`drop index if exists "IDX_pix_checkout_charge_capture_due";`);
    this.addSql(
      `alter table if exists "pix_checkout_charge"
         drop column if exists "cart_completion_failed_at",
         drop column if exists "compacted_at";`,
    );
  }
}
