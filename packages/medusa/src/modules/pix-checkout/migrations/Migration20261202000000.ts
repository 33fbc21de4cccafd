import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/**
 * A MED may block money the store already owes back (docs/ledger.md "Pix returned by the MED";
 * operations/med-split.ts): `med_blocked_owed_cents` is the part of the case's block that stays
 * in the ledger's `owed` part, marked as the case's, so no devolução clock and no refund asks for
 * it while the case is open. A case may now be open with nothing contested (a block of owed money
 * only), so the contested check holds contested money to an open case, and an open case to money
 * it blocked; while it is open, the charge owes at least what it blocked. Adding a column and
 * constraints is no UPDATE of an entry, so the append-only trigger stands.
 */
export class Migration20261202000000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
alter table pix_checkout_charge add column if not exists med_blocked_owed_cents bigint not null default 0;
alter table pix_checkout_charge drop constraint if exists pix_checkout_charge_contested_check;
alter table pix_checkout_charge add constraint pix_checkout_charge_contested_check check (
  (contested_cents = 0 or med_state is not distinct from 'open')
  and (med_state is distinct from 'open' or contested_cents + med_blocked_owed_cents > 0));
alter table pix_checkout_charge add constraint pix_checkout_charge_med_blocked_owed_check check (
  med_blocked_owed_cents >= 0
  and (med_state is distinct from 'open' or owed_cents >= med_blocked_owed_cents));
`);
  }

  override async down(): Promise<void> {
    this.addSql(`
alter table pix_checkout_charge drop constraint if exists pix_checkout_charge_med_blocked_owed_check;
alter table pix_checkout_charge drop constraint if exists pix_checkout_charge_contested_check;
alter table pix_checkout_charge add constraint pix_checkout_charge_contested_check check (
  (contested_cents > 0) = (med_state is not distinct from 'open'));
alter table pix_checkout_charge drop column if exists med_blocked_owed_cents;
`);
  }
}
