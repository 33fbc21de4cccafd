import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/**
 * A mailbox gets at most `notifications.codeMailsPerDay` messages about an unpaid code a São
 * Paulo day, besides one per window: `pix_checkout_mail_window` counts the day's messages
 * (`sent_day`, `day_count`), and retention prunes rows whose window and day are over
 * (`IDX_pix_checkout_mail_window_sent_at`).
 */
export class Migration20261124160000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table if exists "pix_checkout_mail_window"
         add column if not exists "sent_day" date null,
         add column if not exists "day_count" integer not null default 0;`,
    );
    this.addSql(
      `create index if not exists "IDX_pix_checkout_mail_window_sent_at" on "pix_checkout_mail_window" ("sent_at");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "IDX_pix_checkout_mail_window_sent_at";`);
    this.addSql(
      `alter table if exists "pix_checkout_mail_window" drop column if exists "sent_day", drop column if exists "day_count";`,
    );
  }
}
