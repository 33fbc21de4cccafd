import { context, metrics, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from "@opentelemetry/sdk-trace-base";
import { MeterProvider, MetricReader, type MetricData } from "@opentelemetry/sdk-metrics";

/** Collects when the test asks, as an SDK's periodic reader does on its timer. */
class OnDemandReader extends MetricReader {
  protected onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/** What a merchant's SDK would receive, kept in memory. */
export interface TestTelemetry {
  /** The plugin's finished spans (scope `@pix-checkout/medusa`). */
  spans(): ReadableSpan[];
  /** One collection of the plugin's metrics. */
  collect(): Promise<MetricData[]>;
}

/**
 * Registers in-memory trace and metric providers as the process's global ones, as
 * `registerOtel` in a store's instrumentation.ts does with real exporters: the plugin, built
 * and loaded by Medusa, reaches them through `@opentelemetry/api` alone.
 */
export function registerTestTelemetry(scope = "@pix-checkout/medusa"): TestTelemetry {
  const exporter = new InMemorySpanExporter();
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(
    new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }),
  );
  const reader = new OnDemandReader();
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
  return {
    spans: () => exporter.getFinishedSpans().filter((s) => s.instrumentationScope.name === scope),
    async collect() {
      const { resourceMetrics } = await reader.collect();
      return resourceMetrics.scopeMetrics
        .filter((s) => s.scope.name === scope)
        .flatMap((s) => s.metrics);
    },
  };
}
