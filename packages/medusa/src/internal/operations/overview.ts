import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import { ChargeAttention } from "../records/attention";
import { followedReminderSql } from "../records/reminders";
import { countOrdersWithoutCode } from "../medusa/orders-without-code";

/*
 * The money first: what came in today, in 7 and in 30 São Paulo days, by Pix and by boleto;
 * the codes shown against the codes paid; the median time from a code on screen to its
 * payment; and what waits for the merchant. Read from the ledger (records/ledger.ts): income is
 * what was captured for orders; what is owed back, returned or held stands apart, and the
 * parts of the payments of a period add up to what the service received, to the cent.
 */

const CHARGES = "pix_checkout_charge";
const ZONE = "America/Sao_Paulo";
/** The periods of the first screen, in São Paulo days counting today. */
export const OVERVIEW_PERIODS = { today: 1, week: 7, month: 30 } as const;
type PeriodKey = keyof typeof OVERVIEW_PERIODS;
type Method = "pix" | "boleto";

/** One method's figures in one period. */
export interface MethodFigures {
  /**
   * Codes a shopper saw, created in the period: shown by a page (`shown_at`), or paid. A code
   * paid was on some screen, a reminder's e-mail or a page that never said it showed it, and
   * counted as paid but not as shown it made "2 codes shown" sit beside "3 paid".
   */
  shown: number;
  /** Of those, the ones paid (the conversion from code to payment). */
  shown_paid: number;
  /** Codes paid in the period. */
  paid: number;
  /** What the service received for them, integer cents (the sum of the five parts below). */
  received_cents: number;
  /** Of it, captured for orders: the store's income. */
  income_cents: number;
  /** Owed back to shoppers (paid twice, after the cart changed or was paid another way, ...). */
  owed_cents: number;
  /** Returned to shoppers: by the merchant, and by the MED (`med_returned_cents` of it). */
  returned_cents: number;
  /** Held: for the merchant's decision (less than asked arrived), or Medusa's capture. */
  held_cents: number;
  /** Blocked by an open MED ("Bloqueado (MED)", bloqueio cautelar): not income while contested. */
  contested_cents: number;
  /** Of `returned_cents`, what the MED returned to the payer ("Devolvido pelo MED"). */
  med_returned_cents: number;
  /** Median seconds from a code on screen to its payment; null with no payment. */
  median_seconds_to_pay: number | null;
  /** Carts paid after a reminder to them ("recuperados"), each cart once. */
  paid_after_reminder: number;
  /** Their income, integer cents. */
  paid_after_reminder_cents: number;
  /** Codes that expired unpaid in the period (Pix codes and boletos past their due date). */
  expired: number;
  /**
   * Payments of what an order owed after the sale (an order edit's, exchange's, claim's or
   * return's difference, a converted draft's total: any purpose but a cart's), counted in
   * `paid` too, and the income they brought, integer cents.
   */
  paid_after_sale: number;
  paid_after_sale_cents: number;
}

/** One São Paulo day of the last 30, for the charts. */
export interface OverviewDay {
  day: string;
  /** Income (captured for orders) of the day's Pix payments, integer cents. */
  pix_cents: number;
  /** Income of the day's boleto payments. */
  boleto_cents: number;
  shown: number;
  /** Of the codes shown that day, the ones paid since. */
  shown_paid: number;
  paid: number;
}

/** `GET /admin/pix-checkout/overview`. */
export interface Overview {
  today: string;
  periods: Record<PeriodKey, Record<Method, MethodFigures>>;
  days: OverviewDay[];
  /**
   * What waits for the merchant on the "Precisa de atenção" list: charges whose money or note
   * needs them, and orders kept without a code.
   */
  waiting_for_merchant: number;
}

interface Row {
  method: string;
  day: string;
  shown: string;
  shown_paid: string;
  paid: string;
  received_cents: string;
  income_cents: string;
  owed_cents: string;
  returned_cents: string;
  held_cents: string;
  contested_cents: string;
  med_returned_cents: string;
  recovered: string;
  recovered_cents: string;
  after_sale: string;
  after_sale_cents: string;
}

/** A charge for what an order owed after the sale: any purpose but a storefront cart's. */
const AFTER_SALE = "purpose is not null and purpose <> 'cart'";

/** The ledger's parts, summed as the figures show them. */
const PART_SUMS = [
  "received",
  "income",
  "owed",
  "returned",
  "held",
  "contested",
  "med_returned",
] as const;

/**
 * What the MED returned of a charge row's money, as SQL (its `med_returned` entries; 0 for a
 * charge with nothing returned, read without touching the entries).
 */
const MED_RETURNED_SQL = `case when returned_cents > 0 then coalesce((select sum(e.amount_cents)
  from pix_checkout_ledger_entry e where e.charge_id = ${CHARGES}.charge_id
   and e.reason = 'med_returned'), 0) else 0 end`;

/** The São Paulo day `daysBefore` days before `today` (`YYYY-MM-DD`). */
function dayBefore(today: string, daysBefore: number): string {
  const date = new Date(`${today}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() - daysBefore);
  return date.toISOString().slice(0, 10);
}

/**
 * The overview at `now`. Two reads bounded by the indexes on `created_at` and on the paid
 * `paid_at` (30 days each), two medians and the attention count.
 */
export async function readOverview(db: Knex, now = new Date()): Promise<Overview> {
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: ZONE }).format(now);
  const first = dayBefore(today, OVERVIEW_PERIODS.month - 1);
  // Midnight of the first day in São Paulo, as an instant.
  const since = (day: string) => db.raw(`(?::date::timestamp at time zone '${ZONE}')`, [day]);
  const dayOf = (column: string) => `to_char(${column} at time zone '${ZONE}', 'YYYY-MM-DD')`;

  const shownRows = (await db(CHARGES)
    .select(
      "method",
      db.raw(`${dayOf("created_at")} as day`),
      db.raw("count(*) as shown"),
      db.raw("count(*) filter (where status = 'paid') as shown_paid"),
    )
    .whereNull("deleted_at")
    .where((q) => q.whereNotNull("shown_at").orWhere({ status: "paid" }))
    .where("created_at", ">=", since(first))
    .groupBy("method", "day")) as unknown as Pick<Row, "method" | "day" | "shown" | "shown_paid">[];
  const paidRows = (await db(CHARGES)
    .select(
      "method",
      db.raw(`${dayOf("paid_at")} as day`),
      db.raw("count(*) as paid"),
      db.raw("coalesce(sum(received_cents), 0) as received_cents"),
      db.raw("coalesce(sum(captured_cents), 0) as income_cents"),
      db.raw("coalesce(sum(owed_cents), 0) as owed_cents"),
      db.raw("coalesce(sum(returned_cents), 0) as returned_cents"),
      db.raw("coalesce(sum(held_cents), 0) as held_cents"),
      db.raw("coalesce(sum(contested_cents), 0) as contested_cents"),
      db.raw(`coalesce(sum(${MED_RETURNED_SQL}), 0) as med_returned_cents`),
      // A cart once, by the payment that became its order's.
      db.raw(
        `count(distinct payment_collection_id) filter (where captured_cents > 0 and ${followedReminderSql(CHARGES)}) as recovered`,
      ),
      db.raw(
        `coalesce(sum(captured_cents) filter (where ${followedReminderSql(CHARGES)}), 0) as recovered_cents`,
      ),
      // Labelled by what the charge was for when it was made (its `purpose`).
      db.raw(`count(*) filter (where ${AFTER_SALE}) as after_sale`),
      db.raw(`coalesce(sum(captured_cents) filter (where ${AFTER_SALE}), 0) as after_sale_cents`),
    )
    .where({ status: "paid" })
    .whereNull("deleted_at")
    .where("paid_at", ">=", since(first))
    .groupBy("method", "day")) as unknown as Omit<Row, "shown" | "shown_paid">[];
  const expiredRows = (await db(CHARGES)
    .select("method", db.raw(`${dayOf("expires_at")} as day`), db.raw("count(*) as expired"))
    .where({ status: "expired" })
    .whereNull("deleted_at")
    .where("expires_at", ">=", since(first))
    .groupBy("method", "day")) as unknown as { method: string; day: string; expired: string }[];

  const days: OverviewDay[] = Array.from({ length: OVERVIEW_PERIODS.month }, (_, k) => ({
    day: dayBefore(today, OVERVIEW_PERIODS.month - 1 - k),
    pix_cents: 0,
    boleto_cents: 0,
    shown: 0,
    shown_paid: 0,
    paid: 0,
  }));
  const byDay = new Map(days.map((d) => [d.day, d]));
  const empty = (): MethodFigures => ({
    shown: 0,
    shown_paid: 0,
    paid: 0,
    received_cents: 0,
    income_cents: 0,
    owed_cents: 0,
    returned_cents: 0,
    held_cents: 0,
    contested_cents: 0,
    med_returned_cents: 0,
    median_seconds_to_pay: null,
    paid_after_reminder: 0,
    paid_after_reminder_cents: 0,
    expired: 0,
    paid_after_sale: 0,
    paid_after_sale_cents: 0,
  });
  const periods = Object.fromEntries(
    (Object.keys(OVERVIEW_PERIODS) as PeriodKey[]).map((key) => [
      key,
      { pix: empty(), boleto: empty() },
    ]),
  ) as Overview["periods"];
  const periodsOf = (day: string) =>
    (Object.keys(OVERVIEW_PERIODS) as PeriodKey[]).filter(
      (key) => day >= dayBefore(today, OVERVIEW_PERIODS[key] - 1),
    );

  for (const row of shownRows) {
    const method = row.method === "boleto" ? "boleto" : "pix";
    const day = byDay.get(row.day);
    if (day) {
      day.shown += Number(row.shown);
      day.shown_paid += Number(row.shown_paid);
    }
    for (const key of periodsOf(row.day)) {
      periods[key][method].shown += Number(row.shown);
      periods[key][method].shown_paid += Number(row.shown_paid);
    }
  }
  for (const row of paidRows) {
    const method = row.method === "boleto" ? "boleto" : "pix";
    const day = byDay.get(row.day);
    if (day) {
      day.paid += Number(row.paid);
      day[method === "pix" ? "pix_cents" : "boleto_cents"] += Number(row.income_cents);
    }
    for (const key of periodsOf(row.day)) {
      periods[key][method].paid += Number(row.paid);
      for (const part of PART_SUMS) {
        periods[key][method][`${part}_cents`] += Number(row[`${part}_cents`]);
      }
      periods[key][method].paid_after_reminder += Number(row.recovered);
      periods[key][method].paid_after_reminder_cents += Number(row.recovered_cents);
      periods[key][method].paid_after_sale += Number(row.after_sale);
      periods[key][method].paid_after_sale_cents += Number(row.after_sale_cents);
    }
  }
  for (const row of expiredRows) {
    const method = row.method === "boleto" ? "boleto" : "pix";
    for (const key of periodsOf(row.day)) periods[key][method].expired += Number(row.expired);
  }

  for (const key of Object.keys(OVERVIEW_PERIODS) as PeriodKey[]) {
    const medians = (await db(CHARGES)
      .select(
        "method",
        db.raw(
          "percentile_cont(0.5) within group (order by extract(epoch from paid_at - shown_at)) as median",
        ),
      )
      .where({ status: "paid" })
      .whereNull("deleted_at")
      .whereNotNull("shown_at")
      .whereRaw("paid_at >= shown_at")
      .where("paid_at", ">=", since(dayBefore(today, OVERVIEW_PERIODS[key] - 1)))
      .groupBy("method")) as unknown as { method: string; median: string | null }[];
    for (const row of medians) {
      const method = row.method === "boleto" ? "boleto" : "pix";
      periods[key][method].median_seconds_to_pay =
        row.median === null ? null : Math.round(Number(row.median));
    }
  }

  // Every row of "Needs attention": the charges, and the orders kept without a code.
  const attention = await new ChargeAttention(db).attentionCounts();
  const waiting =
    Object.values(attention).reduce((sum, n) => sum + n, 0) + (await countOrdersWithoutCode(db));
  return { today, periods, days, waiting_for_merchant: waiting };
}
