import type { ConfigModule } from "@medusajs/framework/types";
import { z } from "zod";
import { pluginOptionSection } from "../platform/plugin-options";

/**
 * `notifications` in the plugin's options (`plugins: [{ resolve: "@pix-checkout/medusa",
 * options: { notifications: {...} } }]`): sending the shopper their code when a charge is
 * created, and news when it is paid or expires. Off unless `enabled` is true.
 */
export const notifyOptionsSchema = z.object({
  enabled: z.boolean().default(false),
  /** The Notification Module channel to send on. */
  channel: z.string().min(1).default("email"),
  /** Template names per event; an event without one is not sent. */
  templates: z
    .object({
      created: z.string().min(1).optional(),
      paid: z.string().min(1).optional(),
      expired: z.string().min(1).optional(),
      refund_due: z.string().min(1).optional(),
      refunded: z.string().min(1).optional(),
      /**
       * "Recebemos seu pedido": sent when Medusa places an order paid or to be paid by one of
       * the plugin's charges, listing what was ordered. Off unless named (no default).
       */
      order_received: z.string().min(1).optional(),
    })
    .default({
      created: "pix-checkout-code",
      paid: "pix-checkout-paid",
      expired: "pix-checkout-expired",
      refund_due: "pix-checkout-refund-due",
      refunded: "pix-checkout-refunded",
    }),
  /**
   * At most one code message (`created`, `expired`) per mailbox in this many minutes, whatever
   * the number of carts: a cart's e-mail is whatever its client typed.
   */
  codeMailWindowMinutes: z
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 60)
    .default(30),
  /**
   * At most this many code messages per mailbox a São Paulo day, whatever the number of carts
   * and addresses asking (besides one per `codeMailWindowMinutes`).
   */
  codeMailsPerDay: z.number().int().min(1).max(50).default(3),
  /**
   * The storefront page where a shopper can come back and pay: `{session_id}` is replaced,
   * e.g. `https://loja.example.com/pagar/{session_id}`.
   */
  paymentPageUrl: z
    .string()
    .refine((url) => /^https?:\/\/[^\s]+$/.test(url) && url.includes("{session_id}"), {
      message: "paymentPageUrl must be an http(s) URL containing {session_id}",
    })
    .optional(),
});

/** Notification options after defaults. */
export type NotifyOptions = z.output<typeof notifyOptionsSchema>;

/** Reads `notifications` from the plugin's registration; invalid options name the field. */
export function notifyOptions(configModule: ConfigModule): NotifyOptions {
  return pluginOptionSection(configModule, "notifications", notifyOptionsSchema);
}
