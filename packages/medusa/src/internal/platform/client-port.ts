// The narrow slice of @pix-checkout/client this plugin uses. The client ships ES module and
// CommonJS builds; the plugin loads the ES module one with a dynamic import() once per process
// (it was ESM-only when this was written, and one copy per process keeps its error classes
// one), and this file keeps that in one place. The types below restate what the plugin uses;
// client-port.test.ts makes the type check fail when they drift from the client's own.
import { Agent } from "undici";
import type { PixCheckoutOptions } from "./options";
import type { ChargeStatus } from "./status";
import type { PluginLogger } from "./logger";
import { metricsActive, timeApi, type ApiOperation } from "./telemetry";

/** A charge as the client normalises it (contracts: `Charge`). */
export interface ClientCharge {
  id: string;
  method: "pix" | "boleto";
  status: ChargeStatus;
  amountCents: number;
  expiresAt: string;
  createdAt?: string;
  paidAt?: string;
  pix?: { copyPaste: string; qrCodePng?: string; paymentLink?: string };
  boleto?: { url: string; barcode: string; digitableLine: string };
}

/** Input of `client.charges.create` (contracts: `CreateChargeInput`). */
export type ClientCreateChargeInput =
  | {
      method: "pix";
      amountCents: number;
      description?: string;
      customer?: { name?: string; email?: string; document?: string };
    }
  | {
      method: "boleto";
      amountCents: number;
      description?: string;
      customer: { name: string; email: string; document: string; phone: string };
      billingAddress: {
        zip: string;
        state: string;
        city: string;
        street: string;
        neighborhood: string;
        number: string;
        complement?: string;
      };
    };

/** What `client.verifyWebhook` answers. */
export interface ClientVerifiedWebhook {
  chargeId?: string;
  status?: ChargeStatus;
  paid?: boolean;
  verified: boolean;
}

/** The client surface the plugin depends on. */
export interface PaymentServiceClient {
  charges: {
    create(
      input: ClientCreateChargeInput,
      options?: { idempotencyKey?: string },
    ): Promise<ClientCharge>;
    retrieve(id: string): Promise<ClientCharge>;
    status(id: string): Promise<{ id: string; status: ChargeStatus; paid: boolean }>;
    findAfterUnknownOutcome(
      error: unknown,
      options?: { reference?: string },
    ): Promise<ClientCharge | null>;
  };
  /** Fetch-back check of a parsed webhook event (transfers: through the transaction list). */
  verifyWebhook(event: unknown): Promise<{ verified: boolean; status?: unknown }>;
}

/** What the plugin passes to `new PixClient(...)` (contracts: `PixClientOptions`). */
export interface ClientOptions {
  apiKey: string;
  baseUrl: string;
  variant: "a" | "b";
  timeoutMs?: number;
  maxRetries?: number;
  logger?: PluginLogger;
  dispatcher?: Agent;
}

/** The part of the client module the plugin uses. */
export interface ClientModule {
  PixClient: new (options: ClientOptions) => PaymentServiceClient;
  parseWebhook(body: unknown): unknown;
  PixError: new (...args: never[]) => Error & { code: string; status?: number };
}

// A variable specifier keeps TypeScript from resolving the ESM package's types with
// CommonJS rules; the result is checked against the port interfaces above instead.
const CLIENT_PACKAGE = "@pix-checkout/client";
let loading: Promise<ClientModule> | undefined;

/** Loads @pix-checkout/client once per process. */
export function loadClientModule(): Promise<ClientModule> {
  // A real import() survives TypeScript's CommonJS output (module Node16), which is what
  // lets this CommonJS plugin load the client's ES module build.
  loading ??= import(CLIENT_PACKAGE) as Promise<ClientModule>;
  return loading;
}

let agent: Agent | undefined;

/**
 * One connection pool for every provider registration in this process, capped so a burst of
 * webhooks and refreshes cannot open an unbounded number of sockets to the payment service.
 */
function sharedAgent(): Agent {
  agent ??= new Agent({ keepAliveTimeout: 10_000, connections: 64 });
  return agent;
}

/** Builds a client for one provider configuration. */
export async function createClient(
  options: PixCheckoutOptions,
  logger?: PluginLogger,
): Promise<PaymentServiceClient> {
  const { PixClient } = await loadClientModule();
  const client = new PixClient({
    apiKey: options.apiKey,
    baseUrl: options.baseUrl,
    variant: options.variant,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
    ...(logger ? { logger } : {}),
    dispatcher: sharedAgent(),
  });
  return timeCalls(client, options.variant);
}

type AsyncMethod = (...args: never[]) => Promise<unknown>;

/** A page of the transaction list, as far as timing it needs. */
interface PageLike {
  data: unknown[];
}

/** What `transactions.list()` returns: awaited for one page, iterated for every item. */
interface PageWalk extends PromiseLike<PageLike>, AsyncIterable<unknown> {
  pages(): AsyncGenerator<PageLike, void, undefined>;
}

/** The surface beyond the port that the admin routes and the books reach through casts. */
interface TimedSurface {
  charges: Record<"create" | "retrieve" | "status" | "findAfterUnknownOutcome", AsyncMethod>;
  transactions?: { list(...args: never[]): PageWalk };
  balance?: { retrieve: AsyncMethod };
}

/**
 * Times the client calls the plugin makes (telemetry.ts `pix_checkout.api.*`), in place, so
 * every other part of the client stays as it is. Calls the client makes inside another
 * (`findAfterUnknownOutcome` lists transactions) are timed as their own operation too.
 */
export function timeCalls<C>(client: C, variant: "a" | "b"): C {
  const surface = client as unknown as TimedSurface;
  const timed = <O extends object, K extends keyof O & string>(
    owner: O | undefined,
    name: K,
    operation: ApiOperation,
  ) => {
    const method = owner?.[name] as AsyncMethod | undefined;
    if (!owner || typeof method !== "function") return;
    const bound = method.bind(owner);
    (owner as Record<string, unknown>)[name] = (...args: never[]) =>
      timeApi(operation, variant, () => bound(...args));
  };
  timed(surface.charges, "create", "create");
  timed(surface.charges, "retrieve", "retrieve");
  timed(surface.charges, "status", "status");
  timed(surface.charges, "findAfterUnknownOutcome", "find");
  timed(surface.balance, "retrieve", "balance");
  const transactions = surface.transactions;
  if (transactions) {
    const list = transactions.list.bind(transactions);
    transactions.list = (...args) => {
      const walk = list(...args);
      return metricsActive() ? timedPages(walk, variant) : walk;
    };
  }
  return client;
}

/** A page walk whose every page fetch is timed as `list`. */
function timedPages(walk: PageWalk, variant: "a" | "b"): PageWalk {
  return {
    then: (onFulfilled, onRejected) =>
      timeApi("list", variant, async () => walk).then(onFulfilled, onRejected),
    async *pages() {
      const inner = walk.pages();
      for (;;) {
        // Each step fetches one page, except the last, which only says there is none.
        const step = await timeApi(
          "list",
          variant,
          () => inner.next(),
          (s) => !s.done,
        );
        if (step.done) return;
        yield step.value;
      }
    },
    async *[Symbol.asyncIterator]() {
      for await (const page of this.pages()) yield* page.data;
    },
  };
}
