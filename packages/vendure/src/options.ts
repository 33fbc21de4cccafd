/** What the plugin needs to reach the payment service and to know its webhooks. */
export interface PixCheckoutVendureOptions {
  /** Secret key, `sk_live_...`: server side only, never in a response, a log or metadata. */
  apiKey: string;
  /** The service's base URL, ending in `/v1`. */
  baseUrl: string;
  /** Which description of the API the service follows. */
  variant: "a" | "b";
  /**
   * The token the webhook URL carries (`/pix-checkout/webhook?token=<it>`): 16+ URL-safe
   * characters. Deliveries carry no signature, so a delivery is only a hint to ask the service
   * (fetch-back); the token keeps strangers from making the store ask.
   */
  webhookSecret: string;
}

/** The injection token of the options. */
export const PIX_CHECKOUT_OPTIONS = Symbol("PIX_CHECKOUT_OPTIONS");

/** Refuses options a store cannot run with, naming the field and what to set. */
export function checkOptions(options: PixCheckoutVendureOptions): PixCheckoutVendureOptions {
  if (!options?.apiKey) throw new Error("PixCheckoutPlugin: apiKey is required (sk_live_...).");
  if (!options.baseUrl) throw new Error("PixCheckoutPlugin: baseUrl is required (…/v1).");
  if (options.variant !== "a" && options.variant !== "b") {
    throw new Error('PixCheckoutPlugin: variant must be "a" or "b".');
  }
  if (!/^[A-Za-z0-9_-]{16,}$/.test(options.webhookSecret ?? "")) {
    throw new Error(
      "PixCheckoutPlugin: webhookSecret must be 16 or more URL-safe characters (letters, digits, - and _).",
    );
  }
  return options;
}
