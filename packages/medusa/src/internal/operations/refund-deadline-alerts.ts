import type { HealthLine } from "./health";
import { REFUND_DEADLINE_LINE } from "./health";
import type { OwedNearDeadline } from "./refund-deadlines";

/** The order a charge paid, as the alert names it. */
export interface DeadlineOrder {
  display_id: number | null;
}

/**
 * One alert line per charge whose Pix money owed back is near its devolução deadline
 * (`refund_deadline:<charge id>`): `warning` from 15 days left, `broken` from 5 and once past.
 * They go through the health alerts' table like the card's lines, but are told once per state
 * and never reminded (health-alerts.ts `evaluateAlerts`' `onceLines`), so each charge is
 * e-mailed once as it crosses 15 days and once as it crosses 5. Never on the card: its one
 * `refund_deadline` line counts them.
 */
export function chargeDeadlineLines(
  owed: readonly OwedNearDeadline[],
  orders: ReadonlyMap<string, DeadlineOrder>,
): HealthLine[] {
  return owed.map((o): HealthLine => {
    const past = o.deadline.state === "past";
    return {
      id: `${REFUND_DEADLINE_LINE}:${o.charge_id}`,
      state: o.deadline.state === "warning" ? "warning" : "broken",
      value: o.deadline.days_left,
      detail: {
        charge_id: o.charge_id,
        order_display_id: orders.get(o.charge_id)?.display_id ?? null,
        owed_cents: o.owed_cents,
        paid_at: o.paid_at.toISOString(),
        deadline: o.deadline.deadline,
        days_left: o.deadline.days_left,
        reason: past ? "refund_deadline_charge_past" : "refund_deadline_charge",
      },
      action: past ? "refund_by_transfer" : "refund_before_deadline",
    };
  });
}
