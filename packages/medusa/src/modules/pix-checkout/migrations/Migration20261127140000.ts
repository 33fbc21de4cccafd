import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/**
 * How often a reminder's link was opened, per token and per client address
 * (`records/link-hits.ts`): the recovery pages answer 429 past their limits, and every instance
 * of the store must count the same hits. One row per key and window, the key hashed (neither a
 * token nor an address is kept); rows whose window ended a day ago are swept by the requests
 * themselves.
 */
export class Migration20261127140000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
create table if not exists pix_checkout_link_hit (
  key_hash text not null,
  window_started_at timestamp with time zone not null,
  hits integer not null,
  constraint pix_checkout_link_hit_pkey primary key (key_hash)
);
create index if not exists "IDX_pix_checkout_link_hit_window" on pix_checkout_link_hit (window_started_at);
`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists pix_checkout_link_hit;`);
  }
}
