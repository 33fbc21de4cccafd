import { randomUUID } from "node:crypto";
import { z } from "zod";
import { InvalidRequestError, ResponseValidationError } from "../errors.js";
import type { ListTransactionsParams, Transaction, Withdrawal } from "../models.js";
import { checkAmounts, parseOrThrow } from "../internal/adapter.js";
import type { ClientContext } from "../internal/context.js";
import type { PagePromise } from "../internal/pagination.js";
import type { Transactions } from "./transactions.js";

// The spec shows no withdrawal shape: read what identifies one and keep the rest in `raw`.
const withdrawalSchema = z
  .object({
    id: z.string().min(1).optional(),
    uuid: z.string().min(1).optional(),
    status: z.string().min(1),
    amount: z.number().optional(),
    amount_cents: z.int().optional(),
  })
  .loose();

/**
 * `client.withdrawals`. The spec lists `POST /v1/withdrawals` (30 per minute) but shows neither
 * its request nor its response, and its integration guidance says withdrawals are requested in
 * the dashboard. So `create` sends `{ amount, pix_key?, description? }` (amount in cents) and
 * reads back only `id` (or `uuid`), `status` and the amount; reading withdrawals goes through
 * the transaction list.
 */
export class Withdrawals {
  readonly #ctx: ClientContext;
  readonly #transactions: Transactions;

  /** @internal Built by `PixClient`. */
  constructor(ctx: ClientContext, transactions: Transactions) {
    this.#ctx = ctx;
    this.#transactions = transactions;
  }

  /**
   * Requests a withdrawal by Pix. Paced at 30 per minute. Never retried once it may have
   * reached the service (the spec promises no idempotency for withdrawals): after a timeout
   * or a broken connection, look in `withdrawals.list()` before asking again.
   */
  async create(
    input: { amountCents: number; pixKey?: string; description?: string },
    options: { idempotencyKey?: string; signal?: AbortSignal } = {},
  ): Promise<Withdrawal> {
    const amount = input?.amountCents;
    if (typeof amount !== "number" || !Number.isSafeInteger(amount) || amount <= 0) {
      throw new InvalidRequestError("Invalid withdrawal: amountCents must be a positive integer", {
        code: "invalid_request",
        issues: [{ path: "amountCents", message: "must be a positive integer number of cents" }],
      });
    }
    const key = this.#ctx.variant === "b" ? (options.idempotencyKey ?? randomUUID()) : undefined;
    const response = await this.#ctx.transport.call({
      method: "POST",
      path: "/withdrawals",
      body: {
        amount,
        ...(input.pixKey === undefined ? {} : { pix_key: input.pixKey }),
        ...(input.description === undefined ? {} : { description: input.description }),
      },
      ...(key === undefined ? {} : { headers: { "idempotency-key": key } }),
      signal: options.signal,
      retry: "unsafe-create",
      limiter: { limiter: this.#ctx.withdrawalLimiter, maxWaitMs: this.#ctx.maxWaitMs },
    });
    const what = "POST /withdrawals response";
    const parsed = parseOrThrow(withdrawalSchema, response.body, what);
    let amountCents = parsed.amount_cents;
    if (amountCents !== undefined && parsed.amount !== undefined) {
      checkAmounts(parsed.amount, amountCents, { reais: "amount", cents: "amount_cents" }, what);
    } else if (amountCents === undefined && Number.isSafeInteger(parsed.amount)) {
      amountCents = parsed.amount;
    }
    const id = parsed.id ?? parsed.uuid;
    if (id === undefined) {
      throw new ResponseValidationError(`${what} has neither id nor uuid`, {
        code: "invalid_response",
        issues: [{ path: "id", message: "is required" }],
      });
    }
    return {
      id,
      status: parsed.status,
      ...(amountCents === undefined ? {} : { amountCents }),
      raw: response.body,
    };
  }

  /** Withdrawals from the transaction list (same paging as `transactions.list`). */
  list(params: Omit<ListTransactionsParams, "type"> = {}): PagePromise<Transaction> {
    return this.#transactions.list({ ...params, type: "withdrawal" });
  }
}
