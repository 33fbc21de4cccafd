import { context, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { keepSecretsOutOfHttpSpans } from "./http-span-redaction";

const TOKEN = "whtok_unit_9f3a7c21b8e4";

describe("keepSecretsOutOfHttpSpans", () => {
  const exporter = new InMemorySpanExporter();
  const tracer = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  }).getTracer("@medusajs/http");

  beforeAll(() => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  });
  afterAll(() => context.disable());
  beforeEach(() => exporter.reset());

  /** What Medusa's instrumentHttpLayer installs: one span per request, URL and headers on it. */
  function medusaStartCommand() {
    return {
      traceRequestHandler: (
        handler: () => Promise<void>,
        req: { url?: string; method?: string; headers?: Record<string, string> },
        _res: unknown,
        handlerPath?: string,
      ) =>
        tracer.startActiveSpan(handlerPath ?? `${req.method} ${req.url}`, async (span) => {
          span.setAttributes({
            "http.route": handlerPath,
            "http.url": req.url,
            "http.method": req.method,
            ...req.headers,
          });
          try {
            await handler();
          } finally {
            span.end();
          }
        }),
    };
  }

  it("rewrites the request span's URL, credential headers and raw-URL name before it ends", async () => {
    const start = medusaStartCommand();
    expect(keepSecretsOutOfHttpSpans(start)).toBe(true);
    const req = {
      url: `/hooks/pix-checkout/a?token=${TOKEN}`,
      method: "POST",
      headers: { authorization: "Bearer abc.def", cookie: "connect.sid=s%3Axyz", host: "store" },
    };
    let seenInside: unknown;
    await start.traceRequestHandler(
      async () => {
        // The route still sees its own request untouched.
        seenInside = req.url;
      },
      req,
      {},
      undefined,
    );
    expect(seenInside).toBe(`/hooks/pix-checkout/a?token=${TOKEN}`);
    const [span] = exporter.getFinishedSpans();
    expect(span!.attributes["http.url"]).toBe("/hooks/pix-checkout/a?token=[redacted]");
    expect(span!.attributes.authorization).toBe("[redacted]");
    expect(span!.attributes.cookie).toBe("[redacted]");
    expect(span!.attributes.host).toBe("store");
    expect(span!.name).toBe("POST /hooks/pix-checkout/a?token=[redacted]");
    expect(JSON.stringify(span!.attributes) + span!.name).not.toContain(TOKEN);
  });

  it("wraps once, and leaves a store without HTTP instrumentation alone", async () => {
    const start = medusaStartCommand();
    keepSecretsOutOfHttpSpans(start);
    const wrapped = start.traceRequestHandler;
    keepSecretsOutOfHttpSpans(start);
    expect(start.traceRequestHandler).toBe(wrapped);
    expect(keepSecretsOutOfHttpSpans({})).toBe(false);
    expect(trace.getActiveSpan()).toBeUndefined();
  });
});
