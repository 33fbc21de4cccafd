import type { CheckoutSession } from "../session.js";
import { BackendError } from "./backend-error.js";
import { parseSession } from "./parse-session.js";

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
    return this.session(await this.request("", { signal }));
  }

  /** POST refresh ("I already paid"). Answers the re-checked session; 429s carry `retryAfter`. */
  async refresh(signal: AbortSignal): Promise<CheckoutSession> {
    return this.session(await this.request("refresh", { method: "POST", signal }));
  }

  /**
   * Calls a backend route (or the backend's QR image, by absolute URL or `/path`) with the key
   * header an `<img src>` could not send; maps failures to BackendError, or with `raw` answers
   * a refusal too (its body's `code` chooses the shopper's words). An unreachable backend
   * throws either way.
   */
  async request(path: string, init: RequestInit, raw?: boolean): Promise<Response> {
    let res: Response;
    try {
      res = await fetch(this.url(path), {
        ...init,
        headers: { ...init.headers, "x-publishable-api-key": this.config.publishableKey },
      });
    } catch (error) {
      if (init.signal?.aborted) throw error;
      // No answer the page may read: offline, or a store whose CORS refuses this page. Offline,
      // the chunk cannot load either, and its import's error is a `network` one to every caller.
      throw await import("./cors.js").then((m) => m.whyUnanswered(this, BackendError));
    }
    if (res.ok || raw) return res;
    const status = res.status;
    res.body?.cancel().catch(() => {});
    // Seconds; 0 when absent, or hidden by CORS (the store must expose `Retry-After`).
    const retryAfter = Number(res.headers.get("retry-after")) || 0;
    // One message for every HTTP failure, with its status: the code says what it means.
    throw new BackendError(
      status === 404
        ? "not_found"
        : status === 429
          ? "rate_limited"
          : // Medusa answers a missing or unknown publishable key with 400 `not_allowed`.
            status === 400 || status === 401 || status === 403
            ? "unauthorized"
            : // A 503 that says how long (`store_unavailable`, `stream_limit_reached`): wait
              // that long and ask again. A bare 503 (a proxy's page, say) is a server error.
              status === 503 && retryAfter > 0
              ? "unavailable"
              : "server_error",
      `backend answered ${status}`,
      status,
      // A 429 waits 10 s when it cannot read how long; a 503 backs off as the polls do.
      retryAfter > 0 ? retryAfter : status === 429 ? 10 : undefined,
    );
  }

  /** Checks a decoded value against the contract: the session, or null. */
  parse(value: unknown): CheckoutSession | null {
    return parseSession(value);
  }

  /** Parses a response body as a session, or throws `bad_response`. */
  async session(res: Response): Promise<CheckoutSession> {
    const session = this.parse(await res.json().catch(() => null));
    if (!session) {
      throw new BackendError("bad_response", "session JSON breaks the contract", res.status);
    }
    return session;
  }
}
