import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import { redact } from "@pix-checkout/client";
import { boletoGraceEndsAt } from "../platform/business-days";
import type { ChargeLifecycle } from "../records/charge-lifecycle";
import { chargeReference } from "../checkout/charge-reference";
import { Charges, type ChargeRow } from "../records/charges";
import { nextCheckAt } from "../checkout/check-schedule";
import {
  createClient,
  type ClientCharge,
  type ClientCreateChargeInput,
  type PaymentServiceClient,
} from "../platform/client-port";
import {
  CreateQueue,
  CREATE_WINDOW_MS,
  ENDED_REQUEST_RETENTION_MS,
  type CreateRequestRow,
  type FairShare,
  type LinePlace,
  type NewCreateRequest,
} from "./queue";
import { toDisplayData } from "../checkout/display";
import { boletoDueDate, boletoPayableUntil } from "../checkout/boleto-due-date";
import type { PluginLogger } from "../platform/logger";
import type { PixCheckoutOptions } from "../platform/options";
import { clientFor, type RegisteredProvider } from "../platform/provider-registry";
import { recordLineWait, withSpan, type TelemetryAttributes } from "../platform/telemetry";
import { PixCheckoutError } from "../platform/errors";
import type { ConfigModule } from "@medusajs/framework/types";
import { fairOptions } from "./fair-options";
import { recoveryOptions, type RecoveryOptions } from "../checkout/recovery-options";
import { firstReminderAt } from "../checkout/reminder-cadence";
import { collectionPurpose } from "../medusa/order-collections";

/** What sending a registration's requests needs. */
export interface LineSender {
  options: PixCheckoutOptions;
  client(): Promise<PaymentServiceClient>;
  lifecycle: ChargeLifecycle;
  logger: PluginLogger;
}

/** What a session's create request came to when it was asked for. */
export type LineOutcome =
  | { kind: "created"; charge: ChargeRow }
  | { kind: "queued"; request: CreateRequestRow; place: LinePlace };

/**
 * What one send of a request came to, decided where it happened: its charge, or the request
 * back in line (the limit, or a passing failure it is sent again after). A send that ends the
 * request, or whose charge could not be recorded, rejects instead. Told by the send itself, not
 * read back from the request's state: by the time that is read the line may be sending it again.
 */
type SendOutcome = { kind: "created"; charge: ChargeRow } | { kind: "back_in_line"; code: string };

/** Lapsed sends recovered per sweep. */
const RECOVERY_BATCH = 20;
/**
 * How long a session waits for its request when another instance is already sending it: a
 * create's usual time, after which the session is answered "preparing" and the code follows.
 */
const ANSWER_FROM_ELSEWHERE_MS = 3_000;
/** Sends of one request before a passing failure ends it (the shopper may take a new code). */
const SEND_ATTEMPTS = 5;
/** The pause after a request's first passing failure; it doubles with each. */
const RETRY_PAUSE_MS = 2_000;
const PRUNE_BATCH = 500;
const PRUNE_EVERY_MS = 60 * 60_000;
/** An address held back by its share is logged at most this often. */
const HELD_BACK_LOG_EVERY_MS = 60 * 60_000;

/**
 * The budget a registration draws on. The spec does not say whether the limit counts per key,
 * per address or per account, so every registration pointing at the same service shares one.
 */
export function budgetKeyOf(options: PixCheckoutOptions): string {
  return options.baseUrl;
}

/**
 * The create line of one process: where every charge create goes, so that all instances of a
 * store share the service's creates-per-minute (the database decides, see queue.ts), given out
 * over the minute rather than at its start (pacing.ts), and a shopper past the minute's budget or
 * its pace is answered at once ("preparing") instead of waiting on a request or being refused.
 * Clients take turns (see `CreateQueue.grant`); whichever instance finds a slot free sends the
 * requests it was granted, whoever asked for them, and wakes for the next token or slot; the
 * charge reaches the shopper through the session's stream.
 */
export class CreateLine {
  private readonly queue: CreateQueue;
  private readonly charges: Charges;
  private readonly senders = new Map<string, LineSender>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly inFlight = new Map<string, Promise<SendOutcome>>();
  private readonly createClients = new Map<string, Promise<PaymentServiceClient>>();
  private prunedAt = 0;
  private readonly heldBackLoggedAt = new Map<string, number>();

  /**
   * `config`: the app's configuration, whose plugin options say how clients share the budget
   * (`fairness`). Read at each grant, never copied: every instance follows the same options.
   */
  constructor(
    private readonly db: Knex,
    private readonly config: ConfigModule | undefined,
  ) {
    this.queue = new CreateQueue(db);
    this.charges = new Charges(db);
  }

  /** How this store shares the budget among clients (plugin option `fairness`). */
  private get share(): FairShare {
    return fairOptions(this.config);
  }

  /**
   * What the charge's collection is for, as it is recorded with the charge. A label, never a
   * reason to lose a charge the service made: a failed read records none.
   */
  private async purposeOf(paymentCollectionId: string | null) {
    if (!paymentCollectionId) return null;
    return collectionPurpose(this.db, paymentCollectionId).catch(() => null);
  }

  /** The reminders' options (`recovery`), read at each charge like the fairness options. */
  private recovery(): RecoveryOptions {
    return recoveryOptions(this.config);
  }

  /** Makes this process able to send a registration's requests. The first one registered stays. */
  register(providerKey: string, sender: LineSender): void {
    if (!this.senders.has(providerKey)) this.senders.set(providerKey, sender);
  }

  /** The create line's own table, for the session gate's per-client counts. */
  get requests(): CreateQueue {
    return this.queue;
  }

  /**
   * Asks for a charge: joins the line and, when the budget lets it go at once, sends it and
   * resolves with the recorded charge (the usual case); otherwise resolves at once with the
   * request's place. Errors of an immediate send reject (the shopper is still there to retry).
   */
  async request(request: NewCreateRequest): Promise<LineOutcome> {
    const queued = await this.queue.enqueue(request);
    try {
      await this.pump(request.budgetKey, queued.id);
    } catch (error) {
      // The session fails with this error and Medusa drops it: its request must not be sent
      // later for a session that no longer exists.
      await this.queue.cancel(queued.id).catch(() => undefined);
      throw error;
    }
    const own = this.inFlight.get(queued.id);
    if (own) {
      // A send that ended the request, or made a charge it could not record, fails the session
      // (the shopper is there to retry). Refused for the limit after all, or failed in passing,
      // the request is back in line and the shopper waits for it like any other queued one.
      const outcome = await own;
      if (outcome.kind === "created") return outcome;
    }
    // Another instance found the slot first and is sending this request now: its answer is a
    // moment away, and the shopper should get the code with the session, not "preparing".
    const sentElsewhere = await this.answerFromElsewhere(queued.id);
    if (sentElsewhere) return { kind: "created", charge: sentElsewhere };
    return {
      kind: "queued",
      request: queued,
      place: await this.queue.place(queued, this.limitOf(request.budgetKey), this.share),
    };
  }

  /** The charge of a request another instance is sending, if it arrives within a create's time. */
  private async answerFromElsewhere(id: string): Promise<ChargeRow | undefined> {
    const deadline = Date.now() + ANSWER_FROM_ELSEWHERE_MS;
    for (;;) {
      const current = await this.queue.byId(id);
      if (current?.state === "done" && current.charge_id) {
        return this.charges.byChargeId(current.charge_id);
      }
      if (current?.state !== "sending" || Date.now() >= deadline) return undefined;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Where a session's request stands now (store routes). */
  place(request: CreateRequestRow): Promise<LinePlace> {
    return this.queue.place(request, this.limitOf(request.budget_key), this.share);
  }

  /** The session's latest create request. */
  latestOfSession(sessionId: string): Promise<CreateRequestRow | undefined> {
    return this.queue.latestOfSession(sessionId);
  }

  /** The session was deleted: its request leaves the line (or its charge ends superseded). */
  cancelForSession(sessionId: string): Promise<void> {
    return this.queue.cancelForSession(sessionId);
  }

  /** The creates of a paid collection's sessions are no longer wanted (see the queue's). */
  cancelForCollection(collectionId: string): Promise<void> {
    return this.queue.cancelForCollection(collectionId);
  }

  /**
   * The safety net, run by reconciliation once every registration is registered here: ends
   * requests no registration can send, sends what the line holds (all instances asking for
   * creates may have stopped), looks for the charges of sends whose process died, and prunes
   * ended requests.
   */
  async sweep(): Promise<{ recovered: number; pruned: number }> {
    let recovered = 0;
    await this.queue.failOrphans([...this.senders.keys()]);
    for (const budgetKey of await this.queue.openBudgets()) {
      for (const lapsed of await this.queue.claimLapsedSends(budgetKey, RECOVERY_BATCH)) {
        const sender = this.senders.get(lapsed.provider_key);
        if (!sender) continue;
        recovered += 1;
        await this.recover(lapsed, sender).catch(() => undefined);
      }
      await this.pump(budgetKey);
    }
    // Pruning reads the ended requests (a day's worth): hourly is enough, every 15 s is not.
    let pruned = 0;
    if (Date.now() - this.prunedAt >= PRUNE_EVERY_MS) {
      this.prunedAt = Date.now();
      pruned = await this.queue.prune(ENDED_REQUEST_RETENTION_MS, PRUNE_BATCH);
    }
    return { recovered, pruned };
  }

  /** Stops the timers (tests, shutdown). */
  close(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  /** The budget's size: the smallest any registration sharing it allows. */
  private limitOf(budgetKey: string): number {
    let limit = Number.POSITIVE_INFINITY;
    for (const sender of this.senders.values()) {
      if (budgetKeyOf(sender.options) === budgetKey) {
        limit = Math.min(limit, sender.options.createsPerMinute);
      }
    }
    return Number.isFinite(limit) ? limit : 60;
  }

  /** Takes what the budget frees for the head of the line, sends it, and wakes for the next slot. */
  private async pump(budgetKey: string, ownId?: string): Promise<void> {
    // A registration whose baseUrl changed since the request was made sends into another budget.
    const grant = await this.queue.grant(
      budgetKey,
      this.limitOf(budgetKey),
      (key) => {
        const sender = this.senders.get(key);
        return sender !== undefined && budgetKeyOf(sender.options) === budgetKey;
      },
      this.share,
    );
    for (const request of grant.granted) {
      const sender = this.senders.get(request.provider_key) as LineSender;
      const sending = this.send(request, sender, request.id === ownId).finally(() => {
        this.inFlight.delete(request.id);
      });
      this.inFlight.set(request.id, sending);
      // Someone else's request: its shopper learns through the stream; failures are recorded.
      sending.catch(() => undefined);
    }
    if (grant.nextOpeningMs !== null) this.wakeIn(budgetKey, grant.nextOpeningMs);
    for (const address of grant.heldBack) this.noteHeldBack(address);
  }

  /**
   * A flood held back is the policy working; a storefront server that does not forward the
   * shopper's address looks the same to the line, and makes every shopper share one address's
   * creates. Say so in the log, once an hour per address, so the second is found.
   */
  private noteHeldBack(address: string): void {
    const now = Date.now();
    if (now - (this.heldBackLoggedAt.get(address) ?? 0) < HELD_BACK_LOG_EVERY_MS) return;
    if (this.heldBackLoggedAt.size > 1_000) this.heldBackLoggedAt.clear();
    this.heldBackLoggedAt.set(address, now);
    this.anyLogger()?.warn(
      `create line: address ${address} holds its ${this.share.clientCreatesPerMinute} creates of the minute and more of its carts wait for them. One client flooding carts is held back this way. If ${address} is your storefront's own server (Next.js server actions), forward the shopper's X-Forwarded-For, or every shopper shares that address's creates (README, "Busy minutes").`,
    );
  }

  private wakeIn(budgetKey: string, ms: number): void {
    clearTimeout(this.timers.get(budgetKey));
    const timer = setTimeout(
      () => {
        this.timers.delete(budgetKey);
        this.pump(budgetKey).catch((error: unknown) => {
          this.anyLogger()?.warn(
            `create line: could not hand out create slots (${redact(String((error as Error)?.message ?? error))}); reconciliation retries`,
          );
        });
      },
      // A few ms past the opening, so the database clock agrees the slot is free.
      Math.max(0, ms) + 5,
    );
    timer.unref();
    this.timers.set(budgetKey, timer);
  }

  private anyLogger(): PluginLogger | undefined {
    return this.senders.values().next().value?.logger;
  }

  /** Sends one granted request and records its charge; the one place charges are created. */
  private send(
    request: CreateRequestRow,
    sender: LineSender,
    shopperWaiting = false,
  ): Promise<SendOutcome> {
    const attributes = createAttributes(request, sender.options);
    const waitedMs = attributes["pix_checkout.create.line_wait_ms"];
    if (typeof waitedMs === "number") recordLineWait(waitedMs, request.method);
    return withSpan(
      "pix_checkout.create",
      attributes,
      () => this.sendNow(request, sender, shopperWaiting),
      (outcome) =>
        outcome.kind === "created"
          ? {
              "pix_checkout.charge_id": outcome.charge.charge_id,
              "pix_checkout.outcome": "created",
            }
          : { "pix_checkout.outcome": "back_in_line", "pix_checkout.error_code": outcome.code },
    );
  }

  /**
   * `shopperWaiting`: the session's own request, sent while its shopper waits for the answer.
   * In Variant A a passing failure fails it ("try again", as before the line), since Medusa
   * then drops the session. A queued request's passing failure sends it again instead, and so
   * does a Variant B one's, whose key makes sending again safe (the client used to retry it).
   */
  private async sendNow(
    request: CreateRequestRow,
    sender: LineSender,
    shopperWaiting = false,
  ): Promise<SendOutcome> {
    let charge: ClientCharge;
    try {
      // A Variant A send that ended without an answer may have made the charge after all, and
      // the service's list may only show it now: look before sending again.
      const earlier =
        request.error_code === "charge_outcome_unknown" && sender.options.variant === "a"
          ? await findByReference(await sender.client(), request)
          : null;
      if (!earlier && !request.input) {
        throw new PixCheckoutError(
          "create_input_gone",
          `create request ${request.id} has no input left (its payer data was pruned)`,
        );
      }
      charge =
        earlier ??
        (await createAtService(
          await this.createClientOf(request.provider_key, sender),
          request.input as ClientCreateChargeInput,
          request.session_id,
          sender.options.variant,
          request.id,
        ));
    } catch (error) {
      const err = error as { code?: unknown; retryAfterMs?: unknown };
      const code = String(err.code ?? "payment_service_error");
      const message = redact(String((error as Error)?.message ?? error));
      const resend = !shopperWaiting || sender.options.variant === "b";
      if (isRateLimited(error)) {
        const pauseMs = typeof err.retryAfterMs === "number" ? err.retryAfterMs : CREATE_WINDOW_MS;
        await this.queue.requeue(request.id, request.budget_key, pauseMs, { code, message }, false);
        this.wakeIn(request.budget_key, pauseMs);
        return { kind: "back_in_line", code };
      } else if (resend && isPassing(error) && request.attempts + 1 < SEND_ATTEMPTS) {
        // Nothing was charged (or the lookup found nothing): the shopper keeps waiting while
        // the request is sent again, after a pause that grows with its failures.
        const pauseMs = RETRY_PAUSE_MS * 2 ** request.attempts;
        await this.queue.requeue(request.id, request.budget_key, pauseMs, { code, message }, true);
        this.wakeIn(request.budget_key, pauseMs);
        return { kind: "back_in_line", code };
      } else {
        // A send the service failed in passing still spent its slot of the budget, but not
        // its client's share: the shopper did not spend it, and tries again.
        await this.queue.fail(request.id, code, message, true, isPassing(error));
      }
      throw error;
    }
    return { kind: "created", charge: await this.record(request, sender, charge) };
  }

  /**
   * The client the line sends creates with: the registration's, except that it never retries
   * a create on its own. The service counts every POST against its limit, so each one must
   * take a slot of the shared budget first: the line sends again (within the budget), the
   * client does not.
   */
  private createClientOf(providerKey: string, sender: LineSender): Promise<PaymentServiceClient> {
    let client = this.createClients.get(providerKey);
    if (!client) {
      client = createClient({ ...sender.options, maxRetries: 0 }, sender.logger);
      this.createClients.set(providerKey, client);
      client.catch(() => this.createClients.delete(providerKey));
    }
    return client;
  }

  /**
   * A send whose process died: Variant B sends again under the same idempotency key (the
   * request's id: the service answers with the charge it made, if it made one); Variant A,
   * which has none, looks for a charge carrying the session's reference and never sends
   * blindly again. The send holds the slot its request took: the dead send reached the
   * service more than a lease ago.
   */
  private async recover(request: CreateRequestRow, sender: LineSender): Promise<void> {
    if (sender.options.variant === "b") {
      await this.send(request, sender);
      return;
    }
    const found = await findByReference(await sender.client(), request);
    if (found) {
      await this.record(request, sender, found);
      return;
    }
    await this.queue.fail(
      request.id,
      "charge_outcome_unknown",
      "The create was interrupted and no charge of it was found; take a new code.",
    );
  }

  private async record(
    request: CreateRequestRow,
    sender: LineSender,
    charge: ClientCharge,
  ): Promise<ChargeRow> {
    const { options } = sender;
    const display = toDisplayData(charge);
    const expiresAt = localExpiry(charge, request.method, options);
    display.expires_at = expiresAt.toISOString();
    const createdAt = charge.createdAt ? new Date(charge.createdAt) : new Date();
    // One due date for the shopper: the barcode's, which the bank enforces, moved to the next
    // business day when it falls on a weekend or a holiday.
    const due = display.boleto
      ? boletoDueDate(display.boleto.digitable_line, new Date(charge.expiresAt))
      : undefined;
    if (display.boleto && due) display.boleto.due_date = due.shown;
    // Grace, cancel and reminders count from the real due date, not the service's.
    const orderHoldUntil =
      request.method === "boleto"
        ? boletoGraceEndsAt(expiresAt, options.boletoGraceBusinessDays)
        : null;
    // The shopper must never see a code the plugin has no record of, so the charge is
    // recorded before the request ends; a failure here leaves the request to recovery.
    const saved = await sender.lifecycle.created({
      charge_id: charge.id,
      provider_id: request.provider_id,
      method: request.method,
      variant: options.variant,
      session_id: request.session_id,
      payment_collection_id: request.payment_collection_id,
      sales_channel_id: request.sales_channel_id,
      purpose: await this.purposeOf(request.payment_collection_id),
      amount_cents: charge.amountCents,
      currency_code: "brl",
      expires_at: expiresAt,
      // An unpaid boleto keeps its order for the grace period after its due date (banks
      // confirm a payment made on the due date days later); a Pix's expiry is final.
      order_hold_until: orderHoldUntil,
      // Its first reminder, in the same row, so no charge of a store that sends them lacks one.
      next_reminder_at: firstReminderAt(this.recovery(), {
        method: request.method,
        createdAt,
        expiresAt,
        dueDay: due?.shown ?? null,
        graceEndsAt: orderHoldUntil,
      }),
      next_check_at: nextCheckAt({
        createdAt,
        expiresAt,
        now: createdAt,
        intervalMs: options.reconcileIntervalMinutes * 60_000,
        method: request.method,
      }),
      display,
      // The document the create was sent with, checked by checkout/charge-input.ts: what
      // Medusa's order is given when it is placed (checkout/order-buyer-document.ts).
      buyer_document: request.input?.customer?.document ?? null,
    });
    if (due?.mismatch) {
      await sender.lifecycle.flag(
        charge.id,
        { code: "boleto_due_date_mismatch", ...due.mismatch },
        "provider",
      );
    }
    const { cancelRequested } = await this.queue.finish(request.id, charge.id);
    if (cancelRequested) {
      // The session went away while its create was in flight: never offer this code, unless
      // a newer session of the same cart already took it over (reuse, between the record
      // above and now): the charge is then that live session's code, and stays payable.
      await sender.lifecycle.superseded(charge.id, "provider", request.session_id);
    }
    sender.logger.info(
      `created ${request.method} charge ${charge.id} for session ${request.session_id}`,
    );
    return saved;
  }
}

/** What a create's span says about it: who asked, and how long it waited for its slot. */
function createAttributes(
  request: CreateRequestRow,
  options: PixCheckoutOptions,
): TelemetryAttributes {
  const waitedMs =
    request.sent_at === null
      ? null
      : new Date(request.sent_at).getTime() - new Date(request.enqueued_at).getTime();
  return {
    "pix_checkout.session_id": request.session_id,
    "pix_checkout.provider_id": request.provider_id,
    "pix_checkout.method": request.method,
    "pix_checkout.variant": options.variant,
    "pix_checkout.create_request_id": request.id,
    "pix_checkout.create.line_wait_ms": waitedMs === null ? null : Math.max(0, waitedMs),
  };
}

/**
 * The charge a request's earlier send may have made: one carrying the session's reference,
 * created from the request's first send on.
 */
function findByReference(
  client: PaymentServiceClient,
  request: CreateRequestRow,
): Promise<ClientCharge | null> {
  const from = new Date(request.enqueued_at);
  return client.charges.findAfterUnknownOutcome(
    {
      details: {
        amountCents: request.amount_cents,
        window: { from: from.toISOString(), to: new Date().toISOString() },
      },
    },
    { reference: chargeReference(request.session_id) },
  );
}

/** Failures that pass: the service was slow, unreachable or failed before charging. */
function isPassing(error: unknown): boolean {
  const err = error as { code?: unknown; status?: unknown };
  return (
    ["charge_outcome_unknown", "connection_error", "timeout"].includes(String(err?.code)) ||
    (typeof err?.status === "number" && err.status >= 500)
  );
}

function isRateLimited(error: unknown): boolean {
  const err = error as { code?: unknown; status?: unknown };
  return err?.code === "rate_limit_exceeded" || err?.status === 429;
}

/**
 * Sends a create: the one way this plugin asks the service for a charge. Variant A must not
 * send Idempotency-Key (spec). In B the key names this create: `idempotencyKey` (the create
 * request's id, the same for every send of that request, so a send whose answer was lost is
 * answered with the charge it made), else one the client makes for this call. Never the
 * session id: a session whose amount changes asks for a new charge, which a service that
 * replays by key would answer with the old one. A create that ended without an answer is
 * looked for (only a charge whose description carries the session's reference is ever
 * adopted) before it counts as failed; it is never sent again blindly.
 */
export async function createAtService(
  client: PaymentServiceClient,
  input: ClientCreateChargeInput,
  sessionId: string,
  variant: "a" | "b",
  idempotencyKey?: string,
): Promise<ClientCharge> {
  try {
    return await client.charges.create(
      input,
      variant === "b" && idempotencyKey !== undefined ? { idempotencyKey } : {},
    );
  } catch (error) {
    if ((error as { code?: string }).code === "charge_outcome_unknown") {
      const found = await client.charges
        .findAfterUnknownOutcome(error, { reference: chargeReference(sessionId) })
        .catch(() => null);
      if (found) return found;
    }
    throw error;
  }
}

/**
 * Effective local expiry: the API's, capped by the plugin's own option when set. A boleto's is
 * its real due date (`boletoPayableUntil`): never on a weekend or a holiday, and at the latest
 * the end of `boletoDueDays` bank business days after creation, however the service counts.
 */
export function localExpiry(
  charge: ClientCharge,
  method: "pix" | "boleto",
  options: PixCheckoutOptions,
): Date {
  const api = new Date(charge.expiresAt);
  const created = charge.createdAt ? new Date(charge.createdAt) : new Date();
  if (method === "boleto") return boletoPayableUntil(api, created, options.boletoDueDays);
  if (options.pixExpiryMinutes === undefined) return api;
  const capped = new Date(created.getTime() + options.pixExpiryMinutes * 60_000);
  return capped < api ? capped : api;
}

/**
 * Reconciliation's part of the line: every registration can send from here, and what the
 * line holds is sent, recovered or pruned (see `CreateLine.sweep`).
 */
export async function sweepCreateLine(
  db: Knex,
  providers: readonly RegisteredProvider[],
  lifecycle: ChargeLifecycle,
  logger: PluginLogger,
  config: ConfigModule,
): Promise<{ recovered: number; pruned: number }> {
  const line = createLineOf(db, config);
  for (const provider of providers) {
    line.register(provider.key, {
      options: provider.options,
      client: () => clientFor(provider, logger),
      lifecycle,
      logger,
    });
  }
  return line.sweep();
}

const lines = new WeakMap<Knex, CreateLine>();

/**
 * The process's line for this database connection. `config` is the app's configuration (the
 * first caller's is kept: a process has one); undefined only where Medusa gives none, and then
 * the `fairness` defaults apply.
 */
export function createLineOf(db: Knex, config: ConfigModule | undefined): CreateLine {
  let line = lines.get(db);
  if (!line) {
    line = new CreateLine(db, config);
    lines.set(db, line);
  }
  return line;
}
