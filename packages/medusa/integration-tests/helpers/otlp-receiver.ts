import http from "node:http";
import type net from "node:net";
import { gunzipSync } from "node:zlib";

/** What an OTLP/HTTP exporter sent: the raw JSON bodies, as they left the store. */
export interface OtlpReceiver {
  url: string;
  /** Raw bodies of `POST /v1/traces`. */
  traces: string[];
  /** Raw bodies of `POST /v1/metrics`. */
  metrics: string[];
  close(): Promise<void>;
}

/**
 * A loopback OTLP/HTTP receiver (the JSON encoding `@opentelemetry/exporter-*-otlp-http` sends),
 * standing in for a collector: it keeps each body as received and answers with an empty success.
 */
export function startOtlpReceiver(): Promise<OtlpReceiver> {
  const traces: string[] = [];
  const metrics: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      let body = Buffer.concat(chunks);
      if (req.headers["content-encoding"] === "gzip") body = gunzipSync(body);
      if (req.url === "/v1/traces") traces.push(body.toString("utf8"));
      else if (req.url === "/v1/metrics") metrics.push(body.toString("utf8"));
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        traces,
        metrics,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}

interface OtlpAttribute {
  key: string;
  value: Record<string, unknown>;
}

/** An exported span, flattened: its scope, name and string attributes. */
export interface ExportedSpan {
  scope: string;
  name: string;
  traceId: string;
  attributes: Record<string, unknown>;
}

const valueOf = (value: Record<string, unknown>): unknown =>
  value.stringValue ?? value.intValue ?? value.doubleValue ?? value.boolValue ?? value;

/** The spans of every traces body received so far. */
export function exportedSpans(bodies: string[]): ExportedSpan[] {
  const out: ExportedSpan[] = [];
  for (const body of bodies) {
    const parsed = JSON.parse(body) as {
      resourceSpans: {
        scopeSpans: {
          scope: { name: string };
          spans: { name: string; traceId: string; attributes?: OtlpAttribute[] }[];
        }[];
      }[];
    };
    for (const resource of parsed.resourceSpans ?? []) {
      for (const scope of resource.scopeSpans ?? []) {
        for (const span of scope.spans ?? []) {
          out.push({
            scope: scope.scope.name,
            name: span.name,
            traceId: span.traceId,
            attributes: Object.fromEntries(
              (span.attributes ?? []).map((a) => [a.key, valueOf(a.value)]),
            ),
          });
        }
      }
    }
  }
  return out;
}

/** The metric names of every metrics body received so far, by instrumentation scope. */
export function exportedMetricNames(bodies: string[], scope: string): Set<string> {
  const names = new Set<string>();
  for (const body of bodies) {
    const parsed = JSON.parse(body) as {
      resourceMetrics: {
        scopeMetrics: { scope: { name: string }; metrics: { name: string }[] }[];
      }[];
    };
    for (const resource of parsed.resourceMetrics ?? []) {
      for (const s of resource.scopeMetrics ?? []) {
        if (s.scope.name === scope) for (const m of s.metrics ?? []) names.add(m.name);
      }
    }
  }
  return names;
}
