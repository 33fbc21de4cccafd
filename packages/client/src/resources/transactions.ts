import { InvalidRequestError, type FieldIssue } from "../errors.js";
import type { ListTransactionsParams, Page, Transaction } from "../models.js";
import type { ClientContext } from "../internal/context.js";
import { PagePromise } from "../internal/pagination.js";

function isoParam(
  value: Date | string | undefined,
  path: string,
  issues: FieldIssue[],
): string | undefined {
  if (value === undefined) return undefined;
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) {
    issues.push({ path, message: "must be a Date or an ISO 8601 timestamp" });
    return undefined;
  }
  return date.toISOString();
}

function toQuery(params: ListTransactionsParams): Record<string, string | undefined> {
  const issues: FieldIssue[] = [];
  const { limit } = params;
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > 100)) {
    issues.push({ path: "limit", message: "must be an integer from 1 to 100" });
  }
  const query = {
    limit: limit === undefined ? undefined : String(limit),
    starting_after: params.startingAfter,
    type: params.type,
    status: params.status,
    "created[gte]": isoParam(params.createdGte, "createdGte", issues),
    "created[lte]": isoParam(params.createdLte, "createdLte", issues),
  };
  if (issues.length > 0) {
    throw new InvalidRequestError(
      `Invalid transaction filters: ${issues.map((issue) => `${issue.path} ${issue.message}`).join("; ")}`,
      { code: "invalid_request", issues },
    );
  }
  return query;
}

/** `client.transactions`: the account's charges and withdrawals. */
export class Transactions {
  readonly #ctx: ClientContext;

  /** @internal Built by `PixClient`. */
  constructor(ctx: ClientContext) {
    this.#ctx = ctx;
  }

  /**
   * Lists transactions, newest first as the service orders them. `await` it for one page, or
   * `for await (const tx of client.transactions.list())` for every item of every page.
   * Invalid filters throw `InvalidRequestError` at once, before anything is sent.
   */
  list(params: ListTransactionsParams = {}): PagePromise<Transaction> {
    const query = toQuery(params);
    return new PagePromise<Transaction>(
      (cursor) => this.#page({ ...query, starting_after: cursor }),
      params.startingAfter,
    );
  }

  async #page(query: Record<string, string | undefined>): Promise<Page<Transaction>> {
    const response = await this.#ctx.transport.call({
      method: "GET",
      path: "/transactions",
      query,
      retry: "safe",
    });
    return this.#ctx.adapter.parseTransactions(response.body);
  }
}
