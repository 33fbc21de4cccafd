// The narrow slice of @pix-checkout/client this plugin uses. The client ships ES module and
// CommonJS builds; the plugin loads the ES module one with a dynamic import() once per process
// (it was ESM-only when this was written, and one copy per process keeps its error classes
// one), and this file keeps that in one place. The types below restate what the plugin uses;
// client-port.test.ts makes the type check fail when they drift from the client's own.
import { Agent } from "undici";
import type { PixCheckoutOptions } from "./options";
import type { ChargeStatus } from "./status";
import type { PluginLogger } from "./logger";

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
  return new PixClient({
    apiKey: options.apiKey,
    baseUrl: options.baseUrl,
    variant: options.variant,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
    ...(logger ? { logger } : {}),
    dispatcher: sharedAgent(),
  });
}
