import { z } from "zod";
import { WebhookParseError } from "./errors.js";
import { toIssues } from "./internal/adapter.js";

// Payloads as documented in the package README: the spec shows only charge.paid; the rest
// follow the contract agreed with the sandbox. Only what identifies an event is required,
// because a webhook is a hint that verifyWebhook checks against the API anyway.
const timestamp = z.string().min(1);
const customer = z
  .object({ name: z.string().nullish(), email: z.string().nullish() })
  .loose()
  .nullish();

const chargeData = <S extends "paid" | "expired" | "failed">(status: S) =>
  z
    .object({
      /** The charge's UUID, in both variants. */
      uuid: z.string().min(1),
      /** Variant B: the `ch_svc_...` id. */
      id: z.string().min(1).optional(),
      /** Integer cents, in both variants. */
      amount: z.int().nonnegative(),
      status: z.literal(status),
      method: z.enum(["pix", "boleto"]).optional(),
      description: z.string().nullish(),
      customer,
      created_at: timestamp.optional(),
      paid_at: timestamp.optional(),
      expired_at: timestamp.optional(),
      failed_at: timestamp.optional(),
      failure_reason: z.string().nullish(),
    })
    .loose();

const transferData = <S extends "completed" | "failed">(status: S) =>
  z
    .object({
      id: z.string().min(1),
      amount: z.int().nonnegative(),
      status: z.literal(status),
      created_at: timestamp.optional(),
      completed_at: timestamp.optional(),
      failed_at: timestamp.optional(),
      failure_reason: z.string().nullish(),
    })
    .loose();

const webhookSchema = z.discriminatedUnion("event", [
  z.object({ event: z.literal("charge.paid"), data: chargeData("paid") }),
  z.object({ event: z.literal("charge.expired"), data: chargeData("expired") }),
  z.object({ event: z.literal("charge.failed"), data: chargeData("failed") }),
  z.object({ event: z.literal("transfer.completed"), data: transferData("completed") }),
  z.object({ event: z.literal("transfer.failed"), data: transferData("failed") }),
]);

/** One of the five webhook events, validated. `data` keeps the API's field names. */
export type WebhookEvent = z.infer<typeof webhookSchema>;
/** The three charge events. */
export type ChargeWebhookEvent = Extract<WebhookEvent, { event: `charge.${string}` }>;
/** The two transfer (withdrawal) events. */
export type TransferWebhookEvent = Extract<WebhookEvent, { event: `transfer.${string}` }>;
/** Every event name. */
export const WEBHOOK_EVENTS = [
  "charge.paid",
  "charge.expired",
  "charge.failed",
  "transfer.completed",
  "transfer.failed",
] as const;

/** Whether `event` is about a charge (as opposed to a withdrawal). */
export function isChargeEvent(event: WebhookEvent): event is ChargeWebhookEvent {
  return event.event.startsWith("charge.");
}

/**
 * Validates a webhook delivery: the raw body (string or bytes) or an already parsed object.
 * Throws `WebhookParseError` (code `invalid_webhook`) with field issues on anything that is
 * not one of the five events. A parsed event is still only a hint: confirm it with
 * `client.verifyWebhook(event)` before acting, since deliveries carry no signature.
 */
export function parseWebhook(body: unknown): WebhookEvent {
  let value = body;
  if (body instanceof Uint8Array) value = new TextDecoder().decode(body);
  if (typeof value === "string") {
    try {
      value = JSON.parse(value);
    } catch {
      throw new WebhookParseError("Webhook body is not JSON", [
        { path: "(body)", message: "is not JSON" },
      ]);
    }
  }
  const event = (value as { event?: unknown } | null)?.event;
  if (typeof event === "string" && !(WEBHOOK_EVENTS as readonly string[]).includes(event)) {
    throw new WebhookParseError(
      `Unknown webhook event "${event.slice(0, 64)}"; expected one of ${WEBHOOK_EVENTS.join(", ")}`,
      [{ path: "event", message: "is not a known event" }],
    );
  }
  const result = webhookSchema.safeParse(value);
  if (!result.success) {
    const issues = toIssues(result.error);
    throw new WebhookParseError(
      `Webhook body is not a valid event: ${issues
        .slice(0, 3)
        .map((issue) => `${issue.path} ${issue.message}`)
        .join("; ")}`,
      issues,
    );
  }
  return result.data;
}
