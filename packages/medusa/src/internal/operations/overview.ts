import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import { Charges } from "../records/charges";
import { followedReminderSql } from "../records/reminders";

/*
 * The money first: what came in today, in 7 and in 30 São Paulo days, by Pix and by boleto;
 * the codes shown against the codes paid; the median time from a code on screen to its
 * payment; and what waits for the merchant. Read from the plugin's own records of the charges
 * it created (amounts as the bank credited them), never from a flag.
 */

const CHARGES = "pix_checkout_charge";
const ZONE = "America/Sao_Paulo";
/** The periods of the first screen, in São Paulo days counting today. */
export const OVERVIEW_PERIODS = { today: 1, week: 7, month: 30 } as const;
type PeriodKey = keyof typeof OVERVIEW_PERIODS;
type Method = "pix" | "boleto";

/** One method's figures in one period. */
export interface MethodFigures {
  /** Codes a shopper saw, created in the period. */
  shown: number;
  /** Of those, the ones paid (the conversion from code to payment). */
  shown_paid: number;
  /** Codes paid in the period. */
  paid: number;
  /** What they brought in, integer cents, as the bank credited it. */
  paid_cents: number;
  /** Median seconds from a code on screen to its payment; null with no payment. */
  median_seconds_to_pay: number | null;
  /** Of the codes paid, those paid after a reminder to their cart ("recuperados"). */
  paid_after_reminder: number;
  /** What those brought in, integer cents. */
  paid_after_reminder_cents: number;
  /** Codes that expired unpaid in the period (Pix codes and boletos past their due date). */
  expired: number;
}

/** One São Paulo day of the last 30, for the charts. */
export interface OverviewDay {
  day: string;
  pix_cents: number;
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
  /** Charges whose money waits for the merchant (the "Precisa de atenção" list). */
  waiting_for_merchant: number;
}

interface Row {
  method: string;
  day: string;
  shown: string;
  shown_paid: string;
  paid: string;
  paid_cents: string;
  recovered: string;
  recovered_cents: string;
}

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
    .whereNotNull("shown_at")
    .where("created_at", ">=", since(first))
    .groupBy("method", "day")) as unknown as Pick<Row, "method" | "day" | "shown" | "shown_paid">[];
  const paidRows = (await db(CHARGES)
    .select(
      "method",
      db.raw(`${dayOf("paid_at")} as day`),
      db.raw("count(*) as paid"),
      db.raw("coalesce(sum(coalesce(api_amount_cents, amount_cents)), 0) as paid_cents"),
      db.raw(`count(*) filter (where ${followedReminderSql(CHARGES)}) as recovered`),
      db.raw(
        `coalesce(sum(coalesce(api_amount_cents, amount_cents)) filter (where ${followedReminderSql(CHARGES)}), 0) as recovered_cents`,
      ),
    )
    .where({ status: "paid" })
    .whereNull("deleted_at")
    .where("paid_at", ">=", since(first))
    .groupBy("method", "day")) as unknown as Pick<
    Row,
    "method" | "day" | "paid" | "paid_cents" | "recovered" | "recovered_cents"
  >[];
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
    paid_cents: 0,
    median_seconds_to_pay: null,
    paid_after_reminder: 0,
    paid_after_reminder_cents: 0,
    expired: 0,
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
      day[method === "pix" ? "pix_cents" : "boleto_cents"] += Number(row.paid_cents);
    }
    for (const key of periodsOf(row.day)) {
      periods[key][method].paid += Number(row.paid);
      periods[key][method].paid_cents += Number(row.paid_cents);
      periods[key][method].paid_after_reminder += Number(row.recovered);
      periods[key][method].paid_after_reminder_cents += Number(row.recovered_cents);
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

  const attention = await new Charges(db).attentionCounts();
  const waiting = Object.values(attention).reduce((sum, n) => sum + n, 0);
  return { today, periods, days, waiting_for_merchant: waiting };
}
