// The plugin's OpenTelemetry signals: its spans, its instruments and the attributes they may
// carry. Only `@opentelemetry/api` is used, so the signals go wherever the merchant's SDK
// (Medusa's `registerOtel` in instrumentation.ts) sends Medusa's own; with no SDK registered
// every call here is the API's no-op, and the gauges never read the database.
import {
  context,
  createNoopMeter,
  metrics,
  ProxyTracerProvider,
  SpanStatusCode,
  trace,
  type Attributes,
  type BatchObservableResult,
  type Counter,
  type Histogram,
  type MeterProvider,
  type ObservableGauge,
  type Span,
  type Tracer,
  type TracerProvider,
} from "@opentelemetry/api";
import { redact } from "@pix-checkout/client";

/** Tracer and meter name (the instrumentation scope backends group the signals by). */
export const TELEMETRY_SCOPE = "@pix-checkout/medusa";

/** The plugin's span names. */
export type SpanName =
  | "pix_checkout.create"
  | "pix_checkout.webhook"
  | "pix_checkout.settle"
  | "pix_checkout.capture"
  | "pix_checkout.reconcile";

/**
 * Every attribute the plugin may put on a span or a metric point. The keys are a closed list so
 * that nothing else can reach an exporter: there is no key for a payer's document, name or
 * e-mail, an API key or a webhook token, and a call site that tries one does not compile.
 */
export interface TelemetryAttributes {
  "pix_checkout.charge_id"?: string | null;
  "pix_checkout.session_id"?: string | null;
  /** Medusa's provider id, `pp_pix_<id>` or `pp_boleto_<id>`. */
  "pix_checkout.provider_id"?: string | null;
  /** The registration id in medusa-config (the webhook URL's last segment). */
  "pix_checkout.registration"?: string | null;
  "pix_checkout.method"?: "pix" | "boleto" | null;
  "pix_checkout.variant"?: "a" | "b" | null;
  /** What the operation came to (`processed`, `duplicate`, `created`, `stored`...). */
  "pix_checkout.outcome"?: string | null;
  /** Who asked: `webhook`, `reconcile`, `refresh`, `provider`... */
  "pix_checkout.source"?: string | null;
  /** The charge's status as the API reports it. */
  "pix_checkout.status"?: string | null;
  "pix_checkout.event"?: string | null;
  "pix_checkout.delivery_id"?: string | null;
  "pix_checkout.create_request_id"?: string | null;
  /** Time the create waited in the create line before it was sent. */
  "pix_checkout.create.line_wait_ms"?: number | null;
  "pix_checkout.captured_by"?: string | null;
  /** The API error's `code` (spec), or `error` for a failure without one. */
  "pix_checkout.error_code"?: string | null;
  "pix_checkout.reconcile.checked"?: number;
  "pix_checkout.reconcile.settled"?: number;
  "pix_checkout.reconcile.deliveries_retried"?: number;
  "pix_checkout.reconcile.carts_completed"?: number;
  "pix_checkout.reconcile.follow_ups"?: number;
  "pix_checkout.reconcile.canceled_orders"?: number;
  "pix_checkout.reconcile.failed_create_orders"?: number;
  "pix_checkout.reconcile.errors"?: number;
  "pix_checkout.api.operation"?: ApiOperation;
  /** `ok`, or the API error's `code`. */
  "pix_checkout.api.code"?: string;
  /** A reminder's step (checkout/reminder-cadence.ts), with its outcome: `sent` or why it was not. */
  "pix_checkout.reminder.step"?: string;
  /** The create budget: the service's host and path (see create-line.ts `budgetKeyOf`). */
  "pix_checkout.budget"?: string;
}

/** The client calls the plugin times. */
export type ApiOperation =
  "create" | "retrieve" | "status" | "find" | "list" | "verify_webhook" | "balance";

function clean(attributes: TelemetryAttributes): Attributes {
  const out: Attributes = {};
  for (const [key, value] of Object.entries(attributes)) {
    if (value !== undefined && value !== null) out[key] = value as string | number | boolean;
  }
  return out;
}

let tracerProvider: TracerProvider | undefined;
let tracer: Tracer | undefined;

/**
 * The registered SDK's tracer, or undefined when none is registered. The API's own provider is
 * a proxy that forwards once an SDK registers; asking it for its delegate instead of a tracer
 * lets `withSpan` skip even the no-op span (about 0.7 µs a call) until one does.
 */
function currentTracer(): Tracer | undefined {
  const provider = trace.getTracerProvider();
  if (provider === tracerProvider && tracer) return tracer;
  tracerProvider = provider;
  tracer =
    provider instanceof ProxyTracerProvider
      ? provider.getDelegateTracer(TELEMETRY_SCOPE)
      : provider.getTracer(TELEMETRY_SCOPE);
  return tracer;
}

/**
 * Runs `fn` inside a span: the span is the active one for everything `fn` starts (Medusa's
 * workflow and query spans, the plugin's own), ends when `fn` settles, and on a failure
 * records the exception, redacted, and the error status. `describe` adds attributes from the
 * result; it only runs when the span is recorded. With no SDK registered it is `fn()`.
 */
export function withSpan<T>(
  name: SpanName,
  attributes: TelemetryAttributes,
  fn: () => Promise<T>,
  describe?: (result: T) => TelemetryAttributes,
): Promise<T> {
  const current = currentTracer();
  if (!current) return fn();
  return current.startActiveSpan(name, async (span) => {
    const recording = span.isRecording();
    if (recording) span.setAttributes(clean(attributes));
    try {
      const result = await fn();
      if (recording && describe) span.setAttributes(clean(describe(result)));
      return result;
    } catch (error) {
      if (recording) recordFailure(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/** Adds attributes to the active span (what a span learns halfway: the charge, the event). */
export function annotate(attributes: TelemetryAttributes): void {
  const span = trace.getActiveSpan();
  if (span?.isRecording()) span.setAttributes(clean(attributes));
}

/**
 * `fn` bound to the active span, for work queued now and run later (the webhook's verification
 * after its 200): its spans then belong to the delivery's trace, not to whatever ran before.
 */
export function inCurrentContext<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
  return context.bind(context.active(), fn);
}

/** The spec's error `code` of a failure, or `error`; bounded, so it can be a metric label. */
export function errorCodeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && /^[a-z][a-z0-9_]{0,63}$/.test(code) ? code : "error";
}

function recordFailure(span: Span, error: unknown): void {
  const err = error as { name?: unknown; message?: unknown; stack?: unknown } | null;
  const message = redact(String(err?.message ?? error));
  const code = errorCodeOf(error);
  span.recordException({
    name: typeof err?.name === "string" ? err.name : "Error",
    message,
    code,
    ...(typeof err?.stack === "string" ? { stack: redact(err.stack) } : {}),
  });
  span.setStatus({ code: SpanStatusCode.ERROR, message });
  span.setAttribute("pix_checkout.error_code", code);
}

// Buckets in seconds: the SDK's default ones are made for milliseconds.
const API_BUCKETS_S = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const LAG_BUCKETS_S = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 30, 60, 120, 300, 900, 3600];

/** One create budget's use, as the create line reads it. */
export interface BudgetReading {
  budget: string;
  /** Slots taken in the last minute (sent, or answered less than a minute ago). */
  used: number;
  limit: number;
  /** Requests waiting in line. */
  waiting: number;
}

/** What the observable gauges report; read only when a collection asks. */
export interface GaugeReading {
  budgets: BudgetReading[];
  /**
   * Charges that need the merchant, by what they need (records/attention.ts `Attention`: held,
   * refund_due, no_order, not_captured, note).
   */
  attention: Record<string, number>;
  /** The ledger's money owed back and held, in integer cents (records/ledger.ts). */
  outstanding: { held: number; owed: number };
}

interface Instruments {
  webhookLag: Histogram;
  captureLag: Histogram;
  reconcileLag: Histogram;
  lineWait: Histogram;
  apiDuration: Histogram;
  apiErrors: Counter;
  reminders: Counter;
}

let meterProvider: MeterProvider | undefined;
let instruments: Instruments | null = null;
const gaugeSources = new Map<object, () => Promise<GaugeReading>>();

/**
 * The instruments of the registered meter provider, or null when none is (the API's no-op
 * meter): callers then skip even reading the clock. Made again when the provider changes, since
 * the API, unlike traces, gives meters no proxy that would follow a provider registered later.
 */
function currentInstruments(): Instruments | null {
  const provider = metrics.getMeterProvider();
  if (provider === meterProvider) return instruments;
  meterProvider = provider;
  const meter = provider.getMeter(TELEMETRY_SCOPE);
  if (meter === createNoopMeter()) {
    instruments = null;
    return null;
  }
  const lag = (name: string, description: string) =>
    meter.createHistogram(name, {
      description,
      unit: "s",
      advice: { explicitBucketBoundaries: LAG_BUCKETS_S },
    });
  instruments = {
    webhookLag: lag(
      "pix_checkout.webhook.lag",
      "From the event's time at the payment service (paid_at, expired_at...) to the delivery's arrival.",
    ),
    captureLag: lag(
      "pix_checkout.capture.lag",
      "From the charge recorded paid to its payment captured in Medusa.",
    ),
    reconcileLag: lag(
      "pix_checkout.reconcile.lag",
      "How late reconciliation asked about a charge after its check was due (next_check_at).",
    ),
    lineWait: lag(
      "pix_checkout.create.line_wait",
      "How long a charge create waited in the create line for a slot of the budget before it was sent.",
    ),
    apiDuration: meter.createHistogram("pix_checkout.api.duration", {
      description: "Payment API calls as the plugin makes them (the client's retries included).",
      unit: "s",
      advice: { explicitBucketBoundaries: API_BUCKETS_S },
    }),
    apiErrors: meter.createCounter("pix_checkout.api.errors", {
      description: "Payment API calls that failed, by the error's code.",
      unit: "{error}",
    }),
    reminders: meter.createCounter("pix_checkout.reminders", {
      description:
        "Reminders about unpaid codes that fell due, by step and what came of them (sent, or why not).",
      unit: "{reminder}",
    }),
  };
  const gauges = {
    used: meter.createObservableGauge("pix_checkout.create.slots_used", {
      description: "Create slots of the budget taken in the last minute.",
      unit: "{slot}",
    }),
    limit: meter.createObservableGauge("pix_checkout.create.slots_limit", {
      description: "Creates the budget allows per minute.",
      unit: "{slot}",
    }),
    waiting: meter.createObservableGauge("pix_checkout.create.waiting", {
      description: "Creates waiting in the create line.",
      unit: "{request}",
    }),
    attention: meter.createObservableGauge("pix_checkout.charges.attention", {
      description:
        "Charges that need the merchant, by what their money needs (held, refund_due, no_order, not_captured) or an open note.",
      unit: "{charge}",
    }),
    outstanding: meter.createObservableGauge("pix_checkout.ledger.outstanding", {
      description:
        "Money the ledger holds that is not the store's yet, in cents: owed back to shoppers, or held (underpaid, or being captured).",
      unit: "{cent}",
    }),
  };
  meter.addBatchObservableCallback(
    (result) => observeGauges(result, gauges),
    Object.values(gauges),
  );
  return instruments;
}

/** Whether a meter provider is registered (the plugin's metrics are recorded). */
export function metricsActive(): boolean {
  return currentInstruments() !== null;
}

async function observeGauges(
  result: BatchObservableResult,
  gauges: Record<"used" | "limit" | "waiting" | "attention" | "outstanding", ObservableGauge>,
): Promise<void> {
  // One database per process in practice; several (tests) would report the same names.
  for (const read of gaugeSources.values()) {
    const reading = await read().catch(() => undefined);
    if (!reading) continue;
    for (const budget of reading.budgets) {
      const attributes = { "pix_checkout.budget": budget.budget };
      result.observe(gauges.used, budget.used, attributes);
      result.observe(gauges.limit, budget.limit, attributes);
      result.observe(gauges.waiting, budget.waiting, attributes);
    }
    for (const [kind, count] of Object.entries(reading.attention)) {
      result.observe(gauges.attention, count, { "pix_checkout.attention": kind });
    }
    for (const [part, cents] of Object.entries(reading.outstanding)) {
      result.observe(gauges.outstanding, cents, { "pix_checkout.part": part });
    }
  }
}

/**
 * Gives the gauges their reading for one database (called where a context is built; repeated
 * calls are free). `read` runs only when a registered SDK collects.
 */
export function observeDatabase(key: object, read: () => Promise<GaugeReading>): void {
  if (!gaugeSources.has(key)) gaugeSources.set(key, read);
  // A provider registered since the last signal gets its gauges now, not at the next payment.
  currentInstruments();
}

const seconds = (ms: number) => Math.max(0, ms) / 1000;
const time = (value: Date | string | null | undefined): number | undefined => {
  if (value === null || value === undefined) return undefined;
  const ms = new Date(value).getTime();
  return Number.isNaN(ms) ? undefined : ms;
};

/** Where each event's body says when it happened at the service. */
const EVENT_TIME_FIELDS: Record<string, string> = {
  "charge.paid": "paid_at",
  "charge.expired": "expired_at",
  "charge.failed": "failed_at",
  "transfer.completed": "completed_at",
  "transfer.failed": "failed_at",
};

/** A webhook arrived: how long after the service's event (when the body says when). */
export function recordWebhookLag(
  event: { event: string; data: Record<string, unknown> },
  registration: string,
  receivedAt = Date.now(),
): void {
  const m = currentInstruments();
  if (!m) return;
  const field = EVENT_TIME_FIELDS[event.event];
  const at = field ? time(event.data[field] as string | undefined) : undefined;
  if (at === undefined) return;
  m.webhookLag.record(seconds(receivedAt - at), {
    "pix_checkout.event": event.event,
    "pix_checkout.registration": registration,
  });
}

/** A paid charge's capture was confirmed: how long after it was recorded paid. */
export function recordCaptureLag(
  row: { paid_at: Date | string | null; method: "pix" | "boleto" },
  source: string,
  capturedBy: string,
): void {
  const m = currentInstruments();
  const paidAt = m ? time(row.paid_at) : undefined;
  if (!m || paidAt === undefined) return;
  m.captureLag.record(seconds(Date.now() - paidAt), {
    "pix_checkout.method": row.method,
    "pix_checkout.source": source,
    "pix_checkout.captured_by": capturedBy,
  });
}

/** Reconciliation took a due check: how late after its `next_check_at`. */
export function recordCheckLag(
  row: { method: "pix" | "boleto"; due_at?: Date | string | null },
  now: Date,
): void {
  const m = currentInstruments();
  const dueAt = m ? time(row.due_at) : undefined;
  if (!m || dueAt === undefined) return;
  m.reconcileLag.record(seconds(now.getTime() - dueAt), { "pix_checkout.method": row.method });
}

/** A reminder fell due: `outcome` is `sent`, `deferred` or the reason it was skipped. */
export function recordReminder(step: string, method: "pix" | "boleto", outcome: string): void {
  currentInstruments()?.reminders.add(1, {
    "pix_checkout.reminder.step": step,
    "pix_checkout.method": method,
    "pix_checkout.outcome": outcome,
  });
}

/** A create left the create line: how long it waited for its slot (0 when one was free). */
export function recordLineWait(waitedMs: number, method: "pix" | "boleto"): void {
  currentInstruments()?.lineWait.record(seconds(waitedMs), { "pix_checkout.method": method });
}

/**
 * Times one API call. With no meter provider registered it is the bare call: not even the
 * clock is read.
 */
export function timeApi<T>(
  operation: ApiOperation,
  variant: "a" | "b",
  call: () => Promise<T>,
  /** Whether the result came from a request at all (a page walk's end makes none). */
  sent: (result: T) => boolean = () => true,
): Promise<T> {
  const m = currentInstruments();
  return m ? timed(m, operation, variant, call, sent) : call();
}

async function timed<T>(
  m: Instruments,
  operation: ApiOperation,
  variant: "a" | "b",
  call: () => Promise<T>,
  sent: (result: T) => boolean,
): Promise<T> {
  const started = performance.now();
  let code = "ok";
  try {
    const result = await call();
    if (!sent(result)) code = "";
    return result;
  } catch (error) {
    code = errorCodeOf(error);
    m.apiErrors.add(1, {
      "pix_checkout.api.operation": operation,
      "pix_checkout.api.code": code,
      "pix_checkout.variant": variant,
    });
    throw error;
  } finally {
    if (code)
      m.apiDuration.record((performance.now() - started) / 1000, {
        "pix_checkout.api.operation": operation,
        "pix_checkout.api.code": code,
        "pix_checkout.variant": variant,
      });
  }
}

/** The attributes a charge row gives every span about it. */
export function chargeAttributes(row: {
  charge_id: string;
  session_id: string;
  provider_id: string;
  method: "pix" | "boleto";
  variant: "a" | "b";
}): TelemetryAttributes {
  return {
    "pix_checkout.charge_id": row.charge_id,
    "pix_checkout.session_id": row.session_id,
    "pix_checkout.provider_id": row.provider_id,
    "pix_checkout.method": row.method,
    "pix_checkout.variant": row.variant,
  };
}

/** A reconciliation pass's report, as its span's attributes. */
export function reportAttributes(report: {
  checked: number;
  settled: number;
  deliveriesRetried: number;
  cartsCompleted: number;
  followUps: number;
  canceledOrders: number;
  failedCreateOrders: number;
  errors: number;
}): TelemetryAttributes {
  return {
    "pix_checkout.reconcile.checked": report.checked,
    "pix_checkout.reconcile.settled": report.settled,
    "pix_checkout.reconcile.deliveries_retried": report.deliveriesRetried,
    "pix_checkout.reconcile.carts_completed": report.cartsCompleted,
    "pix_checkout.reconcile.follow_ups": report.followUps,
    "pix_checkout.reconcile.canceled_orders": report.canceledOrders,
    "pix_checkout.reconcile.failed_create_orders": report.failedCreateOrders,
    "pix_checkout.reconcile.errors": report.errors,
  };
}
