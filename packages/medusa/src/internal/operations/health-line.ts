// The health card's words, apart from how each line is measured (health.ts, redis-health.ts,
// med-deadline.ts): what every line says, so a line's own module needs nothing of the card's.

/** How a line of the health card stands. */
export type HealthState = "ok" | "warning" | "broken";

/**
 * What the merchant does when a line is not ok. Stable codes: the admin shows each in the
 * merchant's language, and the README's "Health" table says the same in English.
 */
export type HealthAction =
  | "check_api_key"
  | "check_base_url"
  | "check_variant"
  | "wait_for_service"
  | "check_webhook_url"
  | "check_worker"
  | "see_needs_attention"
  | "wait_for_cart_retries"
  | "busy_minute"
  | "enable_on_region"
  | "add_brl_region"
  | "record_med_outcome"
  | "refund_before_deadline"
  | "refund_by_transfer"
  | "check_redis";

/**
 * One line of `GET /admin/pix-checkout/health`. `id` is stable (`service:<registration>`,
 * `variant:<registration>`, `webhooks`, `checks`, `captures`, `carts`, `attention`, `med`,
 * `create_budget:<registration>`, `region:<Medusa provider id>`, `redis`); `value` is the line's headline figure, `detail` the
 * figures behind it (and `reason` when the line is not ok).
 */
export interface HealthLine {
  id: string;
  state: HealthState;
  value: string | number | null;
  detail: Record<string, unknown>;
  action: HealthAction | null;
}

/** The whole card: the worst line's state, when it was read, and the lines. */
export interface HealthReport {
  state: HealthState;
  checked_at: string;
  lines: HealthLine[];
}
