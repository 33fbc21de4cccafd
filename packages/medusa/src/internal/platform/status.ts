/** The API's charge status words, verbatim (spec: "States and transitions"). */
export const CHARGE_STATUSES = ["pending", "paid", "expired", "failed"] as const;

/** A charge status as the API spells it. */
export type ChargeStatus = (typeof CHARGE_STATUSES)[number];
