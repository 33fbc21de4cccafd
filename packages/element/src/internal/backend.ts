import type { CheckoutSession } from "../session.js";
import { BackendError } from "./backend-error.js";
import { parseSession } from "./parse-session.js";
import { readEventData } from "./sse.js";

/** A stream that sends no byte (not even a keep-alive comment) this long is treated as dead. */
export const STREAM_IDLE_MS = 45_000;

/** Where the element's session lives on the store backend. */
export interface BackendConfig {
  backendUrl: string;
  publishableKey: string;
  sessionId: string;
}

/** Talks to the store backend's `/store/pix-checkout/sessions/:id` routes, and nothing else. */
export class Backend {
  constructor(private readonly config: BackendConfig) {}

  /**
   * URL of a session route (`""`, `"stream"`, `"refresh"`), or of another resource given
   * as an absolute URL or a path from the backend's root (the QR image).
   */
  url(path = ""): string {
    const { backendUrl, sessionId } = this.config;
    if (path.includes("://")) return path;
    const base = backendUrl.replace(/\/+$/, "");
    return path[0] === "/"
      ? base + path
      : `${base}/store/pix-checkout/sessions/${encodeURIComponent(sessionId)}${path && "/" + path}`;
  }

  /** GET the session. */
  async get(signal: AbortSignal): Promise<CheckoutSession> {
    return this.#session(await this.#fetch("", { signal }));
  }

  /** POST refresh ("I already paid"). Answers the re-checked session; 429s carry `retryAfter`. */
  async refresh(signal: AbortSignal): Promise<CheckoutSession> {
    return this.#session(await this.#fetch("refresh", { method: "POST", signal }));
  }

  /**
   * GET an image (the backend's QR) by absolute URL or `/path`, with the
   * key header an `<img src>` could not send.
   */
  async image(url: string, signal: AbortSignal): Promise<Blob> {
    return (await this.#fetch(url, { signal })).blob();
  }

  /**
   * Opens the stream and yields each session it sends. Returns when the server closes
   * it or goes quiet for `idleMs`; throws a BackendError when it cannot be opened.
   */
  async *stream(signal: AbortSignal, idleMs = STREAM_IDLE_MS): AsyncGenerator<CheckoutSession> {
    const idle = new AbortController();
    const stop = () => idle.abort();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(stop, idleMs);
    };
    signal.addEventListener("abort", stop);
    try {
      arm();
      const res = await this.#fetch("stream", {
        signal: idle.signal,
        headers: { accept: "text/event-stream" },
      });
      if (!res.body || !res.headers.get("content-type")?.includes("text/event-stream")) {
        throw new BackendError("bad_response", "stream: not text/event-stream");
      }
      for await (const data of readEventData(res.body, arm)) {
        let value: unknown;
        try {
          value = JSON.parse(data);
        } catch {
          continue; // Not ours to understand (a future event type); the next one may be.
        }
        const session = parseSession(value);
        if (session) yield session;
      }
    } catch (error) {
      // Going quiet is a closed stream, not an error: the caller reconnects.
      if (!(idle.signal.aborted && !signal.aborted)) throw error;
    } finally {
      clearTimeout(timer);
      signal.removeEventListener("abort", stop);
      idle.abort();
    }
  }

  async #fetch(path: string, init: RequestInit): Promise<Response> {
    let res: Response;
    try {
      res = await fetch(this.url(path), {
        ...init,
        headers: { ...init.headers, "x-publishable-api-key": this.config.publishableKey },
      });
    } catch (error) {
      if (init.signal?.aborted) throw error;
      throw new BackendError("network", "backend unreachable");
    }
    if (res.ok) return res;
    const status = res.status;
    res.body?.cancel().catch(() => {});
    if (status === 404) throw new BackendError("not_found", "no such session", status);
    // Medusa answers a missing or unknown publishable key with 400 `not_allowed`.
    if (status === 400 || status === 401 || status === 403) {
      throw new BackendError("unauthorized", "publishable key refused", status);
    }
    if (status === 429) {
      const retryAfter = Number(res.headers.get("retry-after"));
      throw new BackendError(
        "rate_limited",
        "too soon",
        status,
        Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : 10,
      );
    }
    throw new BackendError("server_error", `backend answered ${status}`, status);
  }

  async #session(res: Response): Promise<CheckoutSession> {
    const session = parseSession(await res.json().catch(() => null));
    if (!session) {
      throw new BackendError("bad_response", "session JSON breaks the contract", res.status);
    }
    return session;
  }
}
