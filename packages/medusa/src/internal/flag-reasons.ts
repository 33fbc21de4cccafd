/**
 * Why a charge waits for the merchant ("Needs attention"). The reason is stored as one
 * English sentence (logs, the admin API, other tools read it); this module writes that
 * sentence and reads it back as a code with values, so the admin can say it in the
 * merchant's language. Both directions live here so they cannot drift apart.
 */
export type FlagReason =
  | { code: "amount_mismatch"; api_cents: number; recorded_cents: number }
  | { code: "paid_after_order_canceled"; order_id: string }
  | { code: "paid_after_charge_closed"; status: string }
  | { code: "capture_failed"; attempts: number; message: string }
  | { code: "check_failed"; attempts: number; message: string }
  | { code: "other"; message: string };

/** The stored sentence for a reason. */
export function describeFlag(reason: FlagReason): string {
  switch (reason.code) {
    case "amount_mismatch":
      return `API amount ${reason.api_cents} differs from ${reason.recorded_cents}`;
    case "paid_after_order_canceled":
      return `paid after order ${reason.order_id} was canceled`;
    case "paid_after_charge_closed":
      return `paid after the charge was ${reason.status}`;
    case "capture_failed":
      return `paid, but Medusa could not capture it (${reason.attempts} attempts): ${reason.message}`;
    case "check_failed":
      return `could not be checked with the payment service after ${reason.attempts} attempts: ${reason.message}`;
    case "other":
      return reason.message;
  }
}

const READERS: Array<[RegExp, (m: RegExpExecArray) => FlagReason]> = [
  [
    /^API amount (\d+) differs from (\d+)$/,
    (m) => ({ code: "amount_mismatch", api_cents: Number(m[1]), recorded_cents: Number(m[2]) }),
  ],
  [
    /^paid after order (\S+) was canceled$/,
    (m) => ({ code: "paid_after_order_canceled", order_id: m[1]! }),
  ],
  [
    /^paid after the charge was (\w+)$/,
    (m) => ({ code: "paid_after_charge_closed", status: m[1]! }),
  ],
  [
    /^paid, but Medusa could not capture it \((\d+) attempts\): ([\s\S]*)$/,
    (m) => ({ code: "capture_failed", attempts: Number(m[1]), message: m[2]! }),
  ],
  [
    /^could not be checked with the payment service after (\d+) attempts: ([\s\S]*)$/,
    (m) => ({ code: "check_failed", attempts: Number(m[1]), message: m[2]! }),
  ],
];

/** A stored sentence read back as its reason; anything else is `other` with the text. */
export function readFlag(text: string): FlagReason {
  for (const [pattern, read] of READERS) {
    const match = pattern.exec(text);
    if (match) return read(match);
  }
  return { code: "other", message: text };
}
