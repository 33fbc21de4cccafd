import { z } from "zod";
import { PixCheckoutError } from "./errors";

/** Payment methods the service offers; boleto exists only in Variant A. */
export type PaymentMethod = "pix" | "boleto";

/**
 * When the buyer's CPF or CNPJ is asked: for a boleto only (the bank prints it), or on every
 * order (a merchant who issues a nota fiscal needs it on a Pix order too).
 */
export type BuyerDocumentOption = "boleto" | "every_order";

const minutes = (max: number) => z.number().int().min(1).max(max);

/** The longest `pixExpiryMinutes`: a week. */
export const PIX_MAX_EXPIRY_MINUTES = 7 * 24 * 60;

/**
 * The longest `boletoDueDays`, and how many bank business days after its creation a boleto is
 * taken to be due at the latest whatever the option says (the daily books read the service's
 * list that far back).
 */
export const BOLETO_MAX_DUE_DAYS = 60;

/**
 * Provider options as a merchant writes them in medusa-config (see README "Options").
 * Messages say what to write, never echo the key.
 */
export const optionsSchema = z.object({
  apiKey: z
    .string({ error: "apiKey is required: the secret key (sk_live_...) from the dashboard" })
    .refine((key) => !key.startsWith("pk_live_"), {
      message: "apiKey is a publishable key (pk_live_...); use the secret key (sk_live_...)",
    })
    .refine((key) => /^sk_live_[A-Za-z0-9_-]+$/.test(key), {
      message: "apiKey must be a secret key starting with sk_live_",
    }),
  baseUrl: z
    .url({
      protocol: /^https?$/,
      error: "baseUrl must be an http(s) URL such as https://api.example.com/v1",
    })
    // Credentials in the URL would travel into every log line, metric and health line that
    // names the service; the key goes in apiKey. The message never echoes the URL.
    .refine((url) => !/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(url), {
      message: "baseUrl must not carry a user name or password; pass the key as apiKey",
    })
    .transform((url) => url.replace(/\/+$/, ""))
    .refine((url) => url.endsWith("/v1"), {
      message: "baseUrl must end in the version segment /v1 (e.g. https://api.example.com/v1)",
    }),
  variant: z.enum(["a", "b"], {
    error:
      'variant must be "a" (integration guide: uuid ids, Pix and boleto) or "b" (ch_svc_ ids, Pix only)',
  }),
  webhookSecret: z
    .string()
    .min(16, { message: "webhookSecret must be at least 16 characters (a random token)" })
    .regex(/^[A-Za-z0-9._~-]+$/, {
      message: "webhookSecret may only use URL-safe characters (A-Z a-z 0-9 . _ ~ -)",
    })
    .optional(),
  pixExpiryMinutes: minutes(PIX_MAX_EXPIRY_MINUTES).optional(),
  /**
   * Bank business days a boleto has to be paid: the plugin takes it as due at the end (São Paulo)
   * of that many business days after its creation at the latest, and a due date the service puts
   * on a weekend or a holiday as the next business day's (docs/options.md).
   */
  boletoDueDays: z.number().int().min(1).max(BOLETO_MAX_DUE_DAYS).default(3),
  /**
   * Cancel the order an unpaid charge waits on once the charge expires (order-first), which
   * releases its stock. Only that charge can: never an older, replaced one, and never while
   * the cart holds a paid charge.
   */
  cancelOrderOnExpiry: z.boolean().default(true),
  /**
   * Business days after a boleto's due date during which its order stays open: banks confirm
   * a boleto paid on its due date one to three business days later.
   */
  boletoGraceBusinessDays: z.number().int().min(0).max(30).default(3),
  /**
   * When the buyer's CPF or CNPJ is asked: `boleto` (the bank needs it) or `every_order` (a Pix
   * too, for a merchant who issues a nota fiscal). Either way it is written on Medusa's order.
   */
  buyerDocument: z
    .enum(["boleto", "every_order"], {
      error:
        'buyerDocument must be "boleto" (the CPF/CNPJ is asked for a boleto only) or "every_order" (for Pix too, for a nota fiscal)',
    })
    .default("boleto"),
  reconcileIntervalMinutes: minutes(24 * 60).default(5),
  /**
   * Charge creates a minute, shared by every instance of the store (the service allows 60).
   * Lower it to leave room for something else that uses the same account.
   */
  createsPerMinute: z.number().int().min(1).max(60).default(60),
  /**
   * Days a finished charge keeps its webhook deliveries and full timeline; then retention
   * deletes the deliveries and compacts the timeline (README "Retention"). `false` keeps
   * everything. Charge rows are never deleted.
   */
  retentionDays: z
    .union([z.number().int().min(1).max(3650), z.literal(false)], {
      error: "retentionDays must be a whole number of days, 1..3650, or false to keep everything",
    })
    .default(90),
  timeoutMs: z.number().int().min(1000).max(60_000).optional(),
  maxRetries: z.number().int().min(0).max(5).optional(),
});

/** Options after validation and defaults. */
export type PixCheckoutOptions = z.output<typeof optionsSchema>;

/** Options as written in medusa-config. */
export type PixCheckoutOptionsInput = z.input<typeof optionsSchema>;

/**
 * Validates provider options. Throws `invalid_options` naming every wrong field, so Medusa
 * refuses to start with a message that says what to fix. `methods` are the services being
 * registered: boleto against Variant B fails here rather than at the first checkout.
 */
export function parseOptions(
  raw: unknown,
  methods: readonly PaymentMethod[] = ["pix"],
): PixCheckoutOptions {
  const result = optionsSchema.safeParse(raw ?? {});
  if (!result.success) {
    const problems = result.error.issues.map((issue) => {
      const field = issue.path.join(".") || "options";
      return `${field}: ${issue.message}`;
    });
    throw new PixCheckoutError(
      "invalid_options",
      `Pix Checkout provider options are invalid. ${problems.join("; ")}.`,
    );
  }
  if (!result.data.webhookSecret && process.env.NODE_ENV === "production") {
    // Without it anyone who learns the webhook URL can post deliveries the store stores and
    // asks the service about; in production that is not a default but a hole.
    throw new PixCheckoutError(
      "invalid_options",
      "Pix Checkout provider options are invalid. webhookSecret: required in production (NODE_ENV=production): a random token of 16+ URL-safe characters, also added as ?token=<it> to the webhook URL you register at the payment service.",
    );
  }
  if (result.data.variant === "b" && methods.includes("boleto")) {
    throw new PixCheckoutError(
      "invalid_options",
      'Pix Checkout: boleto exists only in Variant A, but variant is "b". Register ' +
        '"@pix-checkout/medusa/providers/pix-only" for a Variant B account.',
    );
  }
  return result.data;
}
