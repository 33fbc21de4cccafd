import { context, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { keepSecretsOutOfHttpSpans } from "./http-span-redaction";

const TOKEN = "whtok_unit_9f3a7c21b8e4";
const LINK_TOKEN = "Zq8_x-Yw7vUt6sRr5qPp4oNn3mMl2kKj";

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

  it("scrubs a recovery link's token from the path, and from a server span opened around Medusa's", async () => {
    const start = medusaStartCommand();
    keepSecretsOutOfHttpSpans(start);
    const link = `/pix-checkout/recovery/${LINK_TOKEN}`;
    const req = { url: link, method: "GET", headers: { host: "store" } };
    // What an HttpInstrumentation the merchant adds does: its own span, active around Medusa's.
    await tracer.startActiveSpan("GET", async (server) => {
      server.setAttributes({
        "url.full": `http://store${link}`,
        "url.path": link,
        "http.target": link,
      });
      await start.traceRequestHandler(async () => undefined, req, {}, undefined);
      server.end();
    });
    const spans = exporter.getFinishedSpans();
    expect(spans).toHaveLength(2);
    const medusa = spans.find((s) => s.name !== "GET")!;
    const server = spans.find((s) => s.name === "GET")!;
    expect(medusa.attributes["http.url"]).toBe("/pix-checkout/recovery/[redacted]");
    expect(medusa.name).toBe("GET /pix-checkout/recovery/[redacted]");
    expect(server.attributes["url.full"]).toBe("http://store/pix-checkout/recovery/[redacted]");
    expect(server.attributes["url.path"]).toBe("/pix-checkout/recovery/[redacted]");
    expect(server.attributes["http.target"]).toBe("/pix-checkout/recovery/[redacted]");
    for (const span of spans) {
      expect(JSON.stringify(span.attributes) + span.name).not.toContain(LINK_TOKEN);
    }
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
