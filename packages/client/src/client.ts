import type { Dispatcher } from "undici";
import type { ChargeStatus, RateLimitInfo } from "./models.js";
import type { ClientContext } from "./internal/context.js";
import { systemClock } from "./internal/clock.js";
import { resolveConfig, type PixClientOptions } from "./internal/config.js";
import { redactingLogger, silentLogger } from "./internal/logger.js";
import { SlidingWindowLimiter } from "./internal/rate-limiter.js";
import { Transport } from "./internal/transport.js";
import { variantA } from "./internal/variant-a.js";
import { variantB } from "./internal/variant-b.js";
import { BalanceResource } from "./resources/balance.js";
import { Charges } from "./resources/charges.js";
import { Transactions } from "./resources/transactions.js";
import { Withdrawals } from "./resources/withdrawals.js";
import {
  isChargeEvent,
  type ChargeWebhookEvent,
  type TransferWebhookEvent,
  type WebhookEvent,
} from "./webhooks.js";

/** The service's stated limit for POST /v1/withdrawals. */
const WITHDRAWALS_PER_MINUTE = 30;
const MINUTE_MS = 60_000;

/** What `verifyWebhook` learned about a charge event from the API. */
export interface VerifiedChargeEvent {
  event: ChargeWebhookEvent["event"];
  /** The id the client asked about (Variant A: uuid; Variant B: ch_svc_... when the event had it). */
  chargeId: string;
  /** The charge's status according to the API: act on this, not on the event. */
  status: ChargeStatus;
  /** `true` only when the API confirms payment. */
  paid: boolean;
  /** The status the event claimed. */
  claimedStatus: ChargeStatus;
  /** Whether the API's status equals the event's claim. */
  verified: boolean;
}

/** What `verifyWebhook` learned about a transfer event (from the transaction list). */
export interface VerifiedTransferEvent {
  event: TransferWebhookEvent["event"];
  withdrawalId: string;
  /** The withdrawal's status in the transaction list, or `null` when it is not listed. */
  status: string | null;
  claimedStatus: "completed" | "failed";
  verified: boolean;
}

/**
 * The payment-collection API client. One instance per key and base URL; it is safe to share
 * across concurrent requests (the create limiter counts for all of them).
 *
 * @example
 * const client = new PixClient({ apiKey: process.env.PIX_API_KEY!, baseUrl, variant: "b" });
 * const charge = await client.charges.create({ method: "pix", amountCents: 1990 });
 */
export class PixClient {
  /** Which spec variant this client speaks. */
  readonly variant: "a" | "b";
  /** Create, read and poll charges. */
  readonly charges: Charges;
  /** Account balance. */
  readonly balance: BalanceResource;
  /** Transaction list with cursor paging. */
  readonly transactions: Transactions;
  /** Withdrawals, as far as the spec shows them. */
  readonly withdrawals: Withdrawals;
  readonly #transport: Transport;

  /** Validates `options` and throws `ConfigurationError` saying what to fix. */
  constructor(options: PixClientOptions) {
    const config = resolveConfig(options);
    const clock = options.clock ?? systemClock;
    // No logger: skip the wrapper, so the hot path can tell nothing listens.
    const logger = options.logger ? redactingLogger(options.logger) : silentLogger;
    const dispatcher: Dispatcher | undefined = options.dispatcher;
    this.variant = config.variant;
    this.#transport = new Transport(config, dispatcher, logger, clock);
    const ctx: ClientContext = {
      variant: config.variant,
      transport: this.#transport,
      adapter: config.variant === "a" ? variantA : variantB,
      clock,
      logger,
      createLimiter: new SlidingWindowLimiter(config.perMinute, MINUTE_MS, clock),
      withdrawalLimiter: new SlidingWindowLimiter(WITHDRAWALS_PER_MINUTE, MINUTE_MS, clock),
      maxWaitMs: config.maxWaitMs,
    };
    this.transactions = new Transactions(ctx);
    this.charges = new Charges(ctx, this.transactions);
    this.balance = new BalanceResource(ctx);
    this.withdrawals = new Withdrawals(ctx, this.transactions);
  }

  /** The last `X-RateLimit-*` values any response carried. */
  get lastRateLimit(): RateLimitInfo | undefined {
    return this.#transport.lastRateLimit;
  }

  /**
   * Checks a parsed webhook against the API ("fetch-back"), since deliveries carry no
   * signature. For a charge event it reads the charge's status; act on the returned `status`
   * and `paid`, never on the event's own claim. Transfer events are looked up in the
   * transaction list (there is no withdrawal read endpoint).
   */
  verifyWebhook(event: ChargeWebhookEvent): Promise<VerifiedChargeEvent>;
  verifyWebhook(event: TransferWebhookEvent): Promise<VerifiedTransferEvent>;
  verifyWebhook(event: WebhookEvent): Promise<VerifiedChargeEvent | VerifiedTransferEvent>;
  async verifyWebhook(event: WebhookEvent): Promise<VerifiedChargeEvent | VerifiedTransferEvent> {
    if (isChargeEvent(event)) {
      // Variant B reads accept both its own id and the UUID; prefer its own when sent.
      const chargeId = this.variant === "b" ? (event.data.id ?? event.data.uuid) : event.data.uuid;
      const status = await this.charges.status(chargeId);
      return {
        event: event.event,
        chargeId,
        status: status.status,
        paid: status.paid,
        claimedStatus: event.data.status,
        verified: status.status === event.data.status,
      };
    }
    const createdAt = event.data.created_at ? Date.parse(event.data.created_at) : Number.NaN;
    const list = this.withdrawals.list({
      limit: 100,
      // A minute of slack for clock skew between the webhook sender and the list.
      ...(Number.isNaN(createdAt) ? {} : { createdGte: new Date(createdAt - MINUTE_MS) }),
    });
    let status: string | null = null;
    for await (const tx of list) {
      if (tx.id === event.data.id) {
        status = tx.status;
        break;
      }
    }
    return {
      event: event.event,
      withdrawalId: event.data.id,
      status,
      claimedStatus: event.data.status,
      verified: status === event.data.status,
    };
  }
}
