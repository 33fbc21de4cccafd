-- The plugin's tables as `npx medusa db:migrate` leaves a fresh database, described by
-- Postgres itself (integration-tests/helpers/plugin-schema.ts). A test migrates a fresh
-- database and compares: a new migration changes this file, and the diff is the change.
-- Regenerate: UPDATE_PLUGIN_SCHEMA=1 DB_HOST=localhost npx vitest run --project medusa packages/medusa/integration-tests/http/boot.test.ts

CREATE SEQUENCE pix_checkout_create_request_seq_seq;
ALTER SEQUENCE pix_checkout_create_request_seq_seq OWNED BY pix_checkout_create_request.seq;

CREATE SEQUENCE pix_checkout_ledger_entry_seq_seq;
ALTER SEQUENCE pix_checkout_ledger_entry_seq_seq OWNED BY pix_checkout_ledger_entry.seq;

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
  api_amount_cents bigint,
  api_paid_at timestamp with time zone,
  capture_claimed_by text,
  shown_at timestamp with time zone,
  next_reminder_at timestamp with time zone,
  received_cents bigint,
  held_cents bigint DEFAULT 0 NOT NULL,
  held_reason text,
  captured_cents bigint DEFAULT 0 NOT NULL,
  owed_cents bigint DEFAULT 0 NOT NULL,
  owed_reason text,
  returned_cents bigint DEFAULT 0 NOT NULL,
  capture_claimed_cents bigint,
  purpose text,
  capture_claim_door text,
  contested_cents bigint DEFAULT 0 NOT NULL,
  med_protocol text,
  med_deadline date,
  med_state text,
  med_blocked_cents bigint,
  med_opened_at timestamp with time zone,
  med_closed_at timestamp with time zone,
  buyer_document text,
  med_blocked_owed_cents bigint DEFAULT 0 NOT NULL
);
ALTER TABLE pix_checkout_charge ADD CONSTRAINT pix_checkout_charge_capture_claim_door_check CHECK (((capture_claim_door IS NULL) OR (capture_claim_door = ANY (ARRAY['settlement'::text, 'authorize'::text]))));
ALTER TABLE pix_checkout_charge ADD CONSTRAINT pix_checkout_charge_contested_check CHECK ((((contested_cents = 0) OR (NOT (med_state IS DISTINCT FROM 'open'::text))) AND ((med_state IS DISTINCT FROM 'open'::text) OR ((contested_cents + med_blocked_owed_cents) > 0))));
ALTER TABLE pix_checkout_charge ADD CONSTRAINT pix_checkout_charge_held_reason_check CHECK ((((held_cents = 0) AND (held_reason IS NULL)) OR ((held_cents > 0) AND (held_reason = ANY (ARRAY['awaiting_capture'::text, 'underpaid'::text, 'accepted'::text])))));
ALTER TABLE pix_checkout_charge ADD CONSTRAINT pix_checkout_charge_med_blocked_owed_check CHECK (((med_blocked_owed_cents >= 0) AND ((med_state IS DISTINCT FROM 'open'::text) OR (owed_cents >= med_blocked_owed_cents))));
ALTER TABLE pix_checkout_charge ADD CONSTRAINT pix_checkout_charge_med_state_check CHECK ((((med_state IS NULL) AND (med_protocol IS NULL)) OR ((med_state = ANY (ARRAY['open'::text, 'kept'::text, 'returned'::text])) AND (med_protocol IS NOT NULL) AND (med_deadline IS NOT NULL) AND (med_blocked_cents > 0) AND (med_opened_at IS NOT NULL))));
ALTER TABLE pix_checkout_charge ADD CONSTRAINT pix_checkout_charge_method_check CHECK ((method = ANY (ARRAY['pix'::text, 'boleto'::text])));
ALTER TABLE pix_checkout_charge ADD CONSTRAINT pix_checkout_charge_owed_reason_check CHECK (((owed_cents = 0) = (owed_reason IS NULL)));
ALTER TABLE pix_checkout_charge ADD CONSTRAINT pix_checkout_charge_parts_check CHECK (((held_cents >= 0) AND (captured_cents >= 0) AND (owed_cents >= 0) AND (returned_cents >= 0) AND (contested_cents >= 0) AND (((((held_cents + captured_cents) + owed_cents) + returned_cents) + contested_cents) = COALESCE(received_cents, (0)::bigint))));
ALTER TABLE pix_checkout_charge ADD CONSTRAINT pix_checkout_charge_pkey PRIMARY KEY (id);
ALTER TABLE pix_checkout_charge ADD CONSTRAINT pix_checkout_charge_purpose_check CHECK (((purpose IS NULL) OR (purpose = ANY (ARRAY['cart'::text, 'order'::text, 'order_edit'::text, 'exchange'::text, 'claim'::text, 'return'::text]))));
ALTER TABLE pix_checkout_charge ADD CONSTRAINT pix_checkout_charge_received_check CHECK (((status = 'paid'::text) = (received_cents IS NOT NULL)));
ALTER TABLE pix_checkout_charge ADD CONSTRAINT pix_checkout_charge_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'paid'::text, 'expired'::text, 'failed'::text, 'canceled'::text])));
ALTER TABLE pix_checkout_charge ADD CONSTRAINT pix_checkout_charge_variant_check CHECK ((variant = ANY (ARRAY['a'::text, 'b'::text])));
CREATE INDEX "IDX_pix_checkout_charge_attention" ON pix_checkout_charge USING btree (updated_at) WHERE ((deleted_at IS NULL) AND (flagged OR (held_cents > 0) OR (owed_cents > 0) OR (awaiting_order_since IS NOT NULL) OR (contested_cents > 0)));
CREATE INDEX "IDX_pix_checkout_charge_awaiting_order" ON pix_checkout_charge USING btree (awaiting_order_since) WHERE ((deleted_at IS NULL) AND (awaiting_order_since IS NOT NULL));
CREATE INDEX "IDX_pix_checkout_charge_capture_due" ON pix_checkout_charge USING btree (paid_at) WHERE ((deleted_at IS NULL) AND (held_cents > 0) AND (held_reason = ANY (ARRAY['awaiting_capture'::text, 'accepted'::text])));
CREATE INDEX "IDX_pix_checkout_charge_captured" ON pix_checkout_charge USING btree (id) WHERE ((deleted_at IS NULL) AND (captured_cents > 0));
CREATE UNIQUE INDEX "IDX_pix_checkout_charge_charge_id_unique" ON pix_checkout_charge USING btree (charge_id) WHERE (deleted_at IS NULL);
CREATE INDEX "IDX_pix_checkout_charge_collection_live" ON pix_checkout_charge USING btree (payment_collection_id, status) WHERE (deleted_at IS NULL);
CREATE INDEX "IDX_pix_checkout_charge_created_at" ON pix_checkout_charge USING btree (created_at) WHERE (deleted_at IS NULL);
CREATE INDEX "IDX_pix_checkout_charge_deleted_at" ON pix_checkout_charge USING btree (deleted_at) WHERE (deleted_at IS NULL);
CREATE INDEX "IDX_pix_checkout_charge_flagged" ON pix_checkout_charge USING btree (id) WHERE (flagged AND (deleted_at IS NULL));
CREATE INDEX "IDX_pix_checkout_charge_next_check_at" ON pix_checkout_charge USING btree (next_check_at) WHERE ((deleted_at IS NULL) AND (next_check_at IS NOT NULL));
CREATE INDEX "IDX_pix_checkout_charge_next_reminder_at" ON pix_checkout_charge USING btree (next_reminder_at) WHERE ((deleted_at IS NULL) AND (next_reminder_at IS NOT NULL));
CREATE INDEX "IDX_pix_checkout_charge_not_compacted" ON pix_checkout_charge USING btree (created_at, id) WHERE ((deleted_at IS NULL) AND (compacted_at IS NULL));
CREATE INDEX "IDX_pix_checkout_charge_paid_at" ON pix_checkout_charge USING btree (paid_at) WHERE ((status = 'paid'::text) AND (deleted_at IS NULL));
CREATE INDEX "IDX_pix_checkout_charge_payment_collection_id" ON pix_checkout_charge USING btree (payment_collection_id) WHERE (deleted_at IS NULL);
CREATE INDEX "IDX_pix_checkout_charge_session_id" ON pix_checkout_charge USING btree (session_id) WHERE (deleted_at IS NULL);
CREATE INDEX "IDX_pix_checkout_charge_status_expires_at" ON pix_checkout_charge USING btree (status, expires_at) WHERE (deleted_at IS NULL);
CREATE INDEX "IDX_pix_checkout_charge_status_updated_at" ON pix_checkout_charge USING btree (status, updated_at) WHERE (deleted_at IS NULL);
CREATE INDEX "IDX_pix_checkout_charge_updated_at" ON pix_checkout_charge USING btree (updated_at) WHERE (deleted_at IS NULL);
CREATE TRIGGER pix_checkout_charge_notify AFTER INSERT OR UPDATE ON pix_checkout_charge FOR EACH ROW EXECUTE FUNCTION pix_checkout_charge_notify();

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
ALTER TABLE pix_checkout_charge_event ADD CONSTRAINT pix_checkout_charge_event_pkey PRIMARY KEY (id);
CREATE INDEX "IDX_pix_checkout_charge_event_charge_id" ON pix_checkout_charge_event USING btree (charge_id) WHERE (deleted_at IS NULL);
CREATE INDEX "IDX_pix_checkout_charge_event_deleted_at" ON pix_checkout_charge_event USING btree (deleted_at) WHERE (deleted_at IS NULL);
CREATE INDEX "IDX_pix_checkout_charge_event_paid_created_at" ON pix_checkout_charge_event USING btree (created_at) WHERE ((deleted_at IS NULL) AND (to_status = 'paid'::text) AND (kind = ANY (ARRAY['paid'::text, 'late_payment'::text])));

CREATE TABLE pix_checkout_client_refresh (
  client_key text NOT NULL,
  window_start timestamp with time zone NOT NULL,
  used integer NOT NULL
);
ALTER TABLE pix_checkout_client_refresh ADD CONSTRAINT pix_checkout_client_refresh_pkey PRIMARY KEY (client_key);
ALTER TABLE pix_checkout_client_refresh ADD CONSTRAINT pix_checkout_client_refresh_used_check CHECK ((used > 0));
CREATE INDEX "IDX_pix_checkout_client_refresh_window" ON pix_checkout_client_refresh USING btree (window_start);

CREATE TABLE pix_checkout_client_refusal (
  client_key text NOT NULL,
  cap text NOT NULL,
  refused_at timestamp with time zone DEFAULT now() NOT NULL,
  refused_until timestamp with time zone NOT NULL,
  vouched_by text
);
ALTER TABLE pix_checkout_client_refusal ADD CONSTRAINT pix_checkout_client_refusal_cap_check CHECK ((cap = ANY (ARRAY['client'::text, 'email'::text, 'store'::text])));
ALTER TABLE pix_checkout_client_refusal ADD CONSTRAINT pix_checkout_client_refusal_pkey PRIMARY KEY (client_key);
ALTER TABLE pix_checkout_client_refusal ADD CONSTRAINT pix_checkout_client_refusal_vouched_by_check CHECK (((vouched_by IS NULL) OR (vouched_by = ANY (ARRAY['storefront'::text, 'mailbox'::text]))));
CREATE INDEX "IDX_pix_checkout_client_refusal_until" ON pix_checkout_client_refusal USING btree (refused_until);

CREATE TABLE pix_checkout_collection_lock (
  collection_id text NOT NULL,
  holder text NOT NULL,
  expires_at timestamp with time zone NOT NULL
);
ALTER TABLE pix_checkout_collection_lock ADD CONSTRAINT pix_checkout_collection_lock_pkey PRIMARY KEY (collection_id);

CREATE TABLE pix_checkout_create_budget (
  budget_key text NOT NULL,
  paused_until timestamp with time zone NOT NULL
);
ALTER TABLE pix_checkout_create_budget ADD CONSTRAINT pix_checkout_create_budget_pkey PRIMARY KEY (budget_key);

CREATE TABLE pix_checkout_create_hold (
  id text NOT NULL,
  client_key text NOT NULL,
  email_key text NOT NULL,
  expires_at timestamp with time zone NOT NULL,
  vouched_by text
);
ALTER TABLE pix_checkout_create_hold ADD CONSTRAINT pix_checkout_create_hold_pkey PRIMARY KEY (id);
ALTER TABLE pix_checkout_create_hold ADD CONSTRAINT pix_checkout_create_hold_vouched_by_check CHECK (((vouched_by IS NULL) OR (vouched_by = ANY (ARRAY['storefront'::text, 'mailbox'::text]))));
CREATE INDEX "IDX_pix_checkout_create_hold_client" ON pix_checkout_create_hold USING btree (client_key);
CREATE INDEX "IDX_pix_checkout_create_hold_email" ON pix_checkout_create_hold USING btree (email_key);
CREATE INDEX "IDX_pix_checkout_create_hold_expires" ON pix_checkout_create_hold USING btree (expires_at);

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
  email_key text,
  payer_key text,
  failure_decided_at timestamp with time zone,
  kept_order_id text,
  vouched_by text
);
ALTER TABLE pix_checkout_create_request ADD CONSTRAINT pix_checkout_create_request_pkey PRIMARY KEY (id);
ALTER TABLE pix_checkout_create_request ADD CONSTRAINT pix_checkout_create_request_state_check CHECK ((state = ANY (ARRAY['waiting'::text, 'sending'::text, 'done'::text, 'failed'::text, 'canceled'::text])));
ALTER TABLE pix_checkout_create_request ADD CONSTRAINT pix_checkout_create_request_vouched_by_check CHECK (((vouched_by IS NULL) OR (vouched_by = ANY (ARRAY['storefront'::text, 'mailbox'::text]))));
CREATE INDEX "IDX_pix_checkout_create_request_client_done" ON pix_checkout_create_request USING btree (client_key, done_at) WHERE (client_key IS NOT NULL);
CREATE INDEX "IDX_pix_checkout_create_request_client_waiting" ON pix_checkout_create_request USING btree (client_key) WHERE (state = 'waiting'::text);
CREATE INDEX "IDX_pix_checkout_create_request_done_at" ON pix_checkout_create_request USING btree (budget_key, done_at) WHERE (done_at IS NOT NULL);
CREATE INDEX "IDX_pix_checkout_create_request_email_done" ON pix_checkout_create_request USING btree (email_key, done_at) WHERE (email_key IS NOT NULL);
CREATE INDEX "IDX_pix_checkout_create_request_email_waiting" ON pix_checkout_create_request USING btree (email_key) WHERE (state = 'waiting'::text);
CREATE INDEX "IDX_pix_checkout_create_request_failed_undecided" ON pix_checkout_create_request USING btree (done_at) WHERE ((state = 'failed'::text) AND (failure_decided_at IS NULL));
CREATE INDEX "IDX_pix_checkout_create_request_kept_order" ON pix_checkout_create_request USING btree (kept_order_id) WHERE (kept_order_id IS NOT NULL);
CREATE INDEX "IDX_pix_checkout_create_request_open" ON pix_checkout_create_request USING btree (budget_key, seq) WHERE (state = ANY (ARRAY['waiting'::text, 'sending'::text]));
CREATE INDEX "IDX_pix_checkout_create_request_session" ON pix_checkout_create_request USING btree (session_id, seq);
CREATE TRIGGER pix_checkout_create_request_notify AFTER UPDATE ON pix_checkout_create_request FOR EACH ROW EXECUTE FUNCTION pix_checkout_create_request_notify();

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
ALTER TABLE pix_checkout_health_alert ADD CONSTRAINT pix_checkout_health_alert_pkey PRIMARY KEY (line_id);
CREATE INDEX "IDX_pix_checkout_health_alert_pending" ON pix_checkout_health_alert USING btree (send_after) WHERE send_pending;

CREATE TABLE pix_checkout_ledger_entry (
  id text NOT NULL,
  seq bigint DEFAULT nextval('pix_checkout_ledger_entry_seq_seq'::regclass) NOT NULL,
  charge_id text NOT NULL,
  payment_collection_id text,
  from_part text,
  to_part text NOT NULL,
  amount_cents bigint NOT NULL,
  reason text NOT NULL,
  door text NOT NULL,
  medusa_ref text,
  created_at timestamp with time zone DEFAULT now() NOT NULL,
  note text
);
ALTER TABLE pix_checkout_ledger_entry ADD CONSTRAINT pix_checkout_ledger_entry_amount_cents_check CHECK ((amount_cents > 0));
ALTER TABLE pix_checkout_ledger_entry ADD CONSTRAINT pix_checkout_ledger_entry_from_part_check CHECK ((from_part = ANY (ARRAY['held'::text, 'captured'::text, 'owed'::text, 'returned'::text, 'contested'::text])));
ALTER TABLE pix_checkout_ledger_entry ADD CONSTRAINT pix_checkout_ledger_entry_pkey PRIMARY KEY (id);
ALTER TABLE pix_checkout_ledger_entry ADD CONSTRAINT pix_checkout_ledger_entry_to_part_check CHECK ((to_part = ANY (ARRAY['held'::text, 'captured'::text, 'owed'::text, 'returned'::text, 'contested'::text])));
CREATE INDEX "IDX_pix_checkout_ledger_entry_charge" ON pix_checkout_ledger_entry USING btree (charge_id, seq);
CREATE INDEX "IDX_pix_checkout_ledger_entry_created_at" ON pix_checkout_ledger_entry USING btree (created_at);
CREATE TRIGGER pix_checkout_ledger_entry_append_only BEFORE DELETE OR UPDATE ON pix_checkout_ledger_entry FOR EACH ROW EXECUTE FUNCTION pix_checkout_ledger_entry_append_only();
CREATE TRIGGER pix_checkout_ledger_entry_no_truncate BEFORE TRUNCATE ON pix_checkout_ledger_entry FOR EACH STATEMENT EXECUTE FUNCTION pix_checkout_ledger_entry_append_only();

CREATE TABLE pix_checkout_link_hit (
  key_hash text NOT NULL,
  window_started_at timestamp with time zone NOT NULL,
  hits integer NOT NULL
);
ALTER TABLE pix_checkout_link_hit ADD CONSTRAINT pix_checkout_link_hit_pkey PRIMARY KEY (key_hash);
CREATE INDEX "IDX_pix_checkout_link_hit_window" ON pix_checkout_link_hit USING btree (window_started_at);

CREATE TABLE pix_checkout_mail_window (
  email_key text NOT NULL,
  sent_at timestamp with time zone NOT NULL,
  sent_day date,
  day_count integer DEFAULT 0 NOT NULL
);
ALTER TABLE pix_checkout_mail_window ADD CONSTRAINT pix_checkout_mail_window_pkey PRIMARY KEY (email_key);
CREATE INDEX "IDX_pix_checkout_mail_window_sent_at" ON pix_checkout_mail_window USING btree (sent_at);

CREATE TABLE pix_checkout_outbox (
  id text NOT NULL,
  charge_id text NOT NULL,
  kind text NOT NULL,
  due_at timestamp with time zone DEFAULT now() NOT NULL,
  attempts integer DEFAULT 0 NOT NULL,
  done_at timestamp with time zone,
  outcome text,
  last_error text,
  created_at timestamp with time zone DEFAULT now() NOT NULL
);
ALTER TABLE pix_checkout_outbox ADD CONSTRAINT pix_checkout_outbox_kind_check CHECK ((kind = ANY (ARRAY['order_transactions'::text, 'announce_captured'::text, 'order_canceled_check'::text])));
ALTER TABLE pix_checkout_outbox ADD CONSTRAINT pix_checkout_outbox_pkey PRIMARY KEY (id);
CREATE UNIQUE INDEX "IDX_pix_checkout_outbox_charge_kind" ON pix_checkout_outbox USING btree (charge_id, kind);
CREATE INDEX "IDX_pix_checkout_outbox_due" ON pix_checkout_outbox USING btree (due_at) WHERE (done_at IS NULL);

CREATE TABLE pix_checkout_refresh_window (
  session_id text NOT NULL,
  refreshed_at timestamp with time zone NOT NULL
);
ALTER TABLE pix_checkout_refresh_window ADD CONSTRAINT pix_checkout_refresh_window_pkey PRIMARY KEY (session_id);

CREATE TABLE pix_checkout_reminder (
  id text NOT NULL,
  charge_id text NOT NULL,
  payment_collection_id text,
  step text NOT NULL,
  state text NOT NULL,
  reason text,
  token text NOT NULL,
  email_key text,
  claimed_until timestamp with time zone,
  sent_at timestamp with time zone,
  created_at timestamp with time zone DEFAULT now() NOT NULL
);
ALTER TABLE pix_checkout_reminder ADD CONSTRAINT pix_checkout_reminder_pkey PRIMARY KEY (id);
ALTER TABLE pix_checkout_reminder ADD CONSTRAINT pix_checkout_reminder_state_check CHECK ((state = ANY (ARRAY['sending'::text, 'sent'::text, 'skipped'::text])));
ALTER TABLE pix_checkout_reminder ADD CONSTRAINT pix_checkout_reminder_step_check CHECK ((step = ANY (ARRAY['pix_expiring'::text, 'pix_expired'::text, 'boleto_due_tomorrow'::text, 'boleto_due_today'::text, 'boleto_overdue'::text])));
CREATE UNIQUE INDEX "IDX_pix_checkout_reminder_charge_step" ON pix_checkout_reminder USING btree (charge_id, step);
CREATE INDEX "IDX_pix_checkout_reminder_collection_sent" ON pix_checkout_reminder USING btree (payment_collection_id, sent_at) WHERE (state = 'sent'::text);
CREATE UNIQUE INDEX "IDX_pix_checkout_reminder_token" ON pix_checkout_reminder USING btree (token);

CREATE TABLE pix_checkout_reminder_opt_out (
  email_key text NOT NULL,
  created_at timestamp with time zone DEFAULT now() NOT NULL
);
ALTER TABLE pix_checkout_reminder_opt_out ADD CONSTRAINT pix_checkout_reminder_opt_out_pkey PRIMARY KEY (email_key);

CREATE TABLE pix_checkout_unpaid_order (
  cart_id text NOT NULL,
  session_id text NOT NULL,
  client_key text NOT NULL,
  email_key text NOT NULL,
  payer_key text,
  units integer NOT NULL,
  placed_at timestamp with time zone DEFAULT now() NOT NULL
);
ALTER TABLE pix_checkout_unpaid_order ADD CONSTRAINT pix_checkout_unpaid_order_pkey PRIMARY KEY (cart_id);
ALTER TABLE pix_checkout_unpaid_order ADD CONSTRAINT pix_checkout_unpaid_order_units_check CHECK ((units > 0));
CREATE INDEX "IDX_pix_checkout_unpaid_order_client" ON pix_checkout_unpaid_order USING btree (client_key);
CREATE INDEX "IDX_pix_checkout_unpaid_order_email" ON pix_checkout_unpaid_order USING btree (email_key);
CREATE INDEX "IDX_pix_checkout_unpaid_order_payer" ON pix_checkout_unpaid_order USING btree (payer_key) WHERE (payer_key IS NOT NULL);
CREATE INDEX "IDX_pix_checkout_unpaid_order_placed" ON pix_checkout_unpaid_order USING btree (placed_at);

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
ALTER TABLE pix_checkout_webhook_delivery ADD CONSTRAINT pix_checkout_webhook_delivery_outcome_check CHECK ((outcome = ANY (ARRAY['received'::text, 'processed'::text, 'duplicate'::text, 'forged'::text, 'unmatched'::text, 'recorded'::text, 'error'::text, 'failed'::text])));
ALTER TABLE pix_checkout_webhook_delivery ADD CONSTRAINT pix_checkout_webhook_delivery_pkey PRIMARY KEY (id);
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
     or new.session_id is distinct from old.session_id
     or new.captured_cents is distinct from old.captured_cents
     or new.owed_cents is distinct from old.owed_cents
     or new.superseded_at is distinct from old.superseded_at then
    perform pg_notify('pix_checkout_charge', new.session_id);
  end if;
  if tg_op = 'UPDATE' and new.owed_cents is distinct from old.owed_cents
     and new.payment_collection_id is not null then
    perform pg_notify('pix_checkout_charge', s.session_id) from pix_checkout_charge s
     where s.payment_collection_id = new.payment_collection_id and s.deleted_at is null
       and s.id <> new.id;
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

CREATE OR REPLACE FUNCTION pix_checkout_ledger_entry_append_only()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  raise exception 'pix_checkout_ledger_entry is append-only: % refused. An entry is never changed or removed; a correction is a new entry.', tg_op;
end;
$function$;
