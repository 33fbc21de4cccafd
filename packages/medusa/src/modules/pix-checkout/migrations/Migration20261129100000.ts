import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/**
 * A replaced code is news (issue 52): the charge's change notice also goes when its session is
 * deleted (`superseded_at`), so a page still showing the old code hears at once that the cart
 * has another, and the status route's cache of the row is dropped instead of answering, for up
 * to 5 s, a code that is no longer the cart's (a stale tab's "Gerar novo código" then made a
 * third code, or was refused for a cart paid meanwhile).
 */
export class Migration20261129100000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(notifyFunction(true));
  }

  override async down(): Promise<void> {
    this.addSql(notifyFunction(false));
  }
}

function notifyFunction(superseded: boolean): string {
  return `
create or replace function pix_checkout_charge_notify() returns trigger language plpgsql as $function$
begin
  if tg_op = 'INSERT'
     or new.status is distinct from old.status
     or new.paid_at is distinct from old.paid_at
     or new.expires_at is distinct from old.expires_at
     or new.session_id is distinct from old.session_id
     or new.captured_cents is distinct from old.captured_cents
     or new.owed_cents is distinct from old.owed_cents${
       superseded ? "\n     or new.superseded_at is distinct from old.superseded_at" : ""
     } then
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
`;
}
