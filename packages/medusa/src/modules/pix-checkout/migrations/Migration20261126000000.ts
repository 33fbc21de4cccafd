import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/**
 * One ledger for the money (packages/medusa/docs/ledger.md). Every real the service received
 * for a charge now sits in exactly one part (held, captured for an order, owed back, or
 * returned), kept as balances on the charge and as append-only entries, each moved by one
 * statement that writes the balance and its entry together. A check constraint makes the
 * parts add up to what the service received, to the cent.
 *
 * It replaces the `settlement` and `settlement_reason` columns, which said where a charge
 * stood but could not say that one payment was partly captured and partly owed back (an
 * overpayment), and whose notes carried money the merchant could "resolve" away. Existing
 * charges are carried over with one opening entry per part (door `migration`); refunds the
 * merchant declared on a captured charge move that much from captured to returned.
 *
 * Also the outbox of what follows a capture (the order's transactions, the `captured` event
 * and with it the shopper's "paid" message, the check that the order was not canceled
 * meanwhile): written in the statement that records the capture, delivered at least once by
 * the door that captured or by the next reconciliation pass.
 */
export class Migration20261126000000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(LEDGER);
  }

  override async down(): Promise<void> {
    this.addSql(DOWN);
  }
}

const LEDGER = `
alter table pix_checkout_charge
  add column received_cents bigint,
  add column held_cents bigint not null default 0,
  add column held_reason text,
  add column captured_cents bigint not null default 0,
  add column owed_cents bigint not null default 0,
  add column owed_reason text,
  add column returned_cents bigint not null default 0,
  add column capture_claimed_cents bigint;

-- What each paid charge received, and where it stood: its parts before any refund the
-- merchant declared, then the declared refunds taken from what was owed, then held, then
-- captured (a charge declared refunded in full is all returned).
with declared as (
  select charge_id, sum((detail->>'amount_cents')::bigint) as cents
    from pix_checkout_charge_event
   where kind = 'refund_declared' and deleted_at is null
   group by charge_id
), base as (
  select c.id, c.settlement as s, c.settlement_reason as why,
         coalesce(c.api_amount_cents, c.amount_cents) as r, c.amount_cents as a,
         coalesce(d.cents, 0) as d
    from pix_checkout_charge c left join declared d on d.charge_id = c.charge_id
   where c.status = 'paid'
), parts as (
  select id, s, why, r,
         case when s = 'refunded' then 0 else least(d, r) end as d,
         case when s = 'held' then r when s is null or s = 'capturable' then least(r, a) else 0 end as held0,
         case when s = 'captured' then least(r, a) else 0 end as captured0,
         case when s = 'refund_due' then r
              when s is null or s in ('capturable', 'captured') then greatest(r - a, 0)
              else 0 end as owed0,
         case when s = 'refunded' then r else 0 end as returned0
    from base
), taken as (
  select *, least(owed0, d) as from_owed from parts
), taken2 as (
  select *, least(held0, d - from_owed) as from_held from taken
), taken3 as (
  select *, least(captured0, d - from_owed - from_held) as from_captured from taken2
)
update pix_checkout_charge c set
  received_cents = t.r,
  held_cents = t.held0 - t.from_held,
  held_reason = case
    when t.held0 - t.from_held = 0 then null
    when t.s = 'held' then 'underpaid'
    when t.why = 'accepted' then 'accepted'
    else 'awaiting_capture' end,
  captured_cents = t.captured0 - t.from_captured,
  owed_cents = t.owed0 - t.from_owed,
  owed_reason = case
    when t.owed0 - t.from_owed = 0 then null
    when t.s = 'refund_due' then coalesce(t.why, 'paid_twice')
    else 'overpaid' end,
  returned_cents = t.returned0 + t.from_owed + t.from_held + t.from_captured
from taken3 t where t.id = c.id;

create table pix_checkout_ledger_entry (
  id text not null primary key,
  seq bigserial,
  charge_id text not null,
  payment_collection_id text,
  from_part text check (from_part in ('held', 'captured', 'owed', 'returned')),
  to_part text not null check (to_part in ('held', 'captured', 'owed', 'returned')),
  amount_cents bigint not null check (amount_cents > 0),
  reason text not null,
  door text not null,
  medusa_ref text,
  created_at timestamp with time zone not null default now()
);
create index "IDX_pix_checkout_ledger_entry_charge" on pix_checkout_ledger_entry (charge_id, seq);
create index "IDX_pix_checkout_ledger_entry_created_at" on pix_checkout_ledger_entry (created_at);

-- The opening entries of every charge paid before the ledger, so that its entries add up to its
-- balances and read as its history did: the money arrives when the service says it was paid;
-- what Medusa captured goes into \`captured\` (named \`before-ledger\`, as Medusa's), and what
-- left it since was owed back (an order canceled after its capture) or returned; each refund
-- the merchant declared is an entry of its own, with the declaration's id and time, so the
-- books of a past day (and an OFX imported before) read as they did.
create temporary table pix_checkout_opening as
with paid as (
  select c.id as row_id, c.charge_id, c.payment_collection_id, c.received_cents as r, c.held_cents as held,
         c.held_reason, c.captured_cents as captured, c.owed_cents as owed, c.owed_reason,
         c.returned_cents as returned, coalesce(c.api_paid_at, c.paid_at, c.created_at) as paid_time,
         case when c.captured_at is not null or c.captured_cents > 0
              then least(greatest(least(c.received_cents, c.amount_cents), c.captured_cents),
                         c.received_cents - c.held_cents)
              else 0 end as mc
    from pix_checkout_charge c where c.status = 'paid'
), from_captured as (
  select p.*, least(p.owed, greatest(p.mc - p.captured, 0)) as ofc from paid p
)
select f.*, greatest(f.mc - f.captured - f.ofc, 0) as rfc,
       f.owed - f.ofc as ofa, f.returned - greatest(f.mc - f.captured - f.ofc, 0) as rfa
  from from_captured f;

insert into pix_checkout_ledger_entry (id, charge_id, payment_collection_id, from_part, to_part, amount_cents, reason, door, medusa_ref, created_at)
select 'pxle_open_' || e.name || '_' || o.row_id, o.charge_id, o.payment_collection_id, e.from_part, e.to_part,
       e.cents, e.reason, 'migration', e.medusa_ref, o.paid_time
  from pix_checkout_opening o
  cross join lateral (values
    ('held', null, 'held', o.held, coalesce(o.held_reason, 'awaiting_capture'), null),
    ('captured', null, 'captured', o.mc, 'captured', 'before-ledger'),
    ('owed', null, 'owed', o.ofa, coalesce(o.owed_reason, 'paid_twice'), null),
    ('owed_from_captured', 'captured', 'owed', o.ofc, coalesce(o.owed_reason, 'order_canceled'), null)
  ) as e(name, from_part, to_part, cents, reason, medusa_ref)
 where e.cents > 0;

-- What was returned, as declared: each declaration's slice of [0, returned) is money that never
-- was Medusa's first (from the arrival), then money Medusa held captured (from \`captured\`).
with declared as (
  select e.id, e.charge_id, e.created_at, (e.detail->>'amount_cents')::bigint as cents,
         sum((e.detail->>'amount_cents')::bigint)
           over (partition by e.charge_id order by e.created_at, e.id) as running
    from pix_checkout_charge_event e
   where e.kind = 'refund_declared' and e.deleted_at is null
     and (e.detail->>'amount_cents')::bigint > 0
), slices as (
  select d.id as entry_id, d.created_at as at, o.*, d.running - d.cents as lo, least(d.running, o.returned) as hi
    from pix_checkout_opening o join declared d on d.charge_id = o.charge_id
  union all
  -- Returned beyond every declaration (a charge marked refunded in full).
  select 'pxle_open_returned_' || o.row_id, o.paid_time, o.*,
         least(coalesce((select max(d.running) from declared d where d.charge_id = o.charge_id), 0), o.returned),
         o.returned
    from pix_checkout_opening o
), cut as (
  select s.*, greatest(least(s.hi, s.rfa) - s.lo, 0) as outside,
         greatest(s.hi - greatest(s.lo, s.rfa), 0) as inside
    from slices s where s.hi > s.lo
)
insert into pix_checkout_ledger_entry (id, charge_id, payment_collection_id, from_part, to_part, amount_cents, reason, door, medusa_ref, created_at)
select x.id, x.charge_id, x.payment_collection_id, x.from_part, 'returned', x.cents, 'merchant_refund',
       'migration', x.medusa_ref, x.at
  from (
    select c.entry_id as id, c.charge_id, c.payment_collection_id, null as from_part,
           c.outside as cents, null as medusa_ref, c.at from cut c
    union all
    select case when c.outside > 0 then c.entry_id || '_captured' else c.entry_id end, c.charge_id,
           c.payment_collection_id, 'captured', c.inside, 'before-ledger', c.at from cut c
  ) x
 where x.cents > 0;
drop table pix_checkout_opening;

drop index if exists "IDX_pix_checkout_charge_attention";
drop index if exists "IDX_pix_checkout_charge_capture_due";
alter table pix_checkout_charge drop constraint if exists pix_checkout_charge_settlement_check;
alter table pix_checkout_charge drop column settlement, drop column settlement_reason;

alter table pix_checkout_charge add constraint pix_checkout_charge_parts_check check (
  held_cents >= 0 and captured_cents >= 0 and owed_cents >= 0 and returned_cents >= 0
  and held_cents + captured_cents + owed_cents + returned_cents = coalesce(received_cents, 0));
alter table pix_checkout_charge add constraint pix_checkout_charge_received_check check (
  (status = 'paid') = (received_cents is not null));
alter table pix_checkout_charge add constraint pix_checkout_charge_held_reason_check check (
  (held_cents = 0 and held_reason is null)
  or (held_cents > 0 and held_reason in ('awaiting_capture', 'underpaid', 'accepted')));
alter table pix_checkout_charge add constraint pix_checkout_charge_owed_reason_check check (
  (owed_cents = 0) = (owed_reason is null));

create index "IDX_pix_checkout_charge_attention" on pix_checkout_charge (updated_at)
  where deleted_at is null and (flagged or held_cents > 0 or owed_cents > 0 or awaiting_order_since is not null);
create index "IDX_pix_checkout_charge_capture_due" on pix_checkout_charge (paid_at)
  where deleted_at is null and held_cents > 0 and held_reason in ('awaiting_capture', 'accepted');
create index "IDX_pix_checkout_charge_captured" on pix_checkout_charge (id)
  where deleted_at is null and captured_cents > 0;

-- A shopper's page hears of its own charge's money moving, and of an older code of the same
-- cart whose money becomes owed back ("we received R$ X for an earlier code").
create or replace function pix_checkout_charge_notify() returns trigger language plpgsql as $function$
begin
  if tg_op = 'INSERT'
     or new.status is distinct from old.status
     or new.paid_at is distinct from old.paid_at
     or new.expires_at is distinct from old.expires_at
     or new.session_id is distinct from old.session_id
     or new.captured_cents is distinct from old.captured_cents
     or new.owed_cents is distinct from old.owed_cents then
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

create table pix_checkout_outbox (
  id text not null primary key,
  charge_id text not null,
  kind text not null check (kind in ('order_transactions', 'announce_captured', 'order_canceled_check')),
  due_at timestamp with time zone not null default now(),
  attempts integer not null default 0,
  done_at timestamp with time zone,
  outcome text,
  last_error text,
  created_at timestamp with time zone not null default now()
);
create unique index "IDX_pix_checkout_outbox_charge_kind" on pix_checkout_outbox (charge_id, kind);
create index "IDX_pix_checkout_outbox_due" on pix_checkout_outbox (due_at) where done_at is null;
`;

const DOWN = `
drop table if exists pix_checkout_outbox, pix_checkout_ledger_entry;
create or replace function pix_checkout_charge_notify() returns trigger language plpgsql as $function$
begin
  if tg_op = 'INSERT'
     or new.status is distinct from old.status
     or new.paid_at is distinct from old.paid_at
     or new.expires_at is distinct from old.expires_at
     or new.session_id is distinct from old.session_id then
    perform pg_notify('pix_checkout_charge', new.session_id);
  end if;
  return new;
end;
$function$;
drop index if exists "IDX_pix_checkout_charge_attention";
drop index if exists "IDX_pix_checkout_charge_capture_due";
drop index if exists "IDX_pix_checkout_charge_captured";
alter table pix_checkout_charge
  drop constraint if exists pix_checkout_charge_parts_check,
  drop constraint if exists pix_checkout_charge_received_check,
  drop constraint if exists pix_checkout_charge_held_reason_check,
  drop constraint if exists pix_checkout_charge_owed_reason_check,
  add column settlement text check (settlement in ('capturable', 'held', 'refund_due', 'captured', 'refunded')),
  add column settlement_reason text;
update pix_checkout_charge set
  settlement = case
    when status <> 'paid' then null
    when held_reason = 'underpaid' then 'held'
    when owed_cents > 0 then 'refund_due'
    when held_cents > 0 then 'capturable'
    when captured_cents > 0 then 'captured'
    else 'refunded' end,
  settlement_reason = case
    when held_reason = 'underpaid' then 'underpaid'
    when owed_cents > 0 then owed_reason
    when held_reason = 'accepted' then 'accepted' end;
alter table pix_checkout_charge
  drop column received_cents, drop column held_cents, drop column held_reason,
  drop column captured_cents, drop column owed_cents, drop column owed_reason,
  drop column returned_cents, drop column capture_claimed_cents;
create index "IDX_pix_checkout_charge_attention" on pix_checkout_charge (updated_at)
  where deleted_at is null and (flagged or settlement in ('held', 'refund_due') or awaiting_order_since is not null or (settlement = 'capturable' and captured_at is null));
create index "IDX_pix_checkout_charge_capture_due" on pix_checkout_charge (paid_at)
  where deleted_at is null and status = 'paid' and captured_at is null and settlement = 'capturable';
`;
