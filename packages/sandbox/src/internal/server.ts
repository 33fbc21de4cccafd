import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { bankCalendar } from "@pix-checkout/client/bank-days";
import type { AddressInfo } from "node:net";
import { handleApi } from "./api-routes.js";
import { DEFAULT_KEY, hashKey } from "./auth.js";
import { sweepExpired } from "./charges.js";
import { SandboxClock } from "./clock.js";
import type { SandboxContext, Variant } from "./context.js";
import { handleControl, resetSandbox } from "./control-routes.js";
import { sendEmpty } from "./http.js";
import { handlePage } from "./pages.js";
import { loadState, saveState } from "./persistence.js";
import { RateLimiter } from "./rate-limiter.js";
import { SandboxState } from "./state.js";
import {
  DEFAULT_RETRY_DELAYS_MS,
  DEFAULT_WEBHOOK_TIMEOUT_MS,
  WebhookDispatcher,
  type DeliveryLogEntry,
} from "./webhooks.js";

/** Options of `startSandbox`. */
export interface SandboxOptions {
  /** The API shape: `"a"` (integration guide) or `"b"` (endpoint reference). */
  variant: Variant;
  /** Port to listen on; 0 (default) picks a free one. */
  port?: number;
  /** Address to listen on; default `127.0.0.1`. */
  host?: string;
  /** Active secret keys; default `["sk_live_sandbox_default"]`. */
  keys?: string[];
  /** Where webhook events are POSTed. */
  webhookUrls?: string[];
  /** Persist state to this JSON file, loading it at start if it exists. */
  statePath?: string;
  /** Pix charge lifetime in seconds; default 1800 (30 minutes). */
  pixExpirySeconds?: number;
  /**
   * Boleto lifetime in Brazilian bank business days; default 3. A boleto falls due at the end
   * (23:59:59.999 in São Paulo) of that many business days after it is made.
   */
  boletoDueDays?: number;
  /**
   * Extra bank holidays the boleto due dates skip, on top of the national ones and 31 December:
   * `"YYYY-MM-DD"` for that day only, `"MM-DD"` for that day every year (the Medusa plugin's
   * `calendar.extraHolidays`). Default none. A string that is neither throws at start.
   */
  bankHolidays?: string[];
  /** Delay between payment and release of funds (pending -> available); default 1 day. */
  releaseDelayMs?: number;
  /** Delays between webhook attempts; default 1 s, 5 s, 30 s, 2 min, 10 min. */
  webhookRetryDelaysMs?: number[];
  /** How long a receiver has to answer 2xx; default 5000 ms (the spec's limit). */
  webhookTimeoutMs?: number;
  /**
   * charge.* webhooks carry the charge only as `uuid`, exactly as the spec's payload table
   * lists it, with no Variant B `id`: what a service that follows the contract literally
   * sends. Default false (both fields in Variant B, for convenience).
   */
  specLiteralWebhooks?: boolean;
}

/** The test clock as the programmatic API exposes it. */
export interface SandboxClockControl {
  /** Milliseconds since the epoch, on the sandbox clock. */
  now(): number;
  /** Moves the clock forward and expires charges whose `expires_at` it passes. */
  advance(ms: number): number;
  /** Moves the clock forward to an absolute time. */
  set(epochMs: number): number;
}

/** A running sandbox. */
export interface Sandbox {
  /** `http://127.0.0.1:PORT` */
  readonly url: string;
  /** `http://127.0.0.1:PORT/v1`, the API's `{base_url}`. */
  readonly baseUrl: string;
  /** The documented default key, `sk_live_sandbox_default` (valid unless `keys` replaced it). */
  readonly defaultKey: string;
  readonly variant: Variant;
  readonly port: number;
  readonly clock: SandboxClockControl;
  /** The webhook delivery log, one entry per attempt (same as `GET /__sandbox/webhooks`). */
  deliveries(): readonly DeliveryLogEntry[];
  /** Resolves when no webhook delivery is in flight or scheduled. */
  webhooksIdle(): Promise<void>;
  /** Same as `POST /__sandbox/reset`. */
  reset(): void;
  /** Stops the server, cancels webhook retries, and writes the state file. */
  close(): Promise<void>;
}

const PERSIST_DELAY_MS = 25;
const SWEEP_INTERVAL_MS = 1_000;

/** Starts a sandbox of the payment-collection API on a local port. */
export async function startSandbox(options: SandboxOptions): Promise<Sandbox> {
  if (options.variant !== "a" && options.variant !== "b") {
    throw new Error(`variant must be "a" or "b", not ${JSON.stringify(options.variant)}`);
  }
  const variant = options.variant;
  // Checked before anything starts: a wrong day throws a RangeError naming it.
  const calendar = bankCalendar({ extraHolidays: options.bankHolidays ?? [] });
  const state = new SandboxState();
  const offset =
    options.statePath === undefined ? undefined : loadState(options.statePath, variant, state);
  for (const key of options.keys ?? [DEFAULT_KEY]) {
    const hash = hashKey(key);
    // A state file's key states (disabled, revoked) outlive a restart.
    if (!state.keys.has(hash)) state.keys.set(hash, "active");
  }
  const clock = new SandboxClock(offset ?? 0);

  let persistTimer: NodeJS.Timeout | undefined;
  const writeNow = (): void => {
    if (persistTimer) clearTimeout(persistTimer);
    persistTimer = undefined;
    if (options.statePath !== undefined)
      saveState(options.statePath, variant, state, clock.offsetMs);
  };

  const ctx: SandboxContext = {
    variant,
    specLiteralWebhooks: options.specLiteralWebhooks ?? false,
    origin: "",
    clock,
    state,
    limiter: new RateLimiter(),
    faults: {},
    qrCache: new Map(),
    calendar,
    timings: {
      pixExpiryMs: (options.pixExpirySeconds ?? 1_800) * 1_000,
      boletoDueDays: options.boletoDueDays ?? 3,
      releaseDelayMs: options.releaseDelayMs ?? 86_400_000,
    },
    webhooks: new WebhookDispatcher({
      urls: options.webhookUrls ?? [],
      settings: {
        retryDelaysMs: options.webhookRetryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS,
        timeoutMs: options.webhookTimeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS,
      },
      getFaults: () => ctx.faults,
      now: () => clock.now(),
    }),
    persist() {
      if (options.statePath === undefined || persistTimer) return;
      persistTimer = setTimeout(writeNow, PERSIST_DELAY_MS);
    },
  };

  clock.onChange(() => sweepExpired(ctx));
  const sweeper = setInterval(() => sweepExpired(ctx), SWEEP_INTERVAL_MS);
  sweeper.unref();

  const server = createServer(
    { keepAliveTimeout: 10_000 },
    (req: IncomingMessage, res: ServerResponse) => {
      const target = req.url ?? "/";
      const q = target.indexOf("?");
      const path = q === -1 ? target : target.slice(0, q);
      const search = q === -1 ? "" : target.slice(q + 1);
      if (req.method === "OPTIONS") {
        sendEmpty(res, 204, ctx.limiter.peek(undefined, "createCharge"));
        return;
      }
      if (path === "/v1" || path.startsWith("/v1/")) void handleApi(ctx, req, res, path, search);
      else if (path.startsWith("/__sandbox/")) void handleControl(ctx, req, res, path);
      else void handlePage(ctx, req, res, path);
    },
  );

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  ctx.origin = `http://${host}:${address.port}`;
  // Expire what became due while the sandbox was down.
  sweepExpired(ctx);

  let closed = false;
  return {
    url: ctx.origin,
    baseUrl: `${ctx.origin}/v1`,
    defaultKey: DEFAULT_KEY,
    variant,
    port: address.port,
    clock: {
      now: () => clock.now(),
      advance: (ms) => clock.advance(ms),
      set: (epochMs) => clock.set(epochMs),
    },
    deliveries: () => ctx.webhooks.log,
    webhooksIdle: () => ctx.webhooks.idle(),
    reset: () => resetSandbox(ctx),
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(sweeper);
      ctx.webhooks.close();
      writeNow();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
