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
  /**
   * Bank business days after a boleto's due date during which its unpaid order stays open
   * (banks confirm a boleto paid on its due date one to three business days later). Default 3,
   * 0 to 30. Past it, reconciliation cancels the unpaid order and its stock goes back.
   */
  boletoGraceBusinessDays?: number;
}

/** `boletoGraceBusinessDays` when the options leave it out. */
export const DEFAULT_BOLETO_GRACE_BUSINESS_DAYS = 3;

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
  const grace = options.boletoGraceBusinessDays;
  if (grace !== undefined && !(Number.isInteger(grace) && grace >= 0 && grace <= 30)) {
    throw new Error(
      "PixCheckoutPlugin: boletoGraceBusinessDays must be a whole number of bank business days from 0 to 30 (default 3).",
    );
  }
  return options;
}
