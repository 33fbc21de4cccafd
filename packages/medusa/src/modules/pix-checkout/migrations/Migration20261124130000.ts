import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/**
 * Fair service and messages only for real shoppers:
 * - a create request keeps who asked (the client's address, the cart e-mail's key), so the line
 *   serves clients in turn and caps what one may hold or have waiting;
 * - a charge keeps when the shopper's own page first showed it (`shown_at`), the signal that
 *   its code may be mailed;
 * - `pix_checkout_mail_window` keeps, per e-mail key, when the last code message went out, so
 *   an address gets at most one per window whatever the number of carts.
 */
export class Migration20261124130000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table if exists "pix_checkout_create_request" add column if not exists "client_key" text null, add column if not exists "email_key" text null;`,
    );
    this.addSql(
      `create index if not exists "IDX_pix_checkout_create_request_client_waiting" on "pix_checkout_create_request" ("client_key") where "state" = 'waiting';`,
    );
    this.addSql(
      `create index if not exists "IDX_pix_checkout_create_request_email_waiting" on "pix_checkout_create_request" ("email_key") where "state" = 'waiting';`,
    );
    this.addSql(
      `create index if not exists "IDX_pix_checkout_create_request_client_done" on "pix_checkout_create_request" ("client_key", "done_at") where "client_key" is not null;`,
    );
    this.addSql(
      `alter table if exists "pix_checkout_charge" add column if not exists "shown_at" timestamptz null;`,
    );
    this.addSql(
      `create table if not exists "pix_checkout_mail_window" ("email_key" text not null primary key, "sent_at" timestamptz not null);`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "pix_checkout_mail_window";`);
    this.addSql(`alter table if exists "pix_checkout_charge" drop column if exists "shown_at";`);
    this.addSql(`drop index if exists "IDX_pix_checkout_create_request_client_done";`);
    this.addSql(`drop index if exists "IDX_pix_checkout_create_request_email_waiting";`);
    this.addSql(`drop index if exists "IDX_pix_checkout_create_request_client_waiting";`);
    this.addSql(
      `alter table if exists "pix_checkout_create_request" drop column if exists "email_key", drop column if exists "client_key";`,
    );
  }
}
