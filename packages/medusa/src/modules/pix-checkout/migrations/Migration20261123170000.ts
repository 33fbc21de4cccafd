import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/**
 * The create line: the API accepts 60 charge creates a minute, and every instance of a store
 * (servers and workers) draws on that one budget.
 *
 * - `pix_checkout_create_request` is one create a payment session asked for. It waits in line
 *   (`waiting`, first come first served by `seq`), is sent (`sending`, under a lease), and
 *   ends `done` (with the charge id), `failed` or `canceled`. A session deleted while its
 *   request is in flight sets `cancel_requested`: the charge it gets is recorded superseded. A request counts against the
 *   budget from when it is sent until a minute after its answer arrived (`done_at`), by the
 *   database clock. The payer's data needed to send it (`input`) is cleared when it ends.
 * - `pix_checkout_create_budget` holds a pause per budget (a 429 the service sent anyway).
 * - Ending a request notifies `pix_checkout_charge` with its session id, like a charge change,
 *   so a shopper's open stream learns that a create failed.
 */
export class Migration20261123170000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table if not exists "pix_checkout_create_request" (
  "id" text not null,
  "seq" bigserial not null,
  "budget_key" text not null,
  "provider_key" text not null,
  "provider_id" text not null,
  "method" text not null,
  "session_id" text not null,
  "payment_collection_id" text null,
  "sales_channel_id" text null,
  "amount_cents" bigint not null,
  "input" jsonb null,
  "state" text not null default 'waiting',
  "enqueued_at" timestamptz not null default now(),
  "sent_at" timestamptz null,
  "lease_until" timestamptz null,
  "done_at" timestamptz null,
  "charge_id" text null,
  "cancel_requested" boolean not null default false,
  "error_code" text null,
  "error_message" text null,
  constraint "pix_checkout_create_request_pkey" primary key ("id"),
  constraint "pix_checkout_create_request_state_check" check ("state" in ('waiting', 'sending', 'done', 'failed', 'canceled'))
);`);
    // The line and the requests in flight: small, whatever the history.
    this.addSql(
      `create index if not exists "IDX_pix_checkout_create_request_open" on "pix_checkout_create_request" ("budget_key", "seq") where "state" in ('waiting', 'sending');`,
    );
    // The last minute's answers (the budget's window), and pruning.
    this.addSql(
      `create index if not exists "IDX_pix_checkout_create_request_done_at" on "pix_checkout_create_request" ("budget_key", "done_at") where "done_at" is not null;`,
    );
    this.addSql(
      `create index if not exists "IDX_pix_checkout_create_request_session" on "pix_checkout_create_request" ("session_id", "seq");`,
    );
    this.addSql(`create table if not exists "pix_checkout_create_budget" (
  "budget_key" text not null,
  "paused_until" timestamptz not null,
  constraint "pix_checkout_create_budget_pkey" primary key ("budget_key")
);`);
    this
      .addSql(`create or replace function "pix_checkout_create_request_notify"() returns trigger as $$
begin
  if new.state in ('failed', 'canceled') and new.state is distinct from old.state then
    perform pg_notify('pix_checkout_charge', new.session_id);
  end if;
  return new;
end;
$$ language plpgsql;`);
    this.addSql(
      `drop trigger if exists "pix_checkout_create_request_notify" on "pix_checkout_create_request";`,
    );
    this.addSql(
      `create trigger "pix_checkout_create_request_notify" after update on "pix_checkout_create_request" for each row execute function "pix_checkout_create_request_notify"();`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "pix_checkout_create_request" cascade;`);
    this.addSql(`drop function if exists "pix_checkout_create_request_notify"();`);
    this.addSql(`drop table if exists "pix_checkout_create_budget" cascade;`);
  }
}
