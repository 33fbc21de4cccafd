import type { Dispatcher } from "undici";
import { ConfigurationError } from "../errors.js";
import type { Clock } from "./clock.js";
import type { Logger } from "./logger.js";

/** Options of `new PixClient(...)`. */
export interface PixClientOptions {
  /** Secret key, `sk_live_...`. Publishable keys (`pk_live_...`) are refused. */
  apiKey: string;
  /** Service base URL ending in `/v1`. https, or http on loopback (127.0.0.1, ::1, localhost). */
  baseUrl: string;
  /** Which description of the API the service follows. */
  variant: "a" | "b";
  /** Per-attempt limit for a complete response, ms. Default 30000. */
  timeoutMs?: number;
  /** Retries after the first attempt, for calls that may be retried. Default 2. */
  maxRetries?: number;
  /** Diagnostics sink; default silent. Every line is redacted. */
  logger?: Logger;
  /** undici dispatcher (Agent, Pool, MockAgent). Default: an Agent of the client's own undici (not the process-wide global one, which Node's fetch may own). */
  dispatcher?: Dispatcher;
  /** Client-side pacing of `POST /charges`. Default 60 per minute, wait as long as needed. */
  createRateLimit?: { perMinute?: number; maxWaitMs?: number };
  /** Time source for pacing and backoff. Tests inject one; production leaves it out. */
  clock?: Clock;
}

/** Options after validation, with defaults filled in. */
export interface ResolvedConfig {
  apiKey: string;
  baseUrl: string;
  variant: "a" | "b";
  timeoutMs: number;
  maxRetries: number;
  perMinute: number;
  maxWaitMs: number | undefined;
}

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]", "localhost"]);

function positiveInt(name: string, value: unknown, allowZero = false): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < (allowZero ? 0 : 1)) {
    throw new ConfigurationError(`${name} must be an integer ${allowZero ? ">= 0" : "> 0"}`);
  }
  return value;
}

function checkApiKey(apiKey: unknown): string {
  if (typeof apiKey !== "string" || apiKey.trim() === "") {
    throw new ConfigurationError("apiKey is required: pass your secret key (sk_live_...)");
  }
  // The messages name the prefix only: the key itself never goes into an error.
  if (apiKey.startsWith("pk_live_") || apiKey.startsWith("pk_")) {
    throw new ConfigurationError(
      "apiKey is a publishable key (pk_live_...); the API accepts only a secret key starting with sk_live_, used on your server only",
    );
  }
  if (!apiKey.startsWith("sk_live_")) {
    throw new ConfigurationError("apiKey must be a secret key starting with sk_live_");
  }
  if (/\s/.test(apiKey)) {
    throw new ConfigurationError("apiKey contains whitespace; copy the secret key again");
  }
  return apiKey;
}

function checkBaseUrl(baseUrl: unknown): string {
  if (typeof baseUrl !== "string") {
    throw new ConfigurationError("baseUrl is required, e.g. https://api.example.com/v1");
  }
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new ConfigurationError(
      "baseUrl is not a valid URL; expected e.g. https://api.example.com/v1",
    );
  }
  if (url.username || url.password) {
    throw new ConfigurationError("baseUrl must not carry credentials; pass the key as apiKey");
  }
  if (url.protocol === "http:" && !LOOPBACK_HOSTS.has(url.hostname)) {
    throw new ConfigurationError(
      "baseUrl must use https: a secret key may cross the network only encrypted (plain http is allowed only for 127.0.0.1, ::1 and localhost)",
    );
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new ConfigurationError("baseUrl must be an https URL");
  }
  if (url.search || url.hash) {
    throw new ConfigurationError("baseUrl must not have a query string or fragment");
  }
  return url.toString().replace(/\/+$/, "");
}

/** Validates constructor options; throws `ConfigurationError` saying what to fix. */
export function resolveConfig(options: PixClientOptions): ResolvedConfig {
  if (options === null || typeof options !== "object") {
    throw new ConfigurationError("PixClient needs an options object { apiKey, baseUrl, variant }");
  }
  const apiKey = checkApiKey(options.apiKey);
  const baseUrl = checkBaseUrl(options.baseUrl);
  if (options.variant !== "a" && options.variant !== "b") {
    throw new ConfigurationError(
      'variant must be "a" (integration guide) or "b" (endpoint reference)',
    );
  }
  const rate = options.createRateLimit ?? {};
  return {
    apiKey,
    baseUrl,
    variant: options.variant,
    timeoutMs: positiveInt("timeoutMs", options.timeoutMs ?? 30_000),
    maxRetries: positiveInt("maxRetries", options.maxRetries ?? 2, true),
    perMinute: positiveInt("createRateLimit.perMinute", rate.perMinute ?? 60),
    maxWaitMs:
      rate.maxWaitMs === undefined
        ? undefined
        : positiveInt("createRateLimit.maxWaitMs", rate.maxWaitMs, true),
  };
}
