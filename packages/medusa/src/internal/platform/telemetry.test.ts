import { afterEach, describe, expect, it, vi } from "vitest";
import { context, createNoopMeter, metrics, SpanStatusCode, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import {
  MeterProvider,
  MetricReader,
  type Histogram as HistogramPoint,
  type MetricData,
} from "@opentelemetry/sdk-metrics";
import { timeCalls } from "./client-port";
import {
  annotate,
  inCurrentContext,
  observeDatabase,
  recordCheckLag,
  recordReminder,
  recordWebhookLag,
  TELEMETRY_SCOPE,
  timeApi,
  withSpan,
  type GaugeReading,
} from "./telemetry";

/** Collects on demand, as a test needs (an SDK's periodic reader does the same on a timer). */
class TestReader extends MetricReader {
  protected onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

function registerTracing(): InMemorySpanExporter {
  const exporter = new InMemorySpanExporter();
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(
    new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }),
  );
  return exporter;
}

function registerMetrics(): TestReader {
  const reader = new TestReader();
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
  return reader;
}

async function collect(reader: TestReader): Promise<MetricData[]> {
  const { resourceMetrics } = await reader.collect();
  return resourceMetrics.scopeMetrics
    .filter((scope) => scope.scope.name === TELEMETRY_SCOPE)
    .flatMap((scope) => scope.metrics);
}

const metric = (all: MetricData[], name: string) => all.find((m) => m.descriptor.name === name);

afterEach(() => {
  trace.disable();
  metrics.disable();
  context.disable();
});

describe("with no SDK registered", () => {
  it("runs the work and hands back its result, recording nothing", async () => {
    expect(metrics.getMeter(TELEMETRY_SCOPE)).toBe(createNoopMeter());
    const seen: boolean[] = [];
    const result = await withSpan("pix_checkout.settle", { "pix_checkout.charge_id": "c1" }, () => {
      seen.push(trace.getActiveSpan()?.isRecording() ?? false);
      return Promise.resolve(42);
    });
    expect(result).toBe(42);
    expect(seen).toEqual([false]);
    await expect(timeApi("status", "a", () => Promise.resolve("ok"))).resolves.toBe("ok");
  });

  it("never reads the database for the gauges", async () => {
    const read = vi.fn((): Promise<GaugeReading> =>
      Promise.resolve({ budgets: [], attention: {}, outstanding: { held: 0, owed: 0 } }),
    );
    observeDatabase({}, read);
    recordWebhookLag({ event: "charge.paid", data: { paid_at: new Date().toISOString() } }, "a");
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(read).not.toHaveBeenCalled();
  });
});

describe("spans", () => {
  it("carry the given attributes and those of the result", async () => {
    const exporter = registerTracing();
    await withSpan(
      "pix_checkout.settle",
      { "pix_checkout.charge_id": "ch_1", "pix_checkout.source": "webhook" },
      () => Promise.resolve({ outcome: "processed" }),
      (result) => ({ "pix_checkout.outcome": result.outcome, "pix_checkout.status": null }),
    );
    const [span] = exporter.getFinishedSpans();
    expect(span?.name).toBe("pix_checkout.settle");
    expect(span?.instrumentationScope.name).toBe(TELEMETRY_SCOPE);
    expect(span?.attributes).toEqual({
      "pix_checkout.charge_id": "ch_1",
      "pix_checkout.source": "webhook",
      "pix_checkout.outcome": "processed",
    });
  });

  it("record a failure's exception with its message redacted, set the error status and rethrow", async () => {
    const exporter = registerTracing();
    const failure = Object.assign(
      new Error("401 for key sk_live_abc123 at https://x/hooks?token=whsec-123"),
      { code: "authentication_failed" },
    );
    await expect(withSpan("pix_checkout.capture", {}, () => Promise.reject(failure))).rejects.toBe(
      failure,
    );
    const [span] = exporter.getFinishedSpans();
    expect(span?.status.code).toBe(SpanStatusCode.ERROR);
    expect(span?.attributes["pix_checkout.error_code"]).toBe("authentication_failed");
    const recorded = JSON.stringify({ status: span?.status, events: span?.events });
    expect(recorded).toContain("exception");
    expect(recorded).not.toContain("sk_live_abc123");
    expect(recorded).not.toContain("whsec-123");
  });

  it("started inside another become its children, and annotate reaches the active one", async () => {
    const exporter = registerTracing();
    await withSpan("pix_checkout.webhook", {}, async () => {
      annotate({ "pix_checkout.event": "charge.paid" });
      await withSpan("pix_checkout.settle", {}, () => Promise.resolve());
    });
    const [child, parent] = exporter.getFinishedSpans();
    expect(child?.name).toBe("pix_checkout.settle");
    expect(child?.parentSpanContext?.spanId).toBe(parent?.spanContext().spanId);
    expect(parent?.attributes["pix_checkout.event"]).toBe("charge.paid");
  });

  it("of work queued inside a span and run after it ended stay in its trace", async () => {
    const exporter = registerTracing();
    let queued: (() => Promise<void>) | undefined;
    await withSpan("pix_checkout.webhook", {}, () => {
      queued = inCurrentContext(() => withSpan("pix_checkout.settle", {}, () => Promise.resolve()));
      return Promise.resolve();
    });
    // Run from outside any span, as a busy queue would run it later.
    await context.with(context.active(), () => queued!());
    const [parent, child] = exporter.getFinishedSpans();
    expect(child?.spanContext().traceId).toBe(parent?.spanContext().traceId);
    expect(child?.parentSpanContext?.spanId).toBe(parent?.spanContext().spanId);
  });
});

describe("metrics", () => {
  it("time API calls by operation and code, and count the failures by code", async () => {
    const reader = registerMetrics();
    await timeApi("create", "b", () => Promise.resolve({}));
    const notFound = Object.assign(new Error("no such charge"), { code: "not_found" });
    await expect(timeApi("status", "b", () => Promise.reject(notFound))).rejects.toBe(notFound);
    const all = await collect(reader);
    const duration = metric(all, "pix_checkout.api.duration");
    expect(duration?.descriptor.unit).toBe("s");
    expect(duration?.dataPoints.map((p) => p.attributes)).toEqual([
      {
        "pix_checkout.api.operation": "create",
        "pix_checkout.api.code": "ok",
        "pix_checkout.variant": "b",
      },
      {
        "pix_checkout.api.operation": "status",
        "pix_checkout.api.code": "not_found",
        "pix_checkout.variant": "b",
      },
    ]);
    const errors = metric(all, "pix_checkout.api.errors");
    expect(errors?.dataPoints).toEqual([
      expect.objectContaining({
        value: 1,
        attributes: expect.objectContaining({ "pix_checkout.api.code": "not_found" }),
      }),
    ]);
  });

  it("time a transaction walk once per page fetched, not for its end", async () => {
    const reader = registerMetrics();
    const pages = [{ data: [1, 2] }, { data: [3] }];
    const client = timeCalls(
      {
        charges: {},
        transactions: {
          list: () => ({
            then: (ok: (page: unknown) => unknown) => Promise.resolve(pages[0]).then(ok),
            async *pages() {
              yield* pages;
            },
            async *[Symbol.asyncIterator]() {
              for (const page of pages) yield* page.data;
            },
          }),
        },
      },
      "a",
    );
    const items: unknown[] = [];
    for await (const item of client.transactions.list()) items.push(item);
    expect(items).toEqual([1, 2, 3]);
    const duration = metric(await collect(reader), "pix_checkout.api.duration");
    const point = duration?.dataPoints[0]?.value as HistogramPoint | undefined;
    expect(point?.count).toBe(2);
  });

  it("measure a webhook's lag from the event's own time at the service", async () => {
    const reader = registerMetrics();
    const receivedAt = Date.parse("2026-11-23T12:00:05Z");
    recordWebhookLag(
      { event: "charge.paid", data: { paid_at: "2026-11-23T12:00:02Z" } },
      "a",
      receivedAt,
    );
    recordWebhookLag({ event: "charge.paid", data: {} }, "a", receivedAt);
    const lag = metric(await collect(reader), "pix_checkout.webhook.lag");
    const point = lag?.dataPoints[0];
    expect(lag?.dataPoints).toHaveLength(1);
    expect((point?.value as HistogramPoint).sum).toBe(3);
    expect(point?.attributes).toEqual({
      "pix_checkout.event": "charge.paid",
      "pix_checkout.registration": "a",
    });
  });

  it("measure how late a due check ran", async () => {
    const reader = registerMetrics();
    const now = new Date("2026-11-23T12:00:20Z");
    recordCheckLag({ method: "pix", due_at: new Date("2026-11-23T12:00:05Z") }, now);
    const lag = metric(await collect(reader), "pix_checkout.reconcile.lag");
    expect((lag?.dataPoints[0]?.value as HistogramPoint).sum).toBe(15);
  });

  it("count reminders by step, method and what came of them", async () => {
    const reader = registerMetrics();
    recordReminder("pix_expiring", "pix", "sent");
    recordReminder("pix_expiring", "pix", "sent");
    recordReminder("pix_expired", "pix", "paid");
    const counter = metric(await collect(reader), "pix_checkout.reminders");
    const points = (counter?.dataPoints ?? []).map((p) => [p.attributes, p.value]);
    expect(points).toEqual(
      expect.arrayContaining([
        [
          {
            "pix_checkout.reminder.step": "pix_expiring",
            "pix_checkout.method": "pix",
            "pix_checkout.outcome": "sent",
          },
          2,
        ],
        [
          {
            "pix_checkout.reminder.step": "pix_expired",
            "pix_checkout.method": "pix",
            "pix_checkout.outcome": "paid",
          },
          1,
        ],
      ]),
    );
  });

  it("read the gauges once per collection, by budget", async () => {
    const reader = registerMetrics();
    const read = vi.fn((): Promise<GaugeReading> =>
      Promise.resolve({
        budgets: [{ budget: "api.example.com/v1", used: 12, limit: 60, waiting: 3 }],
        attention: { held: 2, refund_due: 1 },
        outstanding: { held: 1_500, owed: 5_290 },
      }),
    );
    observeDatabase({}, read);
    expect(read).not.toHaveBeenCalled();
    const all = await collect(reader);
    expect(read).toHaveBeenCalledTimes(1);
    const value = (name: string) => metric(all, name)?.dataPoints[0];
    expect(value("pix_checkout.create.slots_used")).toMatchObject({
      value: 12,
      attributes: { "pix_checkout.budget": "api.example.com/v1" },
    });
    expect(value("pix_checkout.create.slots_limit")?.value).toBe(60);
    expect(value("pix_checkout.create.waiting")?.value).toBe(3);
    const attention = metric(all, "pix_checkout.charges.attention")?.dataPoints ?? [];
    expect(
      attention.map((point) => [point.attributes["pix_checkout.attention"], point.value]),
    ).toEqual(
      expect.arrayContaining([
        ["held", 2],
        ["refund_due", 1],
      ]),
    );
    const outstanding = metric(all, "pix_checkout.ledger.outstanding")?.dataPoints ?? [];
    expect(
      outstanding.map((point) => [point.attributes["pix_checkout.part"], point.value]).sort(),
    ).toEqual([
      ["held", 1_500],
      ["owed", 5_290],
    ]);
  });
});
