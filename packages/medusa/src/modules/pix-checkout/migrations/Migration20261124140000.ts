import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/**
 * `pix_checkout_create_hold` keeps a place in the create line's waiting counts for a session
 * request between the session gate and its create, so requests of one client arriving together
 * meet the per-address and per-e-mail caps together (create-line/queue.ts `admit`).
 */
export class Migration20261124140000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table if not exists "pix_checkout_create_hold" ("id" text not null primary key, "client_key" text not null, "email_key" text not null, "expires_at" timestamptz not null);`,
    );
    this.addSql(
      `create index if not exists "IDX_pix_checkout_create_hold_client" on "pix_checkout_create_hold" ("client_key");`,
    );
    this.addSql(
      `create index if not exists "IDX_pix_checkout_create_hold_email" on "pix_checkout_create_hold" ("email_key");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "pix_checkout_create_hold";`);
  }
}
