import type { ConfigModule } from "@medusajs/framework/types";
import { z } from "zod";
import { pluginOptionSection } from "../platform/plugin-options";

/** A day: the shortest gap between two reminders of a line that stays bad. */
export const REMINDER_MIN_HOURS = 24;

/**
 * `alerts` in the plugin's options: tell the merchant when a line of the health card turns bad
 * and when it recovers, through Medusa's Notification Module. Off unless `enabled` is true.
 */
export const alertOptionsSchema = z
  .object({
    enabled: z.boolean().default(false),
    /** E-mail addresses, sent on the `email` channel. */
    to: z.array(z.string().email()).default([]),
    /** Any other channel a notification provider of the store serves (`{ channel, to }`). */
    recipients: z
      .array(z.object({ channel: z.string().min(1), to: z.string().min(1) }).strict())
      .default([]),
    /** How long a line must hold its new state before anyone is told (one blip pages nobody). */
    holdSeconds: z.number().int().min(0).max(86_400).default(300),
    /** A line still bad is reminded this often, never more than daily; `false`: never. */
    reminderHours: z
      .union([
        z
          .number()
          .int()
          .min(REMINDER_MIN_HOURS)
          .max(24 * 30),
        z.literal(false),
      ])
      .default(24),
    locale: z.enum(["pt-BR", "en"]).default("pt-BR"),
    /** Sender, for providers that take one per message; most take it from their own options. */
    from: z.string().min(1).optional(),
    /** The template name handed to providers that render their own templates. */
    template: z.string().min(1).default("pix-checkout-health-changed"),
    /** Lines never alerted on: an id (`service:a`) or a kind (`flags`, `create_budget`). */
    ignoreLines: z.array(z.string().min(1)).default([]),
    /** The admin page linked from the message, e.g. `https://loja.example.com/app/pix-checkout`. */
    adminUrl: z
      .string()
      .refine((url) => /^https?:\/\/[^\s]+$/.test(url), {
        message: "adminUrl must be an http(s) URL",
      })
      .optional(),
  })
  .strict()
  .refine((o) => !o.enabled || o.to.length + o.recipients.length > 0, {
    message: "alerts are enabled with nobody to tell: list e-mail addresses in `to`",
    path: ["to"],
  });

/** Alert options after defaults. */
export type AlertOptions = z.output<typeof alertOptionsSchema>;

/** One addressee on one channel. */
export interface AlertRecipient {
  channel: string;
  to: string;
}

/** Everyone an alert goes to: the e-mail addresses, then the other channels. */
export function alertRecipients(options: AlertOptions): AlertRecipient[] {
  return [...options.to.map((to) => ({ channel: "email", to })), ...options.recipients];
}

/** Whether the merchant asked never to be alerted on this line (by its id or its kind). */
export function isIgnored(lineId: string, options: Pick<AlertOptions, "ignoreLines">): boolean {
  const kind = lineId.split(":")[0];
  return options.ignoreLines.some((ignored) => ignored === lineId || ignored === kind);
}

/** Reads `alerts` from the plugin's registration; invalid options name the field. */
export function alertOptions(configModule: ConfigModule): AlertOptions {
  return pluginOptionSection(configModule, "alerts", alertOptionsSchema);
}
