import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/**
 * Pix returned by the MED (Mecanismo Especial de Devolução, docs/ledger.md "Pix returned by the
 * MED"): the ledger's fifth part, `contested` (a bloqueio cautelar: captured money the receiving
 * institution blocked while a notificação de infração is open; not income), and the open case
 * on the charge's row, written in the same statement that moves the money (protocol number,
 * deadline, state, the amount blocked, when it opened and closed). The parts' check constraint
 * gains the new part, the entries' parts too, and the "Needs attention" index takes contested
 * charges (they need the merchant until the outcome). Adding columns and constraints is no
 * UPDATE of an entry, so the append-only trigger stands.
 */
export class Migration20261201000000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
alter table pix_checkout_charge add column if not exists contested_cents bigint not null default 0;
alter table pix_checkout_charge add column if not exists med_protocol text null;
alter table pix_checkout_charge add column if not exists med_deadline date null;
alter table pix_checkout_charge add column if not exists med_state text null;
alter table pix_checkout_charge add column if not exists med_blocked_cents bigint null;
alter table pix_checkout_charge add column if not exists med_opened_at timestamptz null;
alter table pix_checkout_charge add column if not exists med_closed_at timestamptz null;
alter table pix_checkout_charge drop constraint if exists pix_checkout_charge_parts_check;
alter table pix_checkout_charge add constraint pix_checkout_charge_parts_check check (
  held_cents >= 0 and captured_cents >= 0 and owed_cents >= 0 and returned_cents >= 0
  and contested_cents >= 0
  and held_cents + captured_cents + owed_cents + returned_cents + contested_cents
      = coalesce(received_cents, 0));
alter table pix_checkout_charge add constraint pix_checkout_charge_med_state_check check (
  (med_state is null and med_protocol is null)
  or (med_state in ('open', 'kept', 'returned') and med_protocol is not null
      and med_deadline is not null and med_blocked_cents > 0 and med_opened_at is not null));
alter table pix_checkout_charge add constraint pix_checkout_charge_contested_check check (
  (contested_cents > 0) = (med_state is not distinct from 'open'));
alter table pix_checkout_ledger_entry drop constraint if exists pix_checkout_ledger_entry_from_part_check;
alter table pix_checkout_ledger_entry add constraint pix_checkout_ledger_entry_from_part_check check (
  from_part = any (array['held', 'captured', 'owed', 'returned', 'contested']));
alter table pix_checkout_ledger_entry drop constraint if exists pix_checkout_ledger_entry_to_part_check;
alter table pix_checkout_ledger_entry add constraint pix_checkout_ledger_entry_to_part_check check (
  to_part = any (array['held', 'captured', 'owed', 'returned', 'contested']));
drop index if exists "IDX_pix_checkout_charge_attention";
create index "IDX_pix_checkout_charge_attention" on pix_checkout_charge using btree (updated_at)
  where deleted_at is null and (flagged or held_cents > 0 or owed_cents > 0
    or awaiting_order_since is not null or contested_cents > 0);
`);
  }

  override async down(): Promise<void> {
    this.addSql(`
drop index if exists "IDX_pix_checkout_charge_attention";
create index "IDX_pix_checkout_charge_attention" on pix_checkout_charge using btree (updated_at)
  where deleted_at is null and (flagged or held_cents > 0 or owed_cents > 0
    or awaiting_order_since is not null);
alter table pix_checkout_charge drop constraint if exists pix_checkout_charge_contested_check;
alter table pix_checkout_charge drop constraint if exists pix_checkout_charge_med_state_check;
alter table pix_checkout_charge drop constraint if exists pix_checkout_charge_parts_check;
alter table pix_checkout_charge add constraint pix_checkout_charge_parts_check check (
  held_cents >= 0 and captured_cents >= 0 and owed_cents >= 0 and returned_cents >= 0
  and held_cents + captured_cents + owed_cents + returned_cents = coalesce(received_cents, 0));
alter table pix_checkout_charge drop column if exists med_closed_at;
alter table pix_checkout_charge drop column if exists med_opened_at;
alter table pix_checkout_charge drop column if exists med_blocked_cents;
alter table pix_checkout_charge drop column if exists med_state;
alter table pix_checkout_charge drop column if exists med_deadline;
alter table pix_checkout_charge drop column if exists med_protocol;
alter table pix_checkout_charge drop column if exists contested_cents;
`);
  }
}
