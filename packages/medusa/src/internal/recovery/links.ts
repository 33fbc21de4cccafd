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
