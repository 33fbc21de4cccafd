import { Migration } from "@medusajs/framework/mikro-orm/migrations";

export class Migration20261121054016 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table if exists "pix_checkout_charge" drop constraint if exists "pix_checkout_charge_charge_id_unique";`,
    );
    this.addSql(
      `create table if not exists "pix_checkout_charge" ("id" text not null, "charge_id" text not null, "provider_id" text not null, "method" text check ("method" in ('pix', 'boleto')) not null, "variant" text check ("variant" in ('a', 'b')) not null, "session_id" text not null, "payment_collection_id" text null, "amount_cents" integer not null, "currency_code" text not null default 'brl', "status" text check ("status" in ('pending', 'paid', 'expired', 'failed', 'canceled')) not null default 'pending', "expires_at" timestamptz null, "paid_at" timestamptz null, "captured_at" timestamptz null, "last_checked_at" timestamptz null, "flagged" boolean not null default false, "flag_reason" text null, "display" jsonb null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "pix_checkout_charge_pkey" primary key ("id"));`,
    );
    this.addSql(
      `CREATE UNIQUE INDEX IF NOT EXISTS "IDX_pix_checkout_charge_charge_id_unique" ON "pix_checkout_charge" ("charge_id") WHERE deleted_at IS NULL;`,
    );
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_pix_checkout_charge_session_id" ON "pix_checkout_charge" ("session_id") WHERE deleted_at IS NULL;`,
    );
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_pix_checkout_charge_payment_collection_id" ON "pix_checkout_charge" ("payment_collection_id") WHERE deleted_at IS NULL;`,
    );
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_pix_checkout_charge_deleted_at" ON "pix_checkout_charge" ("deleted_at") WHERE deleted_at IS NULL;`,
    );
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_pix_checkout_charge_status_expires_at" ON "pix_checkout_charge" ("status", "expires_at") WHERE deleted_at IS NULL;`,
    );

    this.addSql(
      `create table if not exists "pix_checkout_charge_event" ("id" text not null, "charge_id" text not null, "kind" text not null, "from_status" text null, "to_status" text null, "source" text not null, "detail" jsonb null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "pix_checkout_charge_event_pkey" primary key ("id"));`,
    );
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_pix_checkout_charge_event_charge_id" ON "pix_checkout_charge_event" ("charge_id") WHERE deleted_at IS NULL;`,
    );
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_pix_checkout_charge_event_deleted_at" ON "pix_checkout_charge_event" ("deleted_at") WHERE deleted_at IS NULL;`,
    );

    this.addSql(
      `create table if not exists "pix_checkout_webhook_delivery" ("id" text not null, "provider_key" text not null, "event" text not null, "charge_id" text null, "body" jsonb not null, "outcome" text check ("outcome" in ('received', 'processed', 'duplicate', 'forged', 'unmatched', 'recorded', 'error')) not null default 'received', "detail" text null, "attempts" integer not null default 0, "processed_at" timestamptz null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "pix_checkout_webhook_delivery_pkey" primary key ("id"));`,
    );
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_pix_checkout_webhook_delivery_charge_id" ON "pix_checkout_webhook_delivery" ("charge_id") WHERE deleted_at IS NULL;`,
    );
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_pix_checkout_webhook_delivery_deleted_at" ON "pix_checkout_webhook_delivery" ("deleted_at") WHERE deleted_at IS NULL;`,
    );
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_pix_checkout_webhook_delivery_outcome" ON "pix_checkout_webhook_delivery" ("outcome") WHERE deleted_at IS NULL;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "pix_checkout_charge" cascade;`);

    this.addSql(`drop table if exists "pix_checkout_charge_event" cascade;`);

    this.addSql(`drop table if exists "pix_checkout_webhook_delivery" cascade;`);
  }
}
