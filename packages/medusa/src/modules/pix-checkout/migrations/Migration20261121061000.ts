import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/**
 * Live status and refresh limiting (store routes).
 *
 * - A trigger on `pix_checkout_charge` sends `pg_notify('pix_checkout_charge', session_id)`
 *   whenever a row is inserted or its status, paid_at, expires_at or session changes. Every
 *   writer (webhook route, reconciliation job, refresh route, any instance) is covered
 *   without code of its own, and Postgres delivers the notice only after the writing
 *   transaction commits, so a listener never reads a row older than the notice.
 * - `pix_checkout_refresh_window` holds the last upstream re-check a shopper asked for per
 *   session, so the 10 s limit holds across server instances.
 */
export class Migration20261121061000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create or replace function "pix_checkout_charge_notify"() returns trigger as $$
begin
  if tg_op = 'INSERT'
     or new.status is distinct from old.status
     or new.paid_at is distinct from old.paid_at
     or new.expires_at is distinct from old.expires_at
     or new.session_id is distinct from old.session_id then
    perform pg_notify('pix_checkout_charge', new.session_id);
  end if;
  return new;
end;
$$ language plpgsql;`);
    this.addSql(`drop trigger if exists "pix_checkout_charge_notify" on "pix_checkout_charge";`);
    this.addSql(
      `create trigger "pix_checkout_charge_notify" after insert or update on "pix_checkout_charge" for each row execute function "pix_checkout_charge_notify"();`,
    );
    this.addSql(
      `create table if not exists "pix_checkout_refresh_window" ("session_id" text not null, "refreshed_at" timestamptz not null, constraint "pix_checkout_refresh_window_pkey" primary key ("session_id"));`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists "pix_checkout_charge_notify" on "pix_checkout_charge";`);
    this.addSql(`drop function if exists "pix_checkout_charge_notify"();`);
    this.addSql(`drop table if exists "pix_checkout_refresh_window" cascade;`);
  }
}
