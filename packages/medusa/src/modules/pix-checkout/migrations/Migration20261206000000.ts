import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/**
 * A second way to be vouched for in the create line (create-line/client-origin.ts `Vouch`):
 * `mailbox`, the cart's e-mail has an order paid at this store and holds nothing else in the
 * line. The three columns that say who vouched (the waiting creates, the places held, the
 * refusals) accept it; and what a mailbox holds, read at every admission of a proven mailbox,
 * finds the mailbox's ended requests by their own index, as an address's are.
 */
export class Migration20261206000000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
alter table pix_checkout_create_request drop constraint if exists pix_checkout_create_request_vouched_by_check;
alter table pix_checkout_create_request add constraint pix_checkout_create_request_vouched_by_check
  check (vouched_by is null or vouched_by in ('storefront', 'mailbox'));
alter table pix_checkout_create_hold drop constraint if exists pix_checkout_create_hold_vouched_by_check;
alter table pix_checkout_create_hold add constraint pix_checkout_create_hold_vouched_by_check
  check (vouched_by is null or vouched_by in ('storefront', 'mailbox'));
alter table pix_checkout_client_refusal drop constraint if exists pix_checkout_client_refusal_vouched_by_check;
alter table pix_checkout_client_refusal add constraint pix_checkout_client_refusal_vouched_by_check
  check (vouched_by is null or vouched_by in ('storefront', 'mailbox'));
create index if not exists "IDX_pix_checkout_create_request_email_done"
  on pix_checkout_create_request (email_key, done_at) where email_key is not null;
`);
  }

  override async down(): Promise<void> {
    this.addSql(`
drop index if exists "IDX_pix_checkout_create_request_email_done";
update pix_checkout_create_request set vouched_by = null where vouched_by = 'mailbox';
update pix_checkout_create_hold set vouched_by = null where vouched_by = 'mailbox';
update pix_checkout_client_refusal set vouched_by = null where vouched_by = 'mailbox';
alter table pix_checkout_create_request drop constraint if exists pix_checkout_create_request_vouched_by_check;
alter table pix_checkout_create_request add constraint pix_checkout_create_request_vouched_by_check
  check (vouched_by is null or vouched_by in ('storefront'));
alter table pix_checkout_create_hold drop constraint if exists pix_checkout_create_hold_vouched_by_check;
alter table pix_checkout_create_hold add constraint pix_checkout_create_hold_vouched_by_check
  check (vouched_by is null or vouched_by in ('storefront'));
alter table pix_checkout_client_refusal drop constraint if exists pix_checkout_client_refusal_vouched_by_check;
alter table pix_checkout_client_refusal add constraint pix_checkout_client_refusal_vouched_by_check
  check (vouched_by is null or vouched_by in ('storefront'));
`);
  }
}
