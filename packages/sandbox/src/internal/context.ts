import type { BankCalendar } from "@pix-checkout/client/bank-days";
import type { SandboxClock } from "./clock.js";
import type { Faults } from "./faults.js";
import type { RateLimiter } from "./rate-limiter.js";
import type { SandboxState } from "./state.js";
import type { WebhookDispatcher } from "./webhooks.js";

/** The API shape the sandbox speaks. */
export type Variant = "a" | "b";

/** Lifetimes and delays, in milliseconds; a boleto's in bank business days. */
export interface SandboxTimings {
  pixExpiryMs: number;
  boletoDueDays: number;
  releaseDelayMs: number;
}

/** Everything a route handler needs, passed explicitly instead of living in module globals. */
export interface SandboxContext {
  readonly variant: Variant;
  /** charge.* webhooks name the charge by `uuid` only (SandboxOptions.specLiteralWebhooks). */
  readonly specLiteralWebhooks: boolean;
  /** `http://host:port`, known once the server listens. */
  origin: string;
  readonly clock: SandboxClock;
  readonly state: SandboxState;
  readonly limiter: RateLimiter;
  readonly webhooks: WebhookDispatcher;
  readonly timings: SandboxTimings;
  /** The bank calendar boleto due dates are counted with (SandboxOptions.bankHolidays). */
  readonly calendar: BankCalendar;
  faults: Faults;
  /** Variant B QR PNGs by charge UUID; rebuilt on demand, so not persisted. */
  readonly qrCache: Map<string, Promise<string>>;
  /** Asks for the state to be written to the state file (coalesced; no-op without one). */
  persist(): void;
}
