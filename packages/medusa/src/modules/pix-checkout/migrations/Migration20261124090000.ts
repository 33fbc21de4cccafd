import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/**
 * Where a paid charge stands is a column, not a flag; collections are decided under a lock.
 *
 * - `settlement`: what a paid charge is for the money: `capturable` (it pays for its cart),
 *   `held` (less money than the code asked for: the merchant decides), `refund_due` (no order
 *   can come of it) or `captured`. Flags (`flag_code`) stay notes for the merchant: a later flag
 *   never changes the money again. Backfilled from today's flags and captures.
 * - `settlement_reason`: why it is held or due a refund (`underpaid`, `paid_twice`, ...).
 * - `api_amount_cents`, `api_paid_at`: what the API says was paid and when, not what the plugin
 *   recorded or when it noticed. Backfilled from the amount-mismatch flags' own values.
 * - `capture_claimed_by`: the holder of a capture claim, so only the holder releases it.
 * - `pix_checkout_collection_lock`: one lease per payment collection (see
 *   records/collection-locks.ts), taken by every door that decides about its money.
 */
export class Migration20261124090000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table if exists "pix_checkout_charge"
         add column if not exists "settlement" text null
           check ("settlement" in ('capturable', 'held', 'refund_due', 'captured')),
         add column if not exists "settlement_reason" text null,
         add column if not exists "api_amount_cents" bigint null,
         add column if not exists "api_paid_at" timestamptz null,
         add column if not exists "capture_claimed_by" text null;`,
    );
    this.addSql(
      `update "pix_checkout_charge" set
         "api_amount_cents" = case
           when "flag_code" = 'amount_mismatch' then coalesce(("flag_detail"->>'api_cents')::bigint, "amount_cents")
           else "amount_cents" end,
         "settlement" = case
           when "captured_at" is not null then 'captured'
           when "flag_code" = 'refund_due' then 'refund_due'
           when "flag_code" = 'amount_mismatch'
             and coalesce(("flag_detail"->>'api_cents')::bigint, "amount_cents") < "amount_cents" then 'held'
           else 'capturable' end,
         "settlement_reason" = case
           when "flag_code" = 'refund_due' then coalesce("flag_detail"->>'reason', 'paid_twice')
           when "flag_code" = 'amount_mismatch'
             and coalesce(("flag_detail"->>'api_cents')::bigint, "amount_cents") < "amount_cents" then 'underpaid'
           else null end
       where "status" = 'paid' and "settlement" is null;`,
    );
    this.addSql(
      `create table if not exists "pix_checkout_collection_lock" (
         "collection_id" text not null primary key,
         "holder" text not null,
         "expires_at" timestamptz not null
       );`,
    );
    // The pass's captures to retry and carts to complete, now by the column, not the flag.
    this.addSql(`drop index if exists "IDX_pix_checkout_charge_capture_due";`);
    this.addSql(
      `create index if not exists "IDX_pix_checkout_charge_capture_due" on "pix_checkout_charge" ("paid_at")
       where "deleted_at" is null and "status" = 'paid' and "captured_at" is null and "settlement" = 'capturable';`,
    );
    this.addSql(`drop index if exists "IDX_pix_checkout_charge_cart_due";`);
    this.addSql(
      `create index if not exists "IDX_pix_checkout_charge_cart_due" on "pix_checkout_charge" ("updated_at")
       where "deleted_at" is null and "cart_completion_failed_at" is not null and "status" = 'paid' and "captured_at" is not null and "settlement" = 'captured';`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "pix_checkout_collection_lock";`);
    this.addSql(
      `alter table if exists "pix_checkout_charge"
         drop column if exists "settlement",
         drop column if exists "settlement_reason",
         drop column if exists "api_amount_cents",
         drop column if exists "api_paid_at",
         drop column if exists "capture_claimed_by";`,
    );
  }
}
