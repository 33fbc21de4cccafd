import type { ConfigModule } from "@medusajs/framework/types";
import { DEFAULT_REMINDER_CADENCE as CADENCE } from "@pix-checkout/client/reminders";
import { z } from "zod";
import { pluginOptionSection } from "../platform/plugin-options";

const hour = z.number().int().min(0).max(23);

/**
 * `recovery` in the plugin's options: the reminders a shopper gets about an unpaid code (the
 * "régua de recuperação"). Off unless `enabled` is true; docs/store-api.md ("Reminders")
 * documents the cadence, the template data, the opt-out and the limits.
 */
export const recoveryOptionsSchema = z
  .object({
    enabled: z.boolean().default(false),
    /**
     * The public address of this Medusa server, as a shopper's phone reaches it
     * (`https://api.loja.com.br`): the messages' opt-out and new-code links point at its
     * `/pix-checkout/...` pages. Required when `enabled`.
     */
    backendUrl: z
      .string()
      .refine((url) => /^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/.test(url), {
        message: "backendUrl must be an http(s) URL without query or fragment",
      })
      .optional(),
    /**
     * The storefront's checkout (`https://loja.com.br/checkout`): a boleto past its grace
     * period is offered a new boleto or, through this page, Pix.
     */
    checkoutUrl: z
      .string()
      .refine((url) => /^https?:\/\/[^\s]+$/.test(url), {
        message: "checkoutUrl must be an http(s) URL",
      })
      .optional(),
    /** A Pix code is recalled this many minutes before it expires (10 of a 30-minute code). */
    pixMinutesBeforeExpiry: z
      .number()
      .int()
      .min(2)
      .max(24 * 60)
      .default(CADENCE.pixMinutesBeforeExpiry),
    /**
     * Minutes after a Pix code expired unpaid before the message with a new-code link (the
     * expiry is confirmed with the service first).
     */
    pixMinutesAfterExpiry: z
      .number()
      .int()
      .min(0)
      .max(24 * 60)
      .default(CADENCE.pixMinutesAfterExpiry),
    /** São Paulo hour of a boleto's reminders: the business day before it falls due, the due date, after the grace period. */
    boletoHour: hour.default(CADENCE.boletoHour),
    /** At most this many reminders per cart a São Paulo day. */
    perCartPerDay: z.number().int().min(1).max(10).default(2),
    /** No reminder from this São Paulo hour… */
    quietFrom: hour.default(CADENCE.quietFrom),
    /** …until this one; one due in between waits for it (or is dropped, if its code is gone by then). */
    quietUntil: hour.default(CADENCE.quietUntil),
    /** Template names per step; a step without one is not sent. */
    templates: z
      .object({
        pix_expiring: z.string().min(1).optional(),
        pix_expired: z.string().min(1).optional(),
        boleto_due_tomorrow: z.string().min(1).optional(),
        boleto_due_today: z.string().min(1).optional(),
        boleto_overdue: z.string().min(1).optional(),
      })
      .default({
        pix_expiring: "pix-checkout-pix-expiring",
        pix_expired: "pix-checkout-pix-expired-new-code",
        boleto_due_tomorrow: "pix-checkout-boleto-due-tomorrow",
        boleto_due_today: "pix-checkout-boleto-due-today",
        boleto_overdue: "pix-checkout-boleto-overdue",
      }),
  })
  .superRefine((options, ctx) => {
    if (options.enabled && !options.backendUrl) {
      ctx.addIssue({
        code: "custom",
        path: ["backendUrl"],
        message: "backendUrl is required when recovery is enabled (the messages' links need it)",
      });
    }
    if (options.quietFrom === options.quietUntil) {
      ctx.addIssue({
        code: "custom",
        path: ["quietUntil"],
        message: "quietUntil must differ from quietFrom",
      });
    }
  });

/** Recovery options after defaults. */
export type RecoveryOptions = z.output<typeof recoveryOptionsSchema>;

/** Reads `recovery` from the plugin's registration; invalid options name the field. */
export function recoveryOptions(configModule: ConfigModule | undefined): RecoveryOptions {
  return pluginOptionSection(configModule, "recovery", recoveryOptionsSchema);
}
