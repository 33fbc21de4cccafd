import type { Clock } from "./clock.js";
import type { VariantAdapter } from "./adapter.js";
import type { Logger } from "./logger.js";
import type { SlidingWindowLimiter } from "./rate-limiter.js";
import type { Transport } from "./transport.js";

/** What resources share. Holds no key: the key lives only inside the transport. */
export interface ClientContext {
  variant: "a" | "b";
  transport: Transport;
  adapter: VariantAdapter;
  clock: Clock;
  logger: Logger;
  createLimiter: SlidingWindowLimiter;
  withdrawalLimiter: SlidingWindowLimiter;
  maxWaitMs: number | undefined;
}
