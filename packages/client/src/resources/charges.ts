import { randomUUID } from "node:crypto";
import {
  ChargeMatchAmbiguousError,
  ChargeOutcomeUnknownError,
  InvalidRequestError,
  PixError,
  ResponseValidationError,
  VariantMismatchError,
  type UnknownOutcomeDetails,
} from "../errors.js";
import type {
  Charge,
  ChargeStatusResult,
  ChargeTransaction,
  CreateChargeInput,
  CreateChargeOptions,
} from "../models.js";
import type { ClientContext } from "../internal/context.js";
import { mayHaveBeenProcessed } from "../internal/transport.js";
import { validateCreateInput, type ValidCreateInput } from "../internal/validate-input.js";
import type { Transactions } from "./transactions.js";

/** Options of `charges.findAfterUnknownOutcome`. */
export interface FindAfterUnknownOutcomeOptions {
  /** Widens the search window on both sides, for clock skew and queueing. Default 120000 ms. */
  skewMs?: number;
  /**
   * A token unique to this create that you put in its `description` (an order or session id).
   * When given, only a charge whose description contains it matches, whatever its amount or
   * payer: two shoppers paying the same amount in the same minute can never be confused.
   */
  reference?: string;
}

function chargePath(id: string, suffix = ""): string {
  if (typeof id !== "string" || id.trim() === "") {
    throw new InvalidRequestError("A charge id is required", {
      code: "missing_id",
      issues: [{ path: "id", message: "is required" }],
    });
  }
  return `/charges/${encodeURIComponent(id)}${suffix}`;
}

function maskDocument(document: string): string {
  return `${"*".repeat(Math.max(0, document.length - 2))}${document.slice(-2)}`;
}

function checkIdempotencyKey(key: string | undefined, variant: "a" | "b"): void {
  if (key === undefined) return;
  const issue = (message: string): never => {
    throw new InvalidRequestError(`idempotencyKey ${message}`, {
      code: "invalid_request",
      issues: [{ path: "idempotencyKey", message }],
    });
  };
  if (variant === "a") {
    issue("must not be sent in Variant A (the service forbids it); leave it out");
  }
  if (typeof key !== "string" || !/^[\x21-\x7e]{1,255}$/.test(key)) {
    issue("must be 1 to 255 printable ASCII characters without spaces");
  }
}

/** `client.charges`: create, read and poll Pix and boleto charges. */
export class Charges {
  readonly #ctx: ClientContext;
  readonly #transactions: Transactions;

  /** @internal Built by `PixClient`. */
  constructor(ctx: ClientContext, transactions: Transactions) {
    this.#ctx = ctx;
    this.#transactions = transactions;
  }

  /**
   * Creates a charge. The input is validated first (`InvalidRequestError` with one issue per
   * field, nothing sent). Calls are paced by the client's create limiter.
   *
   * Never creates twice: Variant B sends an Idempotency-Key (yours, or one generated for this
   * call) and reuses it on every retry; Variant A sends none and never retries once the request
   * may have reached the service. Either way a result the client cannot know becomes a
   * `ChargeOutcomeUnknownError`.
   */
  async create(input: CreateChargeInput, options: CreateChargeOptions = {}): Promise<Charge> {
    const { variant, adapter, transport } = this.#ctx;
    const valid = validateCreateInput(input, variant);
    checkIdempotencyKey(options.idempotencyKey, variant);
    const idempotencyKey = variant === "b" ? (options.idempotencyKey ?? randomUUID()) : undefined;
    const startedAt = this.#ctx.clock.now();
    let body: unknown;
    try {
      const response = await transport.call({
        method: "POST",
        path: "/charges",
        body: adapter.createBody(valid),
        ...(idempotencyKey === undefined ? {} : { headers: { "idempotency-key": idempotencyKey } }),
        signal: options.signal,
        retry: variant === "b" ? "idempotent-create" : "unsafe-create",
        limiter: { limiter: this.#ctx.createLimiter, maxWaitMs: this.#ctx.maxWaitMs },
      });
      body = response.body;
    } catch (error) {
      // Only Variant A refuses an Idempotency-Key: a Variant B client is talking to an A account.
      if (variant === "b" && (error as PixError).code === "idempotency_not_supported") {
        throw new VariantMismatchError("b", "a", "it refused the Idempotency-Key header");
      }
      if (mayHaveBeenProcessed(error)) {
        throw this.#unknownOutcome(error as PixError, valid, startedAt, idempotencyKey);
      }
      throw error;
    }
    const other = otherVariantOf(body, variant);
    if (other) {
      // The charge exists upstream, but as the other variant's record: say what to fix
      // instead of an unknown outcome the caller would try to reconcile on every checkout.
      this.#ctx.logger.warn("charge created with the wrong variant configured", {
        variant,
        serviceVariant: other.variant,
      });
      throw new VariantMismatchError(variant, other.variant, other.evidence);
    }
    try {
      return adapter.parseCreated(body, valid.method);
    } catch (error) {
      // In Variant A a 201 we cannot read still created a charge, and without its id the caller
      // would be tempted to create again: reconcile instead. In Variant B retrying with the
      // same key is safe, so the validation error reaches the caller as it is.
      if (variant === "a" && error instanceof ResponseValidationError) {
        throw this.#unknownOutcome(error, valid, startedAt, idempotencyKey);
      }
      throw error;
    }
  }

  #unknownOutcome(
    cause: PixError,
    input: ValidCreateInput,
    startedAt: number,
    idempotencyKey: string | undefined,
  ): ChargeOutcomeUnknownError {
    const details: UnknownOutcomeDetails = {
      method: input.method,
      amountCents: input.amountCents,
      window: {
        from: new Date(startedAt).toISOString(),
        to: new Date(this.#ctx.clock.now()).toISOString(),
      },
    };
    if (input.description !== undefined) details.description = input.description;
    if (input.customer) {
      const { name, email, document } = input.customer;
      details.customer = {
        ...(name === undefined ? {} : { name }),
        ...(email === undefined ? {} : { email }),
        ...(document === undefined ? {} : { documentMasked: maskDocument(document) }),
      };
    }
    if (idempotencyKey !== undefined) details.idempotencyKey = idempotencyKey;
    const next =
      idempotencyKey === undefined
        ? "do not create it again blindly: call charges.findAfterUnknownOutcome(error) to look for it"
        : "retry with the same idempotencyKey (error.details.idempotencyKey); the service will not charge twice";
    this.#ctx.logger.warn("charge create ended with an unknown outcome", {
      code: cause.code,
      amountCents: input.amountCents,
    });
    return new ChargeOutcomeUnknownError(
      `The charge may or may not have been created (${cause.code}: ${cause.message}); ${next}`,
      {
        code: "charge_outcome_unknown",
        cause,
        details,
        ...(cause.status === undefined ? {} : { status: cause.status }),
        ...(cause.requestId === undefined ? {} : { requestId: cause.requestId }),
      },
    );
  }

  /** Reads a charge. Variant B also accepts the full UUID or a partial id. */
  async retrieve(id: string, options: { signal?: AbortSignal } = {}): Promise<Charge> {
    const response = await this.#ctx.transport.call({
      method: "GET",
      path: chargePath(id),
      retry: "safe",
      signal: options.signal,
    });
    return this.#ctx.adapter.parseCharge(response.body);
  }

  /** Polls a charge's status (the light call). `paid: true` is the only confirmation of payment. */
  async status(id: string, options: { signal?: AbortSignal } = {}): Promise<ChargeStatusResult> {
    const response = await this.#ctx.transport.call({
      method: "GET",
      path: chargePath(id, "/status"),
      retry: "safe",
      signal: options.signal,
    });
    return this.#ctx.adapter.parseStatus(response.body);
  }

  /**
   * Looks for the charge a failed create may have made, in the transaction list: charges
   * created inside the error's time window (widened by `skewMs`) with the same amount, and the
   * same description, method, customer name and e-mail where both sides have them.
   *
   * Resolves with the charge when exactly one matches, `null` when none does, and throws
   * `ChargeMatchAmbiguousError` when several do (two identical creates in the same window
   * cannot be told apart: put something unique, like your order id, in `description` and pass
   * it as `options.reference`, which then becomes the only thing that matches).
   * `null` is not proof: the list may lag behind a create that is still being processed, so
   * ask again a little later before creating anew.
   */
  async findAfterUnknownOutcome(
    error: ChargeOutcomeUnknownError,
    options: FindAfterUnknownOutcomeOptions = {},
  ): Promise<Charge | null> {
    const { details } = error;
    const skewMs = options.skewMs ?? 120_000;
    const from = new Date(Date.parse(details.window.from) - skewMs);
    const to = new Date(Date.parse(details.window.to) + skewMs);
    const matches: ChargeTransaction[] = [];
    const { reference } = options;
    if (reference !== undefined && reference.trim() === "") {
      throw new InvalidRequestError("reference must not be empty", {
        code: "invalid_request",
        issues: [{ path: "reference", message: "must not be empty" }],
      });
    }
    const matches_ = (tx: ChargeTransaction) =>
      reference === undefined
        ? matchesDetails(tx, details)
        : tx.amountCents === details.amountCents && (tx.description ?? "").includes(reference);
    const list = this.#transactions.list({
      type: "charge",
      createdGte: from,
      createdLte: to,
      limit: 100,
    });
    for await (const tx of list) {
      if (tx.type === "charge" && matches_(tx)) matches.push(tx);
    }
    if (matches.length === 0) return null;
    if (matches.length > 1) {
      throw new ChargeMatchAmbiguousError(
        `${matches.length} charges of ${details.amountCents} cents were created in that window and match; decide by hand or add a unique description to future charges`,
        matches.map((tx) => tx.id),
      );
    }
    return this.retrieve((matches[0] as ChargeTransaction).id);
  }
}

/**
 * Whether a create's 201 body is plainly the other variant's: Variant B answers with
 * `object: "charge"` and an `id` of the form `ch_svc_...`; Variant A with `success` and a
 * `uuid`. Undefined when the body looks like the configured variant (or like neither).
 */
function otherVariantOf(
  body: unknown,
  variant: "a" | "b",
): { variant: "a" | "b"; evidence: string } | undefined {
  if (body === null || typeof body !== "object") return undefined;
  const b = body as Record<string, unknown>;
  if (
    variant === "a" &&
    b.object === "charge" &&
    typeof b.id === "string" &&
    b.id.startsWith("ch_svc_")
  ) {
    return { variant: "b", evidence: `charge ids like ${b.id.slice(0, 10)}...` };
  }
  if (
    variant === "b" &&
    b.success === true &&
    typeof b.uuid === "string" &&
    b.object === undefined
  ) {
    return { variant: "a", evidence: "flat { success, uuid } answers" };
  }
  return undefined;
}

function sameText(a: string | undefined, b: string | undefined): boolean {
  return a === undefined || b === undefined || a.trim().toLowerCase() === b.trim().toLowerCase();
}

function matchesDetails(tx: ChargeTransaction, details: UnknownOutcomeDetails): boolean {
  if (tx.amountCents !== details.amountCents) return false;
  if (
    tx.description !== undefined &&
    details.description !== undefined &&
    tx.description !== details.description
  ) {
    return false;
  }
  const method = (tx.raw as { method?: unknown; payment_method?: unknown } | null) ?? {};
  const rawMethod = method.method ?? method.payment_method;
  if (typeof rawMethod === "string" && rawMethod !== details.method) return false;
  return (
    sameText(tx.customer?.email, details.customer?.email) &&
    sameText(tx.customer?.name, details.customer?.name)
  );
}
