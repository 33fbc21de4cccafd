import {
  AbstractPaymentProvider,
  MedusaError,
  PaymentSessionStatus,
} from "@medusajs/framework/utils";
import type {
  AuthorizePaymentInput,
  AuthorizePaymentOutput,
  CancelPaymentInput,
  CancelPaymentOutput,
  CapturePaymentInput,
  CapturePaymentOutput,
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
import { buildBoletoCharge, type ContextCustomer } from "../../../internal/boleto-payer";
import { ChargeStore } from "../../../internal/charge-store";
import {
  createClient,
  type ClientCharge,
  type ClientCreateChargeInput,
  type PaymentServiceClient,
} from "../../../internal/client-port";
import { publicOverrides, toDisplayData, type SessionDisplayData } from "../../../internal/display";
import { invalidData, PixCheckoutError } from "../../../internal/errors";
import {
  createPluginLogger,
  type MedusaLoggerLike,
  type PluginLogger,
} from "../../../internal/logger";
import { toCents } from "../../../internal/money";
import {
  parseOptions,
  type PaymentMethod,
  type PixCheckoutOptions,
} from "../../../internal/options";
import { redactString } from "../../../internal/redact";
import { toSessionStatus } from "../../../internal/status";
import { toServiceError } from "../../../internal/service-error";

/** A charge is reused only while the shopper still has this long to pay it. */
const REUSE_MARGIN_MS = 2 * 60_000;

/**
 * Everything the Pix and boleto services share. Each service only names its method; the
 * charge lifecycle, the public-data whitelist and the status mapping live here once.
 */
export abstract class PixCheckoutBase extends AbstractPaymentProvider<PixCheckoutOptions> {
  /** The payment method this service creates charges for. */
  protected abstract readonly method: PaymentMethod;

  protected readonly options_: PixCheckoutOptions;
  protected readonly logger_: PluginLogger;
  private readonly db_: Knex | undefined;
  private client_: Promise<PaymentServiceClient> | undefined;

  protected constructor(cradle: Record<string, unknown>, options: PixCheckoutOptions) {
    super(cradle, options);
    // validateOptions already ran at startup; parsing again applies the defaults.
    this.options_ = parseOptions(options, ["pix"]);
    this.logger_ = createPluginLogger(cradle.logger as MedusaLoggerLike | undefined);
    this.db_ = resolveOptional<Knex>(cradle, "__pg_connection__");
  }

  protected client(): Promise<PaymentServiceClient> {
    this.client_ ??= createClient(this.options_, this.logger_);
    return this.client_;
  }

  protected store(): ChargeStore | undefined {
    return this.db_ ? new ChargeStore(this.db_) : undefined;
  }

  /** Effective local expiry: the API's, capped by the plugin's own option when set. */
  private localExpiry(charge: ClientCharge): Date {
    const api = new Date(charge.expiresAt);
    const created = charge.createdAt ? new Date(charge.createdAt) : new Date();
    const capMs =
      this.method === "pix"
        ? this.options_.pixExpiryMinutes === undefined
          ? undefined
          : this.options_.pixExpiryMinutes * 60_000
        : this.options_.boletoDueDays * 24 * 60 * 60_000;
    if (capMs === undefined) return api;
    const capped = new Date(created.getTime() + capMs);
    return capped < api ? capped : api;
  }

  private chargeIdOf(data: Record<string, unknown> | undefined): string {
    const id = data?.charge_id;
    if (typeof id !== "string" || id === "") {
      throw new PixCheckoutError(
        MedusaError.Types.NOT_FOUND,
        "charge_not_found",
        "This payment session has no Pix Checkout charge yet; initiate the payment session first.",
      );
    }
    return id;
  }

  private buildChargeInput(
    amountCents: number,
    data: Record<string, unknown>,
    customer: ContextCustomer | undefined,
  ): ClientCreateChargeInput {
    const description = typeof data.description === "string" ? data.description : undefined;
    if (this.method === "boleto")
      return buildBoletoCharge(amountCents, data, customer, description);
    const name = [customer?.first_name, customer?.last_name].filter(Boolean).join(" ");
    const email = (typeof data.email === "string" ? data.email : undefined) ?? customer?.email;
    const payer = {
      ...(name ? { name } : {}),
      ...(email ? { email } : {}),
      ...(typeof data.document === "string"
        ? { document: data.document.replace(/[.\-/\s]/g, "") }
        : {}),
    };
    return {
      method: "pix",
      amountCents,
      ...(description ? { description } : {}),
      ...(Object.keys(payer).length > 0 ? { customer: payer } : {}),
    };
  }

  private async createCharge(
    input: ClientCreateChargeInput,
    sessionId: string,
  ): Promise<ClientCharge> {
    const client = await this.client();
    try {
      // Variant A must not send Idempotency-Key (spec); in B the session id makes a retried
      // create return the same charge.
      return await client.charges.create(
        input,
        this.options_.variant === "b" ? { idempotencyKey: sessionId } : {},
      );
    } catch (error) {
      if ((error as { code?: string }).code === "charge_outcome_unknown") {
        // The create may or may not have happened; ask the API before giving up, never
        // retry blindly (a retry could create a second charge the shopper might pay).
        const found = await client.charges.findAfterUnknownOutcome(error).catch(() => null);
        if (found) return found;
      }
      throw toServiceError(error);
    }
  }

  async initiatePayment(input: InitiatePaymentInput): Promise<InitiatePaymentOutput> {
    const data = (input.data ?? {}) as Record<string, unknown>;
    if (input.currency_code.toLowerCase() !== "brl") {
      throw invalidData(
        "unsupported_currency",
        `Pix Checkout charges only BRL; this payment is in ${input.currency_code.toUpperCase()}.`,
      );
    }
    const amountCents = toCents(input.amount);
    const sessionId = String(data.session_id ?? input.context?.idempotency_key ?? "");
    const store = this.store();
    const session =
      sessionId && store ? await this.safely(() => store.sessionInfo(sessionId)) : undefined;

    if (session && store) {
      const reusable = await this.safely(() =>
        store.findReusable({
          paymentCollectionId: session.payment_collection_id,
          providerId: session.provider_id,
          amountCents,
          notExpiringBefore: new Date(Date.now() + REUSE_MARGIN_MS),
        }),
      );
      if (reusable && reusable.display) {
        const status = await (
          await this.client()
        ).charges
          .status(reusable.charge_id)
          .catch(() => undefined);
        if (status?.status === "pending") {
          await this.safely(() =>
            store.upsert({ ...reusable, session_id: sessionId, display: reusable.display }),
          );
          await this.safely(() =>
            store.addEvent({
              chargeId: reusable.charge_id,
              kind: "reused",
              source: "provider",
              detail: { session_id: sessionId },
            }),
          );
          return {
            id: reusable.charge_id,
            data: { ...publicOverrides(data), ...reusable.display },
            status: PaymentSessionStatus.PENDING,
          };
        }
      }
    }

    const customer = input.context?.customer as ContextCustomer | undefined;
    const charge = await this.createCharge(
      this.buildChargeInput(amountCents, data, customer),
      sessionId,
    );
    const display = toDisplayData(charge);
    const expiresAt = this.localExpiry(charge);
    display.expires_at = expiresAt.toISOString();
    if (store && session) {
      await this.safely(() =>
        store.upsert({
          charge_id: charge.id,
          provider_id: session.provider_id,
          method: this.method,
          variant: this.options_.variant,
          session_id: sessionId,
          payment_collection_id: session.payment_collection_id,
          sales_channel_id: session.sales_channel_id ?? null,
          amount_cents: charge.amountCents,
          currency_code: "brl",
          expires_at: expiresAt,
          display,
        }),
      );
      await this.safely(() =>
        store.addEvent({
          chargeId: charge.id,
          kind: "created",
          source: "provider",
          to: "pending",
          detail: { session_id: sessionId, amount_cents: charge.amountCents },
        }),
      );
    }
    this.logger_.info(`created ${this.method} charge ${charge.id} for session ${sessionId}`);
    return {
      id: charge.id,
      data: { ...publicOverrides(data), ...display },
      status: PaymentSessionStatus.PENDING,
    };
  }

  /** Asks the API, never the session data, what state the charge is in. */
  private async askApi(data: Record<string, unknown> | undefined): Promise<{
    status: PaymentSessionStatus;
    data: Record<string, unknown>;
  }> {
    const chargeId = this.chargeIdOf(data);
    const client = await this.client();
    const answer = await client.charges.status(chargeId).catch((error: unknown) => {
      throw toServiceError(error);
    });
    const store = this.store();
    if (store && answer.status === "paid") {
      // Medusa captures the session itself when we answer `captured`; claiming the capture
      // here keeps a later webhook from running a second capture.
      const moved = await this.safely(() =>
        store.transition(chargeId, ["pending", "expired", "failed", "canceled"], "paid", {
          paid_at: new Date(),
        }),
      );
      if (moved) {
        await this.safely(() =>
          store.addEvent({
            chargeId,
            kind: "paid",
            source: "authorize",
            from: moved.status,
            to: "paid",
          }),
        );
      }
      await this.safely(() => store.claimCapture(chargeId));
    } else if (store) {
      await this.safely(() => store.touch(chargeId));
    }
    return {
      status: toSessionStatus(answer.status),
      data: { ...(data as SessionDisplayData), status: answer.status },
    };
  }

  async authorizePayment(input: AuthorizePaymentInput): Promise<AuthorizePaymentOutput> {
    return this.askApi(input.data);
  }

  async getPaymentStatus(input: GetPaymentStatusInput): Promise<GetPaymentStatusOutput> {
    return this.askApi(input.data);
  }

  async retrievePayment(input: RetrievePaymentInput): Promise<RetrievePaymentOutput> {
    const chargeId = this.chargeIdOf(input.data);
    const charge = await (
      await this.client()
    ).charges
      .retrieve(chargeId)
      .catch((error: unknown) => {
        throw toServiceError(error);
      });
    return { data: { ...input.data, ...toDisplayData(charge) } };
  }

  /** A paid charge is already money received; capture only records it. */
  async capturePayment(input: CapturePaymentInput): Promise<CapturePaymentOutput> {
    return { data: input.data ?? {} };
  }

  async updatePayment(input: UpdatePaymentInput): Promise<UpdatePaymentOutput> {
    const data = (input.data ?? {}) as Record<string, unknown>;
    if (typeof data.charge_id === "string" && data.amount_cents === toCents(input.amount)) {
      return { data };
    }
    // A different amount needs a different charge: the API cannot change one.
    const created = await this.initiatePayment({
      amount: input.amount,
      currency_code: input.currency_code,
      data: { ...data, charge_id: undefined },
      ...(input.context ? { context: input.context } : {}),
    });
    return { data: created.data ?? {}, status: created.status ?? PaymentSessionStatus.PENDING };
  }

  /**
   * The API has no cancel endpoint: the charge stays payable until it expires. The local
   * record becomes `canceled`, so a payment that still arrives is captured and flagged.
   */
  async cancelPayment(input: CancelPaymentInput): Promise<CancelPaymentOutput> {
    const chargeId = typeof input.data?.charge_id === "string" ? input.data.charge_id : undefined;
    const store = this.store();
    if (chargeId && store) {
      const moved = await this.safely(() => store.transition(chargeId, ["pending"], "canceled"));
      if (moved) {
        await this.safely(() =>
          store.addEvent({
            chargeId,
            kind: "canceled",
            source: "provider",
            from: "pending",
            to: "canceled",
          }),
        );
      }
    }
    return { data: { ...input.data, status: "canceled" } };
  }

  /**
   * Medusa deletes sessions when the cart total changes or the shopper starts over. The
   * charge is left as it is: it may be reused by the next session of the same collection,
   * and if the shopper pays it anyway the webhook still finds it by charge id.
   */
  async deletePayment(input: DeletePaymentInput): Promise<DeletePaymentOutput> {
    return { data: input.data ?? {} };
  }

  /**
   * The spec has no refund endpoint. The refund is recorded in Medusa only, with a
   * warning: the merchant returns the money from the payment service's dashboard.
   */
  async refundPayment(input: RefundPaymentInput): Promise<RefundPaymentOutput> {
    const chargeId = this.chargeIdOf(input.data);
    const amountCents = toCents(input.amount);
    const refunds = Array.isArray(input.data?.refunds_recorded) ? input.data.refunds_recorded : [];
    const store = this.store();
    if (store) {
      await this.safely(() =>
        store.addEvent({
          chargeId,
          kind: "refund_recorded",
          source: "admin",
          detail: { amount_cents: amountCents, note: "recorded in Medusa only" },
        }),
      );
    }
    this.logger_.warn(
      `recorded a refund of ${amountCents} cents for charge ${chargeId} in Medusa only: the payment ` +
        "service has no refund API, so return the money from its dashboard.",
    );
    return {
      data: {
        ...input.data,
        refunds_recorded: [
          ...refunds,
          { amount_cents: amountCents, recorded_at: new Date().toISOString() },
        ],
      },
    };
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

  /** Runs a bookkeeping write; if the plugin's tables are missing it logs instead of failing the checkout. */
  private async safely<T>(work: () => Promise<T>): Promise<T | undefined> {
    try {
      return await work();
    } catch (error) {
      this.logger_.warn(
        `could not record charge bookkeeping (is the plugin registered under plugins?): ${redactString(
          (error as Error).message,
        )}`,
      );
      return undefined;
    }
  }
}

function resolveOptional<T>(cradle: Record<string, unknown>, key: string): T | undefined {
  try {
    return cradle[key] as T | undefined;
  } catch {
    return undefined;
  }
}
