import type { Balance } from "../models.js";
import { parseBalance } from "../internal/adapter.js";
import type { ClientContext } from "../internal/context.js";

/** `client.balance`. */
export class BalanceResource {
  readonly #ctx: ClientContext;

  /** @internal Built by `PixClient`. */
  constructor(ctx: ClientContext) {
    this.#ctx = ctx;
  }

  /** Available and pending BRL balance, in cents. */
  async retrieve(options: { signal?: AbortSignal } = {}): Promise<Balance> {
    const response = await this.#ctx.transport.call({
      method: "GET",
      path: "/balance",
      retry: "safe",
      signal: options.signal,
    });
    return parseBalance(response.body);
  }
}
