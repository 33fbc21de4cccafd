import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/**
 * Reminders about unpaid codes (the `recovery` options): when a charge's next reminder falls
 * due, one row per step a charge went through (sent, or skipped and why), and the mailboxes
 * that asked for none.
 */
export class Migration20261125120000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
alter table pix_checkout_charge add column if not exists next_reminder_at timestamp with time zone;
create index if not exists "IDX_pix_checkout_charge_next_reminder_at" on pix_checkout_charge (next_reminder_at)
  where deleted_at is null and next_reminder_at is not null;

create table if not exists pix_checkout_reminder (
  id text not null primary key,
  charge_id text not null,
  payment_collection_id text,
  step text not null check (step in ('pix_expiring', 'pix_expired', 'boleto_due_tomorrow', 'boleto_due_today', 'boleto_overdue')),
  state text not null check (state in ('sending', 'sent', 'skipped')),
  reason text,
  token text not null,
  email_key text,
  claimed_until timestamp with time zone,
  sent_at timestamp with time zone,
  created_at timestamp with time zone not null default now()
);
create unique index if not exists "IDX_pix_checkout_reminder_charge_step" on pix_checkout_reminder (charge_id, step);
create unique index if not exists "IDX_pix_checkout_reminder_token" on pix_checkout_reminder (token);
create index if not exists "IDX_pix_checkout_reminder_collection_sent" on pix_checkout_reminder (payment_collection_id, sent_at)
  where state = 'sent';

create table if not exists pix_checkout_reminder_opt_out (
  email_key text not null primary key,
  created_at timestamp with time zone not null default now()
);`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists pix_checkout_reminder, pix_checkout_reminder_opt_out;`);
    this.addSql(`drop index if exists "IDX_pix_checkout_charge_next_reminder_at";`);
    this.addSql(`alter table pix_checkout_charge drop column if exists next_reminder_at;`);
  }
}
