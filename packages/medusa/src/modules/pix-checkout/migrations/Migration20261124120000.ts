import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/**
 * Health alerts: one row per line of the health card, with the state last seen and since when,
 * and the state the merchant was last told of. Every instance evaluates the card; a conditional
 * `UPDATE` on this row decides which one tells the merchant, so an alert goes out once however
 * many servers and workers run. Only the alert job reads or writes it.
 */
export class Migration20261124120000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table if not exists "pix_checkout_health_alert" (
      "line_id" text not null primary key,
      "state" text not null,
      "since" timestamptz not null default now(),
      "line" jsonb not null,
      "observed_at" timestamptz not null default now(),
      "told_state" text null,
      "told_at" timestamptz null,
      "previous_state" text null,
      "alert_id" text null,
      "alert_kind" text null,
      "alert_line" jsonb null,
      "alert_since" timestamptz null,
      "event_emitted" boolean not null default false,
      "send_pending" boolean not null default false,
      "delivered_to" jsonb not null default '[]'::jsonb,
      "send_attempts" integer not null default 0,
      "send_after" timestamptz null,
      "sent_at" timestamptz null,
      "last_error" text null
    );`);
    this.addSql(
      `create index if not exists "IDX_pix_checkout_health_alert_pending" on "pix_checkout_health_alert" ("send_after") where "send_pending";`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "pix_checkout_health_alert";`);
  }
}
