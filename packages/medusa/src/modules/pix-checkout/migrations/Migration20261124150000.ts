import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/**
 * Every real the store holds is on one list, read from where the money stands:
 *
 * - `awaiting_order_since` (was `cart_completion_failed_at`): a captured charge waits to see its
 *   cart become an order from the statement that records the capture, not from the first failed
 *   completion, so a restart between the two leaves a row reconciliation finds.
 * - `settlement` may be `refunded`: the merchant declared all of the money returned.
 * - `IDX_pix_checkout_charge_attention`: the rows that may need the merchant (records/charges.ts
 *   `MAY_NEED_ATTENTION_SQL`), so "Needs attention", the health card and the metrics read only
 *   them, not the history.
 */
export class Migration20261124150000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `do $$ begin
         if exists (select 1 from information_schema.columns
                     where table_name = 'pix_checkout_charge' and column_name = 'cart_completion_failed_at') then
           alter table "pix_checkout_charge" rename column "cart_completion_failed_at" to "awaiting_order_since";
         end if;
       end $$;`,
    );
    this.addSql(
      `alter table if exists "pix_checkout_charge" add column if not exists "awaiting_order_since" timestamptz null;`,
    );
    this.addSql(
      `alter table if exists "pix_checkout_charge" drop constraint if exists "pix_checkout_charge_settlement_check";`,
    );
    this.addSql(
      `alter table if exists "pix_checkout_charge" add constraint "pix_checkout_charge_settlement_check"
         check ("settlement" in ('capturable', 'held', 'refund_due', 'captured', 'refunded'));`,
    );
    this.addSql(`drop index if exists "IDX_pix_checkout_charge_cart_due";`);
    this.addSql(
      `create index if not exists "IDX_pix_checkout_charge_awaiting_order" on "pix_checkout_charge" ("awaiting_order_since")
       where "deleted_at" is null and "awaiting_order_since" is not null;`,
    );
    this.addSql(
      `create index if not exists "IDX_pix_checkout_charge_attention" on "pix_checkout_charge" ("updated_at")
       where deleted_at is null and (flagged
         or settlement in ('held', 'refund_due')
         or awaiting_order_since is not null
         or (settlement = 'capturable' and captured_at is null));`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "IDX_pix_checkout_charge_attention";`);
    this.addSql(`drop index if exists "IDX_pix_checkout_charge_awaiting_order";`);
    this.addSql(
      `update "pix_checkout_charge" set "settlement" = 'captured' where "settlement" = 'refunded' and "captured_at" is not null;`,
    );
    this.addSql(
      `update "pix_checkout_charge" set "settlement" = 'refund_due' where "settlement" = 'refunded';`,
    );
    this.addSql(
      `alter table if exists "pix_checkout_charge" drop constraint if exists "pix_checkout_charge_settlement_check";`,
    );
    this.addSql(
      `alter table if exists "pix_checkout_charge" add constraint "pix_checkout_charge_settlement_check"
         check ("settlement" in ('capturable', 'held', 'refund_due', 'captured'));`,
    );
    this.addSql(
      `alter table if exists "pix_checkout_charge" rename column "awaiting_order_since" to "cart_completion_failed_at";`,
    );
  }
}
