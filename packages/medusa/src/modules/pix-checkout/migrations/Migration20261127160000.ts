import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/**
 * Stock that cannot be taken hostage (issue 50):
 *
 * - `pix_checkout_unpaid_order`: each cart that became an order before its Pix or boleto was
 *   paid, with whom it is counted against (client, mailbox, payer document) and its units, so
 *   `cart.complete` can refuse an unpaid order past `fairness.unpaidOrdersMax` or
 *   `unpaidUnitsMax` (create-line/unpaid-orders.ts). Whether a row still holds stock is read
 *   from Medusa's order, never stored.
 * - `pix_checkout_create_request.payer_key`: the payer document's pseudonymous key (a SHA-256
 *   of its digits), kept after the create's payer data is dropped, so the document can be
 *   counted at completion. Pruned with the request.
 */
export class Migration20261127160000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(UP);
  }

  override async down(): Promise<void> {
    this.addSql(DOWN);
  }
}

const UP = `
alter table pix_checkout_create_request add column if not exists payer_key text;

create table pix_checkout_unpaid_order (
  cart_id text not null primary key,
  session_id text not null,
  client_key text not null,
  email_key text not null,
  payer_key text,
  units integer not null check (units > 0),
  placed_at timestamp with time zone not null default now()
);
create index "IDX_pix_checkout_unpaid_order_client" on pix_checkout_unpaid_order (client_key);
create index "IDX_pix_checkout_unpaid_order_email" on pix_checkout_unpaid_order (email_key);
create index "IDX_pix_checkout_unpaid_order_payer" on pix_checkout_unpaid_order (payer_key)
  where payer_key is not null;
create index "IDX_pix_checkout_unpaid_order_placed" on pix_checkout_unpaid_order (placed_at);
`;

const DOWN = `
drop table if exists pix_checkout_unpaid_order;
alter table pix_checkout_create_request drop column if exists payer_key;
`;
