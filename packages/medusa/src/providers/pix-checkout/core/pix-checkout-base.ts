import { AbstractPaymentProvider, PaymentSessionStatus } from "@medusajs/framework/utils";
import type {
  AuthorizePaymentInput,
  ConfigModule,
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
import { buildBoletoCharge, type ContextCustomer } from "../../../internal/checkout/boleto-payer";
import { ChargeLifecycle, type EventBusLike } from "../../../internal/records/charge-lifecycle";
import { chargeDescription } from "../../../internal/checkout/charge-reference";
import { ChargeBoundElsewhereError, type ChargeRow } from "../../../internal/records/charges";
import { recordsOf, type Records } from "../../../internal/records/records";
import { sessionInfo } from "../../../internal/medusa/session-info";
import { withCollectionLock } from "../../../internal/records/collection-locks";
import { countsAsPayment, decide } from "../../../internal/settlement/decide";
import { readSnapshot } from "../../../internal/settlement/snapshot";
import type { CreateRequestRow } from "../../../internal/create-line/queue";
import { originOf } from "../../../internal/create-line/client-origin";
import {
  budgetKeyOf,
  createAtService,
  createLineOf,
  localExpiry,
  type CreateLine,
} from "../../../internal/create-line/line";
import { keyOfProviderId } from "../../../internal/platform/provider-registry";
import {
  createClient,
  type ClientCreateChargeInput,
  type PaymentServiceClient,
} from "../../../internal/platform/client-port";
import {
  publicOverrides,
  toDisplayData,
  type SessionDisplayData,
} from "../../../internal/checkout/display";
import { PixCheckoutError } from "../../../internal/platform/errors";
import {
  createPluginLogger,
  type MedusaLoggerLike,
  type PluginLogger,
} from "../../../internal/platform/logger";
import { toCents } from "../../../internal/platform/money";
import {
  parseOptions,
  type PaymentMethod,
  type PixCheckoutOptions,
} from "../../../internal/platform/options";
import { redact } from "@pix-checkout/client";
import { toSessionStatus } from "../../../internal/platform/status";
import { toServiceError } from "../../../internal/platform/service-error";

/** How long `authorizePayment` waits for a collection another door is deciding about. */
const AUTHORIZE_LOCK_WAIT_MS = 3_000;

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
  private readonly events_: EventBusLike | undefined;
  /** The app's configuration: the plugin's own options (`fairness`) are read from it. */
  private readonly config_: ConfigModule | undefined;
  private client_: Promise<PaymentServiceClient> | undefined;
  private missingTablesReported_ = false;

  protected constructor(cradle: Record<string, unknown>, options: PixCheckoutOptions) {
    super(cradle, options);
    // validateOptions already ran at startup; parsing again applies the defaults.
    this.options_ = parseOptions(options, ["pix"]);
    this.logger_ = createPluginLogger(cradle.logger as MedusaLoggerLike | undefined);
    this.db_ = resolveOptional<Knex>(cradle, "__pg_connection__");
    this.events_ = resolveOptional<EventBusLike>(cradle, "event_bus");
    // The plugin's own options (`fairness` for the create line) are read from it where they
    // are used; the plugin's module checked them when Medusa started.
    this.config_ = resolveOptional<ConfigModule>(cradle, "configModule");
    if (!this.options_.webhookSecret) {
      this.logger_.warn(
        `no webhookSecret is set for a Pix Checkout provider registration: anyone who learns the webhook URL can make the store ask the payment service about charges (no payment is trusted without that fetch-back). Set webhookSecret and add ?token=<it> to the URL you register.`,
      );
    }
  }

  protected client(): Promise<PaymentServiceClient> {
    this.client_ ??= createClient(this.options_, this.logger_);
    return this.client_;
  }

  protected records(): Records | undefined {
    return this.db_ ? recordsOf(this.db_) : undefined;
  }

  private lifecycle(records: Records): ChargeLifecycle {
    return new ChargeLifecycle(records, this.logger_, this.events_);
  }

  private chargeIdOf(data: Record<string, unknown> | undefined): string {
    const id = data?.charge_id;
    if (typeof id !== "string" || id === "") {
      throw new PixCheckoutError(
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
    sessionId: string,
  ): ClientCreateChargeInput {
    const description = chargeDescription(
      sessionId,
      this.method,
      typeof data.description === "string" ? data.description : undefined,
    );
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
      description,
      ...(Object.keys(payer).length > 0 ? { customer: payer } : {}),
    };
  }

  async initiatePayment(input: InitiatePaymentInput): Promise<InitiatePaymentOutput> {
    const data = (input.data ?? {}) as Record<string, unknown>;
    if (input.currency_code.toLowerCase() !== "brl") {
      throw new PixCheckoutError(
        "unsupported_currency",
        `Pix Checkout charges only BRL; this payment is in ${input.currency_code.toUpperCase()}.`,
      );
    }
    const amountCents = toCents(input.amount);
    const sessionId = String(data.session_id ?? input.context?.idempotency_key ?? "");
    const records = this.records();
    if (!sessionId) {
      // A code with no session behind it could never be matched to a cart or order.
      throw new PixCheckoutError(
        "session_not_found",
        "This payment has no Medusa payment session; create it through a payment collection's payment-sessions route.",
      );
    }
    // Before anything is created: a database that fails here costs the shopper one retry.
    const db = this.db_;
    const session = db ? await this.bookkeeping(() => sessionInfo(db, sessionId), true) : undefined;
    if (records && !session) {
      throw new PixCheckoutError(
        "session_not_found",
        `Payment session ${sessionId} does not exist; nothing was charged. Create the payment session again.`,
      );
    }

    if (session && records) {
      await this.refuseIfCollectionPaid(records, session.payment_collection_id);
      const reused = await this.reuse(records, session, sessionId, amountCents);
      if (reused) {
        return {
          id: reused.charge_id,
          data: { ...publicOverrides(data), ...reused.display, session_id: sessionId },
          status: PaymentSessionStatus.PENDING,
        };
      }
    }

    const customer = input.context?.customer as ContextCustomer | undefined;
    const chargeInput = this.buildChargeInput(amountCents, data, customer, sessionId);
    if (!records || !session) {
      // The plugin's tables are missing (see bookkeeping): a code still works through the API.
      const charge = await createAtService(
        await this.client(),
        chargeInput,
        sessionId,
        this.options_.variant,
      ).catch((error: unknown) => {
        throw toServiceError(error);
      });
      const display = toDisplayData(charge);
      display.expires_at = localExpiry(charge, this.method, this.options_).toISOString();
      return {
        id: charge.id,
        data: { ...publicOverrides(data), ...display, session_id: sessionId },
        status: PaymentSessionStatus.PENDING,
      };
    }
    const providerKey = keyOfProviderId(session.provider_id);
    const line = this.line(records, providerKey);
    // The shopper must never see a code the plugin has no record of: the line records each
    // charge before it answers, and a failure there fails the initiate (retryable).
    const outcome = await this.bookkeeping(
      () =>
        line
          .request({
            budgetKey: budgetKeyOf(this.options_),
            providerKey,
            providerId: session.provider_id,
            method: this.method,
            sessionId,
            paymentCollectionId: session.payment_collection_id,
            salesChannelId: session.sales_channel_id ?? null,
            amountCents,
            input: chargeInput,
            // The store's session route says who asked; Medusa's own re-creates have no one.
            origin: originOf(session.payment_collection_id),
          })
          .catch((error: unknown) => {
            throw isStoreError(error) ? error : toServiceError(error);
          }),
      true,
    );
    if (!outcome) {
      throw new PixCheckoutError(
        "store_unavailable",
        "The store could not record this payment (database unavailable); nothing was charged. Try again in a few seconds.",
      );
    }
    if (outcome.kind === "queued") {
      // Past the minute's budget: the session exists at once and its code follows through the
      // session's stream (store routes: status `preparing`, with an estimate).
      this.logger_.info(
        `create for session ${sessionId} waits in line (${outcome.place.ahead} ahead, about ${Math.ceil(outcome.place.readyInMs / 1000)} s)`,
      );
      return {
        id: outcome.request.id,
        data: {
          ...publicOverrides(data),
          session_id: sessionId,
          method: this.method,
          status: "preparing",
          amount_cents: amountCents,
          ready_at: new Date(Date.now() + outcome.place.readyInMs).toISOString(),
        },
        status: PaymentSessionStatus.PENDING,
      };
    }
    const charge = outcome.charge;
    const display = (
      typeof charge.display === "string" ? JSON.parse(charge.display) : charge.display
    ) as SessionDisplayData;
    return {
      id: charge.charge_id,
      // The session's own id lets deletePayment tell this session from a later one that
      // reused its charge (a double click, a cart changed and changed back).
      data: { ...publicOverrides(data), ...display, session_id: sessionId },
      status: PaymentSessionStatus.PENDING,
    };
  }

  /** This process's create line, able to send this registration's requests. */
  private line(records: Records, providerKey: string): CreateLine {
    const line = createLineOf(this.db_ as Knex, this.config_);
    line.register(providerKey, {
      options: this.options_,
      client: () => this.client(),
      lifecycle: this.lifecycle(records),
      logger: this.logger_,
    });
    return line;
  }

  /**
   * Never a second charge for a collection that already holds a paid one: Medusa recreates a
   * session on its own (cart-completion compensation after a capture, a refreshed cart), and
   * a new code there would ask a shopper who already paid to pay again.
   */
  private async refuseIfCollectionPaid(records: Records, paymentCollectionId: string) {
    const charges = await this.bookkeeping(
      () => records.charges.ofCollection(paymentCollectionId),
      true,
    );
    const paid = charges?.find(countsAsPayment);
    if (paid) {
      throw new PixCheckoutError(
        "collection_already_paid",
        "This cart is already paid; no new payment code was created. Complete the cart, or ask the store for help.",
      );
    }
  }

  /**
   * Medusa replaces a collection's session when the cart changes and changes back; the
   * charge already shown is reused while it is pending, unexpired and for the same amount,
   * so the shopper never has two payable codes for one cart.
   */
  private async reuse(
    records: Records,
    session: { payment_collection_id: string; provider_id: string },
    sessionId: string,
    amountCents: number,
  ) {
    const reusable = await this.bookkeeping(
      () =>
        records.charges.findReusable({
          paymentCollectionId: session.payment_collection_id,
          providerId: session.provider_id,
          amountCents,
          notExpiringBefore: new Date(Date.now() + REUSE_MARGIN_MS),
        }),
      true,
    );
    if (!reusable?.display) return undefined;
    const status = await (
      await this.client()
    ).charges
      .status(reusable.charge_id)
      .catch(() => undefined);
    if (status?.status !== "pending") return undefined;
    const moved = await this.bookkeeping(
      () => this.lifecycle(records).reused(reusable, sessionId),
      true,
    );
    return moved ? reusable : undefined;
  }

  /**
   * What state the charge is in, for Medusa (`authorizePayment` at cart completion, and
   * `getPaymentStatus`). Under the collection's lock, the charge is asked of the API unless it
   * is recorded paid (paid is final), the answer goes through the lifecycle like every other
   * confirmation, and the collection's one decision (settlement/decide.ts) says what the
   * session's payment is: `captured` only for a charge that pays for this session in full.
   * A held (underpaid) payment places the order awaiting payment, never captured in full.
   */
  private async askApi(
    data: Record<string, unknown> | undefined,
    context: { idempotency_key?: string } | undefined,
    authorizing: boolean,
  ): Promise<{ status: PaymentSessionStatus; data: Record<string, unknown> }> {
    const resolved = await this.resolveCharge(data, context);
    if ("request" in resolved) {
      // Still in the create line: like a pending charge, an order may be placed for it
      // (order-first) and its code follows; a create that failed is an error.
      const failed = resolved.request.state === "failed" || resolved.request.state === "canceled";
      return {
        status: failed ? PaymentSessionStatus.ERROR : PaymentSessionStatus.PENDING_AUTHORIZATION,
        data: { ...data, status: failed ? "failed" : "preparing" },
      };
    }
    const { chargeId } = resolved;
    const records = this.records();
    const row = records
      ? await this.bookkeeping(() => records.charges.byChargeId(chargeId))
      : undefined;
    const sessionId = context?.idempotency_key;
    if (row && sessionId && row.session_id !== sessionId) {
      // Never let one payment complete two carts: this charge is recorded for another session.
      throw new PixCheckoutError(
        "charge_session_mismatch",
        `Charge ${chargeId} belongs to another payment session; start the payment again to get a code of your own.`,
      );
    }
    const display = { ...(data as SessionDisplayData), ...resolved.display };
    const db = this.db_;
    if (!records || !row?.payment_collection_id || !db) {
      // No bookkeeping (the plugin's tables are missing): the API's word alone.
      const answer = await (
        await this.client()
      ).charges
        .status(chargeId)
        .catch((error: unknown) => {
          throw toServiceError(error);
        });
      return {
        status: toSessionStatus(answer.status),
        data: { ...display, status: answer.status },
      };
    }
    const collectionId = row.payment_collection_id;
    const verdict = await this.bookkeeping(() =>
      withCollectionLock(
        db,
        collectionId,
        () => this.sessionVerdict(records, db, row, sessionId ?? row.session_id, authorizing),
        // Medusa may call this inside its own transaction: a short wait, then a retryable 409,
        // rather than holding Medusa's connection while another door finishes.
        { waitMs: AUTHORIZE_LOCK_WAIT_MS },
      ),
    );
    if (!verdict)
      throw new PixCheckoutError(
        "store_unavailable",
        "The store could not read this payment's state. Try again in a few seconds.",
      );
    return { status: verdict.status, data: { ...display, status: verdict.word } };
  }

  /** The session's payment as the collection's decision has it (under the collection's lock). */
  private async sessionVerdict(
    records: Records,
    db: Knex,
    row: ChargeRow,
    sessionId: string,
    authorizing: boolean,
  ): Promise<{ status: PaymentSessionStatus; word: string }> {
    let current = (await records.charges.byChargeId(row.charge_id)) ?? row;
    if (current.status !== "paid") {
      const client = await this.client();
      const fail = (error: unknown) => {
        throw toServiceError(error);
      };
      const answer = await client.charges.status(current.charge_id).catch(fail);
      await records.charges.touch(current.charge_id);
      // A payment is recorded with what the API says was paid, so an underpaid one is held.
      const facts =
        answer.status === "paid"
          ? await client.charges.retrieve(current.charge_id).catch(fail)
          : undefined;
      const moved = await this.lifecycle(records).confirmed(
        current,
        answer.status,
        "authorize",
        facts ? { amountCents: facts.amountCents, paidAt: facts.paidAt ?? null } : undefined,
      );
      current = moved?.row ?? (await records.charges.byChargeId(current.charge_id)) ?? current;
    }
    const { snapshot, rows } = await readSnapshot(
      db,
      records.charges,
      current.payment_collection_id!,
      this.options_.cancelOrderOnExpiry,
    );
    // This session's payment: its own charge, or a replaced code adopted by it.
    const paying = rows.filter(
      (r) =>
        r.status === "paid" &&
        (r.capture_session_id === sessionId ||
          (r.charge_id === current.charge_id && !r.capture_session_id)),
    );
    for (const candidate of paying) {
      if (candidate.settlement === "captured") {
        return { status: PaymentSessionStatus.CAPTURED, word: "paid" };
      }
      const decision = decide(snapshot, candidate.charge_id);
      if (decision.kind === "capture" && decision.sessionId === sessionId) {
        if (decision.amountCents < Number(candidate.amount_cents)) {
          // Accepted for less: authorized, so Medusa holds a payment, and the capture (for what
          // arrived, never the session's amount) is the plugin's own.
          return { status: PaymentSessionStatus.AUTHORIZED, word: "paid" };
        }
        if (authorizing) {
          // Medusa captures the session itself when we answer `captured`; the claim keeps a
          // webhook from running a second capture meanwhile.
          await records.charges.claimCapture(candidate.charge_id, `authorize ${sessionId}`);
        }
        return { status: PaymentSessionStatus.CAPTURED, word: "paid" };
      }
      if (decision.kind === "hold") {
        // Less money than the order costs: the order may be placed, awaiting the merchant.
        return { status: PaymentSessionStatus.PENDING_AUTHORIZATION, word: "held" };
      }
    }
    if (current.status === "paid") {
      // Paid, but not this session's payment (a refund due): the cart does not complete on it.
      return { status: PaymentSessionStatus.ERROR, word: "refund_due" };
    }
    const status =
      current.status === "canceled"
        ? PaymentSessionStatus.CANCELED
        : toSessionStatus(current.status);
    return { status, word: current.status };
  }

  /**
   * A session is going away (deleted, canceled): a create request it still has in the line
   * leaves it (one being sent has its charge recorded superseded). Returns the session's
   * charge id, if it has a charge.
   */
  private async endSessionRequest(
    data: Record<string, unknown> | undefined,
  ): Promise<string | undefined> {
    if (typeof data?.charge_id === "string") return data.charge_id;
    const sessionId = typeof data?.session_id === "string" ? data.session_id : undefined;
    if (!sessionId || !this.db_) return undefined;
    const db = this.db_;
    await this.bookkeeping(() => createLineOf(db, this.config_).cancelForSession(sessionId));
    const resolved = await this.resolveCharge(data, undefined).catch(() => undefined);
    return resolved && "chargeId" in resolved ? resolved.chargeId : undefined;
  }

  /**
   * The charge of a session's data, or its create request while the charge is still in the
   * line. A session answered `preparing` has no `charge_id` in Medusa's data, so the charge
   * is found by session id once it exists.
   */
  private async resolveCharge(
    data: Record<string, unknown> | undefined,
    context: { idempotency_key?: string } | undefined,
  ): Promise<
    { chargeId: string; display?: Record<string, unknown> } | { request: CreateRequestRow }
  > {
    const id = data?.charge_id;
    if (typeof id === "string" && id !== "") return { chargeId: id };
    const sessionId =
      typeof data?.session_id === "string" ? data.session_id : context?.idempotency_key;
    const records = this.records();
    if (sessionId && records && this.db_) {
      const row = await this.bookkeeping(() => records.charges.bySessionId(sessionId));
      if (row) {
        const display = (
          typeof row.display === "string" ? JSON.parse(row.display) : row.display
        ) as Record<string, unknown> | null;
        return { chargeId: row.charge_id, ...(display ? { display } : {}) };
      }
      const db = this.db_;
      const request = await this.bookkeeping(() =>
        createLineOf(db, this.config_).latestOfSession(sessionId),
      );
      if (request) return { request };
    }
    return { chargeId: this.chargeIdOf(data) };
  }

  async authorizePayment(input: AuthorizePaymentInput): Promise<AuthorizePaymentOutput> {
    return this.askApi(input.data, input.context, true);
  }

  async getPaymentStatus(input: GetPaymentStatusInput): Promise<GetPaymentStatusOutput> {
    return this.askApi(input.data, input.context, false);
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
    if (data.status === "canceled") {
      // The plugin canceled the session itself (its charge ended): nothing to create.
      return { data, status: PaymentSessionStatus.CANCELED };
    }
    const sameAmount = data.amount_cents === toCents(input.amount);
    if (sameAmount && (typeof data.charge_id === "string" || data.status === "preparing")) {
      // The same charge, or the same place in the create line.
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
    const records = this.records();
    const chargeId = await this.endSessionRequest(input.data);
    if (chargeId && records) {
      await this.bookkeeping(() => this.lifecycle(records).canceled(chargeId, "provider"));
    }
    return { data: { ...input.data, status: "canceled" } };
  }

  /**
   * Medusa deletes sessions when the cart total changes, the shopper switches method or takes
   * a new code. The API cannot cancel the charge, so it stays payable until it expires; it is
   * marked superseded: its code is no longer offered, and a payment of it still gets a fate
   * (collection.ts). It may be reused by a later session of the same collection.
   */
  async deletePayment(input: DeletePaymentInput): Promise<DeletePaymentOutput> {
    const records = this.records();
    const chargeId = await this.endSessionRequest(input.data);
    const sessionId =
      typeof input.data?.session_id === "string" ? input.data.session_id : undefined;
    const found =
      chargeId && records
        ? await this.bookkeeping(() => records.charges.byChargeId(chargeId))
        : undefined;
    if (!found || !records) return { data: input.data ?? {} };
    // One conditional UPDATE, not the collection's lease: Medusa calls this from inside its own
    // workflows (cart-completion compensation), where waiting on a lease another door holds
    // would hold Medusa's transaction open. The UPDATE alone is enough: a payment that lands
    // at the same moment either comes first (the session is kept) or finds the charge replaced
    // (and is adopted by the cart's live session, or is a refund due: settlement/decide.ts).
    await this.bookkeeping(async () => {
      const marked = await this.lifecycle(records).superseded(
        found.charge_id,
        "provider",
        sessionId,
      );
      if (marked) return;
      const row = await records.charges.byChargeId(found.charge_id);
      if (row?.status !== "paid") return;
      // Medusa deletes sessions on its own, also a paid one (cart-completion compensation
      // after a capture, a cart edited after paying). The session is Medusa's record of the
      // money: refusing keeps it, and Medusa's delete steps log the refusal and go on, so a
      // cart that failed to complete can still become an order when it can.
      throw new PixCheckoutError(
        "collection_already_paid",
        `Payment session of charge ${row.charge_id} holds a payment already made; it is kept.`,
      );
    });
    return { data: input.data ?? {} };
  }

  /**
   * The API has no refund endpoint, so no refund moves money from here. Medusa calls this by
   * itself (an order canceled, a cart that failed to complete after its capture); answering
   * success there would make the books say "refunded" while the money stays with the merchant.
   * So it succeeds only for an amount the merchant declared returned in the service's
   * dashboard (Pix Checkout → "Record refund", which then records it in Medusa), and refuses
   * anything else with `refund_not_supported`: Medusa then records no refund.
   */
  async refundPayment(input: RefundPaymentInput): Promise<RefundPaymentOutput> {
    const chargeId = this.chargeIdOf(input.data);
    const amountCents = toCents(input.amount);
    const records = this.records();
    const declared = records
      ? await this.bookkeeping(() => records.events.takeDeclaredRefund(chargeId, amountCents))
      : false;
    if (!declared) {
      throw new PixCheckoutError(
        "refund_not_supported",
        `Nothing was refunded: the payment service has no refund API. Return ${amountCents} cents to the shopper in the service's dashboard, then record it in Pix Checkout (charge ${chargeId}, "Record refund").`,
      );
    }
    this.logger_.info(
      `recorded a refund of ${amountCents} cents for charge ${chargeId} the merchant returned`,
    );
    return { data: input.data ?? {} };
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

  /**
   * Runs a read or write of the plugin's tables. Only one failure may degrade: the tables do
   * not exist because the plugin was registered as a provider but not under `plugins` (then
   * payments still work through the API, without webhooks' session matching, and an error
   * says how to fix it). Any other failure (timeout, lost connection, failed insert) fails
   * the call with a retryable 409, so no code is shown that the plugin has no record of.
   * `beforeCode`: the failure comes before the shopper was shown a code, so nothing can have
   * been paid; later (authorize, cancel, refund) the payment may well be made, and the
   * message must not say otherwise.
   */
  private async bookkeeping<T>(work: () => Promise<T>, beforeCode = false): Promise<T | undefined> {
    try {
      return await work();
    } catch (error) {
      // Already the caller's answer (the API's own error, a paid session kept, a busy cart).
      if (error instanceof PixCheckoutError) throw error;
      if (error instanceof ChargeBoundElsewhereError) {
        this.logger_.error(redact(error.message));
        throw new PixCheckoutError(
          "charge_bound_elsewhere",
          "This payment could not be prepared; nothing was charged. Try again in a few seconds.",
        );
      }
      if (isMissingTable(error)) {
        if (!this.missingTablesReported_) {
          this.missingTablesReported_ = true;
          this.logger_.error(
            "the plugin's tables are missing: add @pix-checkout/medusa to `plugins` in medusa-config and run `npx medusa db:migrate`. Until then webhooks cannot be matched to orders.",
          );
        }
        return undefined;
      }
      this.logger_.error(
        `could not record charge bookkeeping: ${redact((error as Error)?.message ?? String(error))}`,
      );
      throw new PixCheckoutError(
        "store_unavailable",
        beforeCode
          ? "The store could not record this payment (database unavailable); nothing was charged. Try again in a few seconds."
          : "The store could not record this payment's state (database unavailable). Nothing is lost: a payment already made is kept and settled when the database is back. Try again in a few seconds.",
      );
    }
  }
}

/**
 * A failure of the plugin's own tables (bookkeeping handles it), not of the service: the
 * client's errors carry a snake_case `code`; Postgres, knex and socket errors do not.
 */
function isStoreError(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return (
    error instanceof ChargeBoundElsewhereError ||
    !(typeof code === "string" && /^[a-z][a-z0-9_]*$/.test(code))
  );
}

/** Postgres `undefined_table` (42P01): the plugin's migrations never ran. */
function isMissingTable(error: unknown): boolean {
  const err = error as { code?: unknown; message?: unknown };
  return (
    err?.code === "42P01" ||
    (typeof err?.message === "string" &&
      /relation "pix_checkout_[a-z_]+" does not exist/.test(err.message))
  );
}

function resolveOptional<T>(cradle: Record<string, unknown>, key: string): T | undefined {
  try {
    return cradle[key] as T | undefined;
  } catch {
    return undefined;
  }
}
