import { Agent, type Dispatcher } from "undici";

// Not undici's process-wide global dispatcher: Node's built-in fetch installs its own bundled,
// older undici there, whose `dispatch` rejects our handler (UND_ERR_INVALID_ARG). Servers such
// as Medusa call fetch before us, so the default is an Agent of the undici we were built with.
let defaultAgent: Agent | undefined;
function ownAgent(): Agent {
  defaultAgent ??= new Agent();
  return defaultAgent;
}

/** Why an exchange failed, as the transport needs to know it. */
export class ExchangeError extends Error {
  /** `timeout`: our deadline; `aborted`: the caller's signal; `network`: anything undici reported. */
  readonly kind: "timeout" | "aborted" | "network";

  constructor(kind: "timeout" | "aborted" | "network", cause?: unknown) {
    super(kind, cause === undefined ? undefined : { cause });
    this.kind = kind;
  }
}

/** What one exchange produced: a complete response. */
export interface ExchangeResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** One request, as the transport describes it. */
export interface ExchangeRequest {
  dispatcher: Dispatcher | undefined;
  origin: string;
  /** Path and query, starting with `/`. */
  path: string;
  method: "GET" | "POST";
  headers: Record<string, string>;
  body: string | undefined;
  timeoutMs: number;
  signal: AbortSignal | undefined;
}

/**
 * Sends one request and reads the whole body, within `timeoutMs` from start to last byte.
 *
 * Built on `Dispatcher.dispatch` rather than `request()`: the dispatch controller aborts the
 * request for real (the socket is released, nothing keeps running after a timeout) without an
 * AbortSignal per call, whose plumbing cost more than the rest of the client together (see
 * bench/overhead.mjs), and the body is collected as buffers instead of through a stream.
 */
export function exchange(req: ExchangeRequest): Promise<ExchangeResult> {
  return new Promise<ExchangeResult>((resolve, reject) => {
    let controller: Dispatcher.DispatchController | undefined;
    let pendingAbort: Error | undefined;
    let settled = false;
    let status = 0;
    let headers: Record<string, string | string[] | undefined> = {};
    let chunks: Buffer[] = [];

    const settle = (error: ExchangeError | undefined, result?: ExchangeResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.signal?.removeEventListener("abort", onCallerAbort);
      if (error) reject(error);
      else resolve(result as ExchangeResult);
    };
    const abort = (error: ExchangeError): void => {
      if (controller) {
        if (!controller.aborted) controller.abort(error);
      } else {
        pendingAbort = error;
      }
      settle(error);
    };
    const onCallerAbort = (): void => abort(new ExchangeError("aborted", req.signal?.reason));
    const timer = setTimeout(() => abort(new ExchangeError("timeout")), req.timeoutMs);
    req.signal?.addEventListener("abort", onCallerAbort, { once: true });

    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(ctrl) {
        controller = ctrl;
        if (pendingAbort) ctrl.abort(pendingAbort);
      },
      onResponseStart(_ctrl, statusCode, responseHeaders) {
        // 1xx answers come before the real one; keep only the last.
        status = statusCode;
        headers = responseHeaders as Record<string, string | string[] | undefined>;
        chunks = [];
      },
      onResponseData(_ctrl, chunk) {
        chunks.push(chunk);
      },
      onResponseEnd() {
        const text =
          chunks.length === 1
            ? (chunks[0] as Buffer).toString("utf8")
            : Buffer.concat(chunks).toString("utf8");
        settle(undefined, { status, headers, text });
      },
      onResponseError(_ctrl, error) {
        settle(error instanceof ExchangeError ? error : new ExchangeError("network", error));
      },
    };

    try {
      (req.dispatcher ?? ownAgent()).dispatch(
        {
          origin: req.origin,
          path: req.path,
          method: req.method,
          headers: req.headers,
          body: req.body ?? null,
          // Backstops with the same limit, so undici's own timers agree with ours.
          headersTimeout: req.timeoutMs,
          bodyTimeout: req.timeoutMs,
        },
        handler,
      );
    } catch (error) {
      settle(new ExchangeError("network", error));
    }
  });
}
