import { AbstractPaymentProvider } from "@medusajs/framework/utils";
import type {
  AuthorizePaymentInput,
  AuthorizePaymentOutput,
  CancelPaymentInput,
  CancelPaymentOutput,
  CapturePaymentInput,
  CapturePaymentOutput,
  ConfigModule,
  DeletePaymentInput,
  DeletePaymentOutput,
  GetPaymentStatusInput,
  GetPaymentStatusOutput,
  InitiatePaymentInput,
  InitiatePaymentOutput,
  ProviderWebhookPayload,
  RefundPaymentInput,
  RefundPaymentOutput,
  RetrievePaymentInput,
  RetrievePaymentOutput,
  UpdatePaymentInput,
  UpdatePaymentOutput,
  WebhookActionResult,
} from "@medusajs/framework/types";
import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import type { EventBusLike } from "../../../internal/records/charge-lifecycle";
import { createClient, type PaymentServiceClient } from "../../../internal/platform/client-port";
import { createPluginLogger, type MedusaLoggerLike } from "../../../internal/platform/logger";
import {
  parseOptions,
  type PaymentMethod,
  type PixCheckoutOptions,
} from "../../../internal/platform/options";
import { providerDoor, type ProviderCradle, type ProviderDoor } from "./door";
import { initiate, update } from "./initiate";
import { authorize, capture, retrieve } from "./authorize";
import { cancel, remove } from "./end-session";
import { refund } from "./refund";

/**
 * Everything the Pix and boleto services share: a thin adapter. Each method parses what Medusa
 * hands it and calls one room of `src/internal/` (see its README); no money rule lives here.
 * A session's money is always found through the plugin's records keyed by the session, never
 * through an id in the session's `data`, which the storefront writes.
 */
export abstract class PixCheckoutBase extends AbstractPaymentProvider<PixCheckoutOptions> {
  /** The payment method this service creates charges for. */
  protected abstract readonly method: PaymentMethod;

  protected readonly options_: PixCheckoutOptions;
  private readonly cradle_: ProviderCradle;
  private client_: Promise<PaymentServiceClient> | undefined;

  protected constructor(cradle: Record<string, unknown>, options: PixCheckoutOptions) {
    super(cradle, options);
    // validateOptions already ran at startup; parsing again applies the defaults.
    this.options_ = parseOptions(options, ["pix"]);
    this.cradle_ = {
      db: resolveOptional<Knex>(cradle, "__pg_connection__"),
      // The plugin's own options (`fairness` for the create line) and the registrations are
      // read from the app's configuration; the plugin's module checked them at start.
      config: resolveOptional<ConfigModule>(cradle, "configModule"),
      logger: resolveOptional<MedusaLoggerLike>(cradle, "logger"),
      events: resolveOptional<EventBusLike>(cradle, "event_bus"),
    };
    if (!this.options_.webhookSecret) {
      createPluginLogger(this.cradle_.logger).warn(
        `no webhookSecret is set for a Pix Checkout provider registration: anyone who learns the webhook URL can make the store ask the payment service about charges (no payment is trusted without that fetch-back). Set webhookSecret and add ?token=<it> to the URL you register.`,
      );
    }
  }

  private door(): ProviderDoor {
    return providerDoor(this.cradle_, this.method, this.options_, () => {
      this.client_ ??= createClient(this.options_, createPluginLogger(this.cradle_.logger));
      return this.client_;
    });
  }

  async initiatePayment(input: InitiatePaymentInput): Promise<InitiatePaymentOutput> {
    return initiate(this.door(), input);
  }

  async updatePayment(input: UpdatePaymentInput): Promise<UpdatePaymentOutput> {
    return update(this.door(), input);
  }

  async authorizePayment(input: AuthorizePaymentInput): Promise<AuthorizePaymentOutput> {
    return authorize(this.door(), input, true);
  }

  async getPaymentStatus(input: GetPaymentStatusInput): Promise<GetPaymentStatusOutput> {
    return authorize(this.door(), input, false);
  }

  async retrievePayment(input: RetrievePaymentInput): Promise<RetrievePaymentOutput> {
    return retrieve(this.door(), input);
  }

  /** Only a capture settlement started goes through (settlement/capture-door.ts). */
  async capturePayment(input: CapturePaymentInput): Promise<CapturePaymentOutput> {
    return capture(this.door(), input);
  }

  async cancelPayment(input: CancelPaymentInput): Promise<CancelPaymentOutput> {
    return cancel(this.door(), input);
  }

  async deletePayment(input: DeletePaymentInput): Promise<DeletePaymentOutput> {
    return remove(this.door(), input);
  }

  async refundPayment(input: RefundPaymentInput): Promise<RefundPaymentOutput> {
    return refund(this.door(), input);
  }

  /**
   * Medusa's generic /hooks/payment route is not used: it answers 200 before storing
   * anything and ignores failures. Webhooks go to the plugin's /hooks/pix-checkout/:id.
   */
  async getWebhookActionAndData(
    _payload: ProviderWebhookPayload["payload"],
  ): Promise<WebhookActionResult> {
    return { action: "not_supported" };
  }
}

function resolveOptional<T>(cradle: Record<string, unknown>, key: string): T | undefined {
  try {
    return cradle[key] as T | undefined;
  } catch {
    return undefined;
  }
}
