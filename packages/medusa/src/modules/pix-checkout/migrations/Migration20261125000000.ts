import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/**
 * The plugin's whole schema as of 0.1.0, in one migration: its tables, their constraints and
 * indexes, and the triggers that wake the live-status streams (pg_notify on
 * `pix_checkout_charge`). It replaces the 21 migrations of the builds before the first release,
 * which no published version ever shipped. src/modules/pix-checkout/schema.sql describes the
 * schema a fresh database has after every migration, and a test keeps it true.
 *
 * A database those earlier builds migrated (a developer's machine, a demo) already has this
 * schema and records their last migration: it is adopted as it is. One with the plugin's
 * tables but not that record was left halfway by an older build; the migration stops and says
 * how to reset it (CHANGELOG.md, 0.1.0).
 */
export class Migration20261125000000 extends Migration {
  override async up(): Promise<void> {
    const [found] = await this.execute(
      `select to_regclass('pix_checkout_charge') is not null as tables,
              to_regclass('mikro_orm_migrations') is not null
                and exists (select 1 from mikro_orm_migrations
                             where name = 'Migration20261124170000') as complete`,
    );
    if (found?.tables) {
      if (found.complete) {
        // The earlier builds' chain ended before the reminders' tables: add them.
        this.addSql(REMINDERS);
        return;
      }
      throw new Error(
        "The Pix Checkout tables were made by a build older than 0.1.0 and are not complete. " +
          "Drop them and their migration records as packages/medusa/CHANGELOG.md (0.1.0) says, " +
          "then run npx medusa db:migrate again.",
      );
    }
    this.addSql(BASELINE);
    this.addSql(REMINDERS);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists pix_checkout_reminder, pix_checkout_reminder_opt_out;`);
    this.addSql(
      `drop table if exists pix_checkout_charge, pix_checkout_charge_event, pix_checkout_collection_lock, pix_checkout_create_budget, pix_checkout_create_hold, pix_checkout_create_request, pix_checkout_health_alert, pix_checkout_mail_window, pix_checkout_refresh_window, pix_checkout_webhook_delivery cascade;`,
    );
    this.addSql(`drop sequence if exists pix_checkout_create_request_seq_seq;`);
    this.addSql(
      `drop function if exists pix_checkout_charge_notify(), pix_checkout_create_request_notify();`,
    );
  }
}

const BASELINE = `
CREATE SEQUENCE pix_checkout_create_request_seq_seq;

CREATE TABLE pix_checkout_charge (
  id text NOT NULL,
  charge_id text NOT NULL,
  provider_id text NOT NULL,
  method text NOT NULL,
  variant text NOT NULL,
  session_id text NOT NULL,
  payment_collection_id text,
  amount_cents bigint NOT NULL,
  currency_code text DEFAULT 'brl'::text NOT NULL,
  status text DEFAULT 'pending'::text NOT NULL,
  expires_at timestamp with time zone,
  paid_at timestamp with time zone,
  captured_at timestamp with time zone,
  last_checked_at timestamp with time zone,
  flagged boolean DEFAULT false NOT NULL,
  display jsonb,
  created_at timestamp with time zone DEFAULT now() NOT NULL,
  updated_at timestamp with time zone DEFAULT now() NOT NULL,
  deleted_at timestamp with time zone,
  capture_claimed_at timestamp with time zone,
  sales_channel_id text,
  next_check_at timestamp with time zone,
  check_failures integer DEFAULT 0 NOT NULL,
  superseded_at timestamp with time zone,
  order_hold_until timestamp with time zone,
  flag_code text,
  flag_detail jsonb,
  flag_resolved_at timestamp with time zone,
  flag_resolution_note text,
  capture_session_id text,
  awaiting_order_since timestamp with time zone,
  compacted_at timestamp with time zone,
  settlement text,
  settlement_reason text,
  api_amount_cents bigint,
  api_paid_at timestamp with time zone,
  capture_claimed_by text,
  shown_at timestamp with time zone
);

CREATE TABLE pix_checkout_charge_event (
  id text NOT NULL,
  charge_id text NOT NULL,
  kind text NOT NULL,
  from_status text,
  to_status text,
  source text NOT NULL,
  detail jsonb,
  created_at timestamp with time zone DEFAULT now() NOT NULL,
  updated_at timestamp with time zone DEFAULT now() NOT NULL,
  deleted_at timestamp with time zone
);

CREATE TABLE pix_checkout_collection_lock (
  collection_id text NOT NULL,
  holder text NOT NULL,
  expires_at timestamp with time zone NOT NULL
);

CREATE TABLE pix_checkout_create_budget (
  budget_key text NOT NULL,
  paused_until timestamp with time zone NOT NULL
);

CREATE TABLE pix_checkout_create_hold (
  id text NOT NULL,
  client_key text NOT NULL,
  email_key text NOT NULL,
  expires_at timestamp with time zone NOT NULL
);

CREATE TABLE pix_checkout_create_request (
  id text NOT NULL,
  seq bigint DEFAULT nextval('pix_checkout_create_request_seq_seq'::regclass) NOT NULL,
  budget_key text NOT NULL,
  provider_key text NOT NULL,
  provider_id text NOT NULL,
  method text NOT NULL,
  session_id text NOT NULL,
  payment_collection_id text,
  sales_channel_id text,
  amount_cents bigint NOT NULL,
  input jsonb,
  state text DEFAULT 'waiting'::text NOT NULL,
  enqueued_at timestamp with time zone DEFAULT now() NOT NULL,
  sent_at timestamp with time zone,
  lease_until timestamp with time zone,
  done_at timestamp with time zone,
  charge_id text,
  cancel_requested boolean DEFAULT false NOT NULL,
  error_code text,
  error_message text,
  attempts integer DEFAULT 0 NOT NULL,
  client_key text,
  email_key text
);

CREATE TABLE pix_checkout_health_alert (
  line_id text NOT NULL,
  state text NOT NULL,
  since timestamp with time zone DEFAULT now() NOT NULL,
  line jsonb NOT NULL,
  observed_at timestamp with time zone DEFAULT now() NOT NULL,
  told_state text,
  told_at timestamp with time zone,
  previous_state text,
  alert_id text,
  alert_kind text,
  alert_line jsonb,
  alert_since timestamp with time zone,
  event_emitted boolean DEFAULT false NOT NULL,
  send_pending boolean DEFAULT false NOT NULL,
  delivered_to jsonb DEFAULT '[]'::jsonb NOT NULL,
  send_attempts integer DEFAULT 0 NOT NULL,
  send_after timestamp with time zone,
  sent_at timestamp with time zone,
  last_error text
);

CREATE TABLE pix_checkout_mail_window (
  email_key text NOT NULL,
  sent_at timestamp with time zone NOT NULL,
  sent_day date,
  day_count integer DEFAULT 0 NOT NULL
);

CREATE TABLE pix_checkout_refresh_window (
  session_id text NOT NULL,
  refreshed_at timestamp with time zone NOT NULL
);

CREATE TABLE pix_checkout_webhook_delivery (
  id text NOT NULL,
  provider_key text NOT NULL,
  event text NOT NULL,
  charge_id text,
  body jsonb NOT NULL,
  outcome text DEFAULT 'received'::text NOT NULL,
  detail text,
  attempts integer DEFAULT 0 NOT NULL,
  processed_at timestamp with time zone,
  created_at timestamp with time zone DEFAULT now() NOT NULL,
  updated_at timestamp with time zone DEFAULT now() NOT NULL,
  deleted_at timestamp with time zone
);

ALTER TABLE pix_checkout_charge ADD CONSTRAINT pix_checkout_charge_method_check CHECK ((method = ANY (ARRAY['pix'::text, 'boleto'::text])));

ALTER TABLE pix_checkout_charge ADD CONSTRAINT pix_checkout_charge_pkey PRIMARY KEY (id);

ALTER TABLE pix_checkout_charge ADD CONSTRAINT pix_checkout_charge_settlement_check CHECK ((settlement = ANY (ARRAY['capturable'::text, 'held'::text, 'refund_due'::text, 'captured'::text, 'refunded'::text])));

ALTER TABLE pix_checkout_charge ADD CONSTRAINT pix_checkout_charge_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'paid'::text, 'expired'::text, 'failed'::text, 'canceled'::text])));

ALTER TABLE pix_checkout_charge ADD CONSTRAINT pix_checkout_charge_variant_check CHECK ((variant = ANY (ARRAY['a'::text, 'b'::text])));

ALTER TABLE pix_checkout_charge_event ADD CONSTRAINT pix_checkout_charge_event_pkey PRIMARY KEY (id);

ALTER TABLE pix_checkout_collection_lock ADD CONSTRAINT pix_checkout_collection_lock_pkey PRIMARY KEY (collection_id);

ALTER TABLE pix_checkout_create_budget ADD CONSTRAINT pix_checkout_create_budget_pkey PRIMARY KEY (budget_key);

ALTER TABLE pix_checkout_create_hold ADD CONSTRAINT pix_checkout_create_hold_pkey PRIMARY KEY (id);

ALTER TABLE pix_checkout_create_request ADD CONSTRAINT pix_checkout_create_request_pkey PRIMARY KEY (id);

ALTER TABLE pix_checkout_create_request ADD CONSTRAINT pix_checkout_create_request_state_check CHECK ((state = ANY (ARRAY['waiting'::text, 'sending'::text, 'done'::text, 'failed'::text, 'canceled'::text])));

ALTER TABLE pix_checkout_health_alert ADD CONSTRAINT pix_checkout_health_alert_pkey PRIMARY KEY (line_id);

ALTER TABLE pix_checkout_mail_window ADD CONSTRAINT pix_checkout_mail_window_pkey PRIMARY KEY (email_key);

ALTER TABLE pix_checkout_refresh_window ADD CONSTRAINT pix_checkout_refresh_window_pkey PRIMARY KEY (session_id);

ALTER TABLE pix_checkout_webhook_delivery ADD CONSTRAINT pix_checkout_webhook_delivery_outcome_check CHECK ((outcome = ANY (ARRAY['received'::text, 'processed'::text, 'duplicate'::text, 'forged'::text, 'unmatched'::text, 'recorded'::text, 'error'::text, 'failed'::text])));

ALTER TABLE pix_checkout_webhook_delivery ADD CONSTRAINT pix_checkout_webhook_delivery_pkey PRIMARY KEY (id);

CREATE INDEX "IDX_pix_checkout_charge_attention" ON pix_checkout_charge USING btree (updated_at) WHERE ((deleted_at IS NULL) AND (flagged OR (settlement = ANY (ARRAY['held'::text, 'refund_due'::text])) OR (awaiting_order_since IS NOT NULL) OR ((settlement = 'capturable'::text) AND (captured_at IS NULL))));

CREATE INDEX "IDX_pix_checkout_charge_awaiting_order" ON pix_checkout_charge USING btree (awaiting_order_since) WHERE ((deleted_at IS NULL) AND (awaiting_order_since IS NOT NULL));

CREATE INDEX "IDX_pix_checkout_charge_capture_due" ON pix_checkout_charge USING btree (paid_at) WHERE ((deleted_at IS NULL) AND (status = 'paid'::text) AND (captured_at IS NULL) AND (settlement = 'capturable'::text));

CREATE UNIQUE INDEX "IDX_pix_checkout_charge_charge_id_unique" ON pix_checkout_charge USING btree (charge_id) WHERE (deleted_at IS NULL);

CREATE INDEX "IDX_pix_checkout_charge_collection_live" ON pix_checkout_charge USING btree (payment_collection_id, status) WHERE (deleted_at IS NULL);

CREATE INDEX "IDX_pix_checkout_charge_created_at" ON pix_checkout_charge USING btree (created_at) WHERE (deleted_at IS NULL);

CREATE INDEX "IDX_pix_checkout_charge_deleted_at" ON pix_checkout_charge USING btree (deleted_at) WHERE (deleted_at IS NULL);

CREATE INDEX "IDX_pix_checkout_charge_flagged" ON pix_checkout_charge USING btree (id) WHERE (flagged AND (deleted_at IS NULL));

CREATE INDEX "IDX_pix_checkout_charge_next_check_at" ON pix_checkout_charge USING btree (next_check_at) WHERE ((deleted_at IS NULL) AND (next_check_at IS NOT NULL));

CREATE INDEX "IDX_pix_checkout_charge_not_compacted" ON pix_checkout_charge USING btree (created_at, id) WHERE ((deleted_at IS NULL) AND (compacted_at IS NULL));

CREATE INDEX "IDX_pix_checkout_charge_paid_at" ON pix_checkout_charge USING btree (paid_at) WHERE ((status = 'paid'::text) AND (deleted_at IS NULL));

CREATE INDEX "IDX_pix_checkout_charge_payment_collection_id" ON pix_checkout_charge USING btree (payment_collection_id) WHERE (deleted_at IS NULL);

CREATE INDEX "IDX_pix_checkout_charge_session_id" ON pix_checkout_charge USING btree (session_id) WHERE (deleted_at IS NULL);

CREATE INDEX "IDX_pix_checkout_charge_status_expires_at" ON pix_checkout_charge USING btree (status, expires_at) WHERE (deleted_at IS NULL);

CREATE INDEX "IDX_pix_checkout_charge_status_updated_at" ON pix_checkout_charge USING btree (status, updated_at) WHERE (deleted_at IS NULL);

CREATE INDEX "IDX_pix_checkout_charge_updated_at" ON pix_checkout_charge USING btree (updated_at) WHERE (deleted_at IS NULL);

CREATE INDEX "IDX_pix_checkout_charge_event_charge_id" ON pix_checkout_charge_event USING btree (charge_id) WHERE (deleted_at IS NULL);

CREATE INDEX "IDX_pix_checkout_charge_event_deleted_at" ON pix_checkout_charge_event USING btree (deleted_at) WHERE (deleted_at IS NULL);

CREATE INDEX "IDX_pix_checkout_charge_event_paid_created_at" ON pix_checkout_charge_event USING btree (created_at) WHERE ((deleted_at IS NULL) AND (to_status = 'paid'::text) AND (kind = ANY (ARRAY['paid'::text, 'late_payment'::text])));

CREATE INDEX "IDX_pix_checkout_create_hold_client" ON pix_checkout_create_hold USING btree (client_key);

CREATE INDEX "IDX_pix_checkout_create_hold_email" ON pix_checkout_create_hold USING btree (email_key);

CREATE INDEX "IDX_pix_checkout_create_request_client_done" ON pix_checkout_create_request USING btree (client_key, done_at) WHERE (client_key IS NOT NULL);

CREATE INDEX "IDX_pix_checkout_create_request_client_waiting" ON pix_checkout_create_request USING btree (client_key) WHERE (state = 'waiting'::text);

CREATE INDEX "IDX_pix_checkout_create_request_done_at" ON pix_checkout_create_request USING btree (budget_key, done_at) WHERE (done_at IS NOT NULL);

CREATE INDEX "IDX_pix_checkout_create_request_email_waiting" ON pix_checkout_create_request USING btree (email_key) WHERE (state = 'waiting'::text);

CREATE INDEX "IDX_pix_checkout_create_request_open" ON pix_checkout_create_request USING btree (budget_key, seq) WHERE (state = ANY (ARRAY['waiting'::text, 'sending'::text]));

CREATE INDEX "IDX_pix_checkout_create_request_session" ON pix_checkout_create_request USING btree (session_id, seq);

CREATE INDEX "IDX_pix_checkout_health_alert_pending" ON pix_checkout_health_alert USING btree (send_after) WHERE send_pending;

CREATE INDEX "IDX_pix_checkout_mail_window_sent_at" ON pix_checkout_mail_window USING btree (sent_at);

CREATE INDEX "IDX_pix_checkout_webhook_delivery_charge_id" ON pix_checkout_webhook_delivery USING btree (charge_id) WHERE (deleted_at IS NULL);

CREATE INDEX "IDX_pix_checkout_webhook_delivery_created_at" ON pix_checkout_webhook_delivery USING btree (created_at);

CREATE INDEX "IDX_pix_checkout_webhook_delivery_deleted_at" ON pix_checkout_webhook_delivery USING btree (deleted_at) WHERE (deleted_at IS NULL);

CREATE INDEX "IDX_pix_checkout_webhook_delivery_no_charge" ON pix_checkout_webhook_delivery USING btree (created_at) WHERE ((deleted_at IS NULL) AND (charge_id IS NULL));

CREATE INDEX "IDX_pix_checkout_webhook_delivery_outcome" ON pix_checkout_webhook_delivery USING btree (outcome) WHERE (deleted_at IS NULL);

CREATE INDEX "IDX_pix_checkout_webhook_delivery_unfinished" ON pix_checkout_webhook_delivery USING btree (created_at) WHERE ((deleted_at IS NULL) AND (outcome = ANY (ARRAY['received'::text, 'unmatched'::text, 'error'::text])) AND (attempts < 20));

CREATE OR REPLACE FUNCTION pix_checkout_charge_notify()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
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
$function$;

CREATE OR REPLACE FUNCTION pix_checkout_create_request_notify()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  if new.state in ('failed', 'canceled') and new.state is distinct from old.state then
    perform pg_notify('pix_checkout_charge', new.session_id);
  end if;
  return new;
end;
$function$;

CREATE TRIGGER pix_checkout_charge_notify AFTER INSERT OR UPDATE ON pix_checkout_charge FOR EACH ROW EXECUTE FUNCTION pix_checkout_charge_notify();

CREATE TRIGGER pix_checkout_create_request_notify AFTER UPDATE ON pix_checkout_create_request FOR EACH ROW EXECUTE FUNCTION pix_checkout_create_request_notify();

ALTER SEQUENCE pix_checkout_create_request_seq_seq OWNED BY pix_checkout_create_request.seq;
`;

/**
 * Reminders about unpaid codes (the `recovery` options): when a charge's next reminder falls
 * due, one row per step a charge went through (sent, or skipped and why), and the mailboxes
 * that asked for none. Written to run on a fresh baseline and on a database the earlier builds
 * migrated alike.
 */
const REMINDERS = `
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
);`;
