import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/**
 * A cart has many charges.
 *
 * - `superseded_at`: Medusa deleted or replaced the session this charge was made for (the cart
 *   changed, the shopper switched method or took a new code). The code is no longer offered;
 *   it stays payable at the bank until it expires (the API cannot cancel a charge), and a
 *   payment of it is still recorded and given a fate (see collection.ts).
 * - `order_hold_until`: until when an unpaid boleto keeps the order it waits on open: the end
 *   of the grace period in business days after its due date, because banks confirm a boleto
 *   paid on its due date a few days later. A payment that arrives before it is on time. A
 *   Pix has none: its expiry at the API is final.
 * - `flag_code`, `flag_detail`: why the charge waits for the merchant, as a code with values
 *   (the sentence in `flag_reason` stays for logs and older readers).
 * - `flag_resolved_at`, `flag_resolution_note`: the merchant dealt with it, and how.
 * - `capture_session_id`: the Medusa session a paid superseded charge was captured on, when it
 *   became the payment of the cart's current session (its own session is gone).
 */
export class Migration20261123120000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table if exists "pix_checkout_charge"
         add column if not exists "superseded_at" timestamptz null,
         add column if not exists "order_hold_until" timestamptz null,
         add column if not exists "flag_code" text null,
         add column if not exists "flag_detail" jsonb null,
         add column if not exists "flag_resolved_at" timestamptz null,
         add column if not exists "flag_resolution_note" text null,
         add column if not exists "capture_session_id" text null;`,
    );
    this.addSql(
      `update "pix_checkout_charge" set "order_hold_until" = "expires_at" where "method" = 'boleto' and "order_hold_until" is null;`,
    );
    // Final charges are never checked again; only a boleto in its grace period is (collection.ts).
    this.addSql(
      `update "pix_checkout_charge" set "next_check_at" = null where "status" in ('paid', 'expired', 'failed') and "next_check_at" is not null;`,
    );
    this.addSql(
      `create index if not exists "IDX_pix_checkout_charge_collection_live" on "pix_checkout_charge" ("payment_collection_id", "status") where "deleted_at" is null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "IDX_pix_checkout_charge_collection_live";`);
    this.addSql(
      `alter table if exists "pix_checkout_charge"
         drop column if exists "superseded_at",
         drop column if exists "order_hold_until",
         drop column if exists "flag_code",
         drop column if exists "flag_detail",
         drop column if exists "flag_resolved_at",
         drop column if exists "flag_resolution_note",
         drop column if exists "capture_session_id";`,
    );
  }
}
