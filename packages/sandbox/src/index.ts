/**
 * `@pix-checkout/sandbox`: a local, stateful emulator of the payment-collection API (both
 * variants of the spec), with webhooks, a test clock, control routes and fault injection.
 *
 * @example
 * ```ts
 * const sandbox = await startSandbox({ variant: "b" });
 * // point your client at sandbox.baseUrl with sandbox.defaultKey
 * await sandbox.close();
 * ```
 */
export { startSandbox } from "./internal/server.js";
export type { Sandbox, SandboxClockControl, SandboxOptions } from "./internal/server.js";
export type { Variant } from "./internal/context.js";
export type { DeliveryLogEntry, WebhookEnvelope, WebhookEventKind } from "./internal/webhooks.js";
export { DEFAULT_KEY } from "./internal/auth.js";
