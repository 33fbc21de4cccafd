// Medusa's HTTP instrumentation (`registerOtel` with `instrument: { http: true }`) opens one span
// per request before any route or middleware runs, and copies the raw URL (`http.url`) and every
// request header onto it. For the webhook route that URL carries `?token=<webhookSecret>`, so the
// secret would go to whatever tracing backend the merchant exports to. Middlewares and routes run
// inside child spans and cannot reach that first span, and a span processor cannot be added to an
// SDK once registered; the one place that sees it is the request handler Medusa traces with, so
// the plugin wraps it and scrubs the span at its start, before anything can end or export it.
// The same URL carries a reminder link's token as a path segment (`/pix-checkout/recovery/<t>`),
// which `redact` knows too. An `HttpInstrumentation` the merchant adds opens its own span
// around Medusa's (with `url.full`, `url.path`, `http.target`...): it is the active span when
// Medusa's handler is called, so the wrapper scrubs it there as well.
import { trace, type Span } from "@opentelemetry/api";
import { redact, redactValue } from "@pix-checkout/client";

type TraceRequestHandler = (
  handler: () => Promise<void>,
  req: { url?: string; method?: string },
  res: unknown,
  handlerPath?: string,
) => Promise<void>;

interface StartCommand {
  traceRequestHandler?: TraceRequestHandler;
}

const WRAPPED = Symbol.for("@pix-checkout/medusa.http-span-redaction");

/** `url.query` holds the query without its `?`, which the URL pattern needs to see a parameter. */
function redactAttribute(key: string, value: string): string {
  if (key === "url.query") return redact(`?${value}`).slice(1);
  return redact(value);
}

/**
 * Overwrites every attribute of `span` that carries a URL token, an API key or a credential
 * header, and its name when it is the raw URL. Reads the attributes where the SDK keeps them
 * (`ReadableSpan.attributes`); an SDK that hides them still gets `http.url` rewritten from the
 * request itself.
 */
export function scrubHttpSpan(span: Span, req: { url?: string; method?: string }): void {
  if (!span.isRecording()) return;
  const readable = span as Span & { attributes?: Record<string, unknown>; name?: string };
  const attributes = readable.attributes ?? {};
  const blanked = redactValue(attributes) as Record<string, unknown>;
  for (const [key, value] of Object.entries(attributes)) {
    if (typeof value === "string") {
      const clean = blanked[key] === "[redacted]" ? "[redacted]" : redactAttribute(key, value);
      if (clean !== value) span.setAttribute(key, clean);
    } else if (Array.isArray(value) && blanked[key] === "[redacted]") {
      span.setAttribute(key, "[redacted]");
    }
  }
  if (typeof req.url === "string" && !("http.url" in attributes)) {
    const url = redact(req.url);
    if (url !== req.url) span.setAttribute("http.url", url);
  }
  if (typeof readable.name === "string") {
    const name = redact(readable.name);
    if (name !== readable.name) span.updateName(name);
  }
}

/**
 * Wraps Medusa's traced request handler, once per process, so that every HTTP span it opens is
 * scrubbed as it starts. Without HTTP instrumentation there is nothing to wrap and nothing
 * happens. Returns whether the wrapper is in place.
 */
export function keepSecretsOutOfHttpSpans(
  startCommand: StartCommand = loadStartCommand(),
): boolean {
  const current = startCommand.traceRequestHandler;
  if (typeof current !== "function") return false;
  if ((current as unknown as Record<symbol, boolean>)[WRAPPED]) return true;
  const wrapped: TraceRequestHandler = (handler, req, res, handlerPath) => {
    // A span opened around Medusa's, by instrumentation of the HTTP server itself, if any.
    const outer = trace.getActiveSpan();
    if (outer) scrubHttpSpan(outer, req);
    return current(
      () => {
        // Runs inside the span Medusa just started for this request: it is the active one.
        const span = trace.getActiveSpan();
        if (span) scrubHttpSpan(span, req);
        return handler();
      },
      req,
      res,
      handlerPath,
    );
  };
  Object.defineProperty(wrapped, WRAPPED, { value: true });
  startCommand.traceRequestHandler = wrapped;
  return true;
}

function loadStartCommand(): StartCommand {
  try {
    // The module whose `traceRequestHandler` Medusa's registerOtel sets and `medusa start` reads
    // on every request (a public subpath of @medusajs/medusa).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require("@medusajs/medusa/commands/start") as StartCommand;
  } catch {
    return {};
  }
}
