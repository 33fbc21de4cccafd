import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/**
 * A line that new shoppers can always enter (issue 50):
 *
 * - `pix_checkout_client_refusal`: each client the create line refused a place, until its
 *   `Retry-After`. A refused client asking again before then is refused again, even when a
 *   place freed (create-line/client-refusals.ts), on every instance.
 * - `pix_checkout_client_refresh`: each client's "I already paid" re-checks of the minute, so
 *   the cap is per client across instances, not per instance (records/refresh-windows.ts).
 * - An index on the holds' expiry: the session route's early refusal counts the live holds of
 *   the whole line in its one query (create-line/queue.ts `standing`), and pruning finds the
 *   lapsed ones by it.
 */
export class Migration20261127100000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(UP);
  }

  override async down(): Promise<void> {
    this.addSql(DOWN);
  }
}

const UP = `
create table pix_checkout_client_refusal (
  client_key text not null primary key,
  cap text not null check (cap in ('client', 'email', 'store')),
  refused_at timestamp with time zone not null default now(),
  refused_until timestamp with time zone not null
);
create index "IDX_pix_checkout_client_refusal_until" on pix_checkout_client_refusal (refused_until);

create table pix_checkout_client_refresh (
  client_key text not null primary key,
  window_start timestamp with time zone not null,
  used integer not null check (used > 0)
);
create index "IDX_pix_checkout_client_refresh_window" on pix_checkout_client_refresh (window_start);

create index "IDX_pix_checkout_create_hold_expires" on pix_checkout_create_hold (expires_at);
`;

const DOWN = `
drop index if exists "IDX_pix_checkout_create_hold_expires";
drop table if exists pix_checkout_client_refusal, pix_checkout_client_refresh;
`;
