// The plugin's public types, for `medusa-config.ts`. Written out by hand (not derived from the
// zod schemas) so the shipped declarations depend on nothing; types.test.ts keeps both equal.

/**
 * Options of the payment providers `@pix-checkout/medusa/providers/pix-checkout` and
 * `.../providers/pix-only`, as written under the payment module in `medusa-config.ts`.
 * Validated at startup; see the README's "Options" table for ranges and defaults.
 */
export interface PixCheckoutOptions {
  /** Secret key, `sk_live_...`. A publishable `pk_live_` key is refused. */
  apiKey: string;
  /** The API's base URL, ending in `/v1`. */
  baseUrl: string;
  /** `"a"`: uuid ids, Pix and boleto. `"b"`: `ch_svc_` ids, Pix only. */
  variant: "a" | "b";
  /** Token (16+ URL-safe characters) the webhook URL must carry as `?token=`. */
  webhookSecret?: string | undefined;
  /** Caps how long a Pix charge is treated as payable, 1..10080 minutes. */
  pixExpiryMinutes?: number | undefined;
  /** Caps how long a boleto is treated as payable, 1..60 days (default 3). */
  boletoDueDays?: number | undefined;
  /**
   * Cancel the order an unpaid charge waits on when that charge expires, releasing its stock
   * (default true). Only that charge can: never an older, replaced code, and never while the
   * cart holds a paid charge.
   */
  cancelOrderOnExpiry?: boolean | undefined;
  /** Business days after a boleto's due date before its unpaid order is canceled, 0..30 (default 3). */
  boletoGraceBusinessDays?: number | undefined;
  /** Minutes a pending charge may go unheard of before the job asks (1..1440, default 5). */
  reconcileIntervalMinutes?: number | undefined;
  /**
   * Charge creates a minute (1..60, default 60), shared by every instance of the store; a
   * shopper past them gets a `preparing` session whose code follows through its stream.
   */
  createsPerMinute?: number | undefined;
  /**
   * Days a finished charge keeps its webhook deliveries and full timeline (1..3650, default
   * 90); `false` keeps everything. Charge rows are never deleted.
   */
  retentionDays?: number | false | undefined;
  /** Per-request timeout passed to the client, 1000..60000 ms. */
  timeoutMs?: number | undefined;
  /**
   * Retries of safe requests, 0..5. Creates are never retried by the client: the create line
   * sends them again, each send taking a slot of `createsPerMinute`.
   */
  maxRetries?: number | undefined;
}

/** Options of the plugin entry (`plugins: [{ resolve: "@pix-checkout/medusa", options }]`). */
export interface PixCheckoutPluginOptions {
  /** Live-status stream limits (README "Stream options"); all optional. */
  stream?:
    | {
        maxConnections?: number | undefined;
        /** Streams one client may hold open on an instance (10); past it the client polls. */
        maxPerClient?: number | undefined;
        /** Shopper re-checks an instance sends the payment service a minute (60). */
        refreshesPerMinute?: number | undefined;
        idleTimeoutMs?: number | undefined;
        keepAliveMs?: number | undefined;
        pollIntervalMs?: number | undefined;
      }
    | undefined;
  /** Health alerts to the merchant (README "Alerts"); off unless `enabled`. */
  alerts?:
    | {
        enabled?: boolean | undefined;
        to?: string[] | undefined;
        recipients?: { channel: string; to: string }[] | undefined;
        holdSeconds?: number | undefined;
        reminderHours?: number | false | undefined;
        locale?: "pt-BR" | "en" | undefined;
        from?: string | undefined;
        template?: string | undefined;
        ignoreLines?: string[] | undefined;
        adminUrl?: string | undefined;
      }
    | undefined;
}
