import type { RecoveryOptions } from "../checkout/recovery-options";

/** The path of the pages a reminder's links open, on the Medusa server (api/pix-checkout/recovery). */
export const RECOVERY_PATH = "/pix-checkout/recovery";

/**
 * A reminder's two links. The token is the reminder's own (records/reminders.ts), 32
 * unguessable characters: it names one message, so whoever holds the message may take a new
 * code for its cart or stop the mailbox's reminders, and nobody else may.
 */
export function recoveryLinks(
  options: Pick<RecoveryOptions, "backendUrl">,
  token: string,
): { newCode: string; optOut: string } {
  const base = `${(options.backendUrl ?? "").replace(/\/+$/, "")}${RECOVERY_PATH}/${token}`;
  return { newCode: base, optOut: `${base}/opt-out` };
}

/** Days a new-code link works after its code ended (docs/store-api.md, "The links"). */
export const NEW_CODE_LINK_DAYS = 7;

/**
 * Days an opt-out link works after its code ended. Longer than the new-code link: a shopper
 * may want to stop the mail weeks after reading it, and mail rules such as the US CAN-SPAM
 * ask an unsubscribe link to work for 30 days after the message at least.
 */
export const OPT_OUT_LINK_DAYS = 60;

const DAY_MS = 86_400_000;

/** What a link's lifetime is counted from, all on the message's and its charge's rows. */
export interface LinkAnchors {
  /** The code's own expiry at the service (a Pix code's end, a boleto's). */
  codeExpiresAt: Date | null;
  /** A boleto's grace period end, after which its overdue message goes. */
  graceEndsAt: Date | null;
  /** When the message went. */
  sentAt: Date | null;
}

/**
 * Until when a message's link works: `NEW_CODE_LINK_DAYS` (or `OPT_OUT_LINK_DAYS`) after the
 * code ended, counting a boleto's grace period as part of it, and never less than that after
 * the message went (a message sent late still gets its days). Past it, the page says the link
 * expired and what the shopper can do instead; the token then opens nothing.
 */
export function linkValidUntil(link: "new_code" | "opt_out", anchors: LinkAnchors): Date {
  const from = Math.max(
    ...[anchors.codeExpiresAt, anchors.graceEndsAt, anchors.sentAt]
      .filter((at): at is Date => at instanceof Date && !Number.isNaN(at.getTime()))
      .map((at) => at.getTime()),
    0,
  );
  const days = link === "new_code" ? NEW_CODE_LINK_DAYS : OPT_OUT_LINK_DAYS;
  return new Date(from + days * DAY_MS);
}
