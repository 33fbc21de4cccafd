import type { CheckoutSession } from "../session.js";
import type { Backend } from "./backend.js";
import { readEventData } from "./sse.js";

/** A stream that sends no byte (not even a keep-alive comment) this long is treated as dead. */
export const STREAM_IDLE_MS = 45_000;

/**
 * Opens the session's stream and yields each session it sends. Returns when the server
 * closes it or goes quiet for `idleMs`, at once if the answer is not an event stream;
 * throws a BackendError when it cannot be opened.
 * A chunk of its own: the first paint needs only the status GET, so this loads after.
 * It imports nothing but types, so that no chunk is shared with the main file.
 */
export async function* streamSessions(
  backend: Backend,
  signal: AbortSignal,
  idleMs = STREAM_IDLE_MS,
): AsyncGenerator<CheckoutSession> {
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
    const res = await backend.request("stream", {
      signal: idle.signal,
      headers: { accept: "text/event-stream" },
    });
    // Not a stream (a proxy's HTML page, say): no events, which makes the caller poll.
    if (!res.body || !res.headers.get("content-type")?.includes("text/event-stream")) return;
    for await (const data of readEventData(res.body, arm)) {
      let value: unknown;
      try {
        value = JSON.parse(data);
      } catch {
        continue; // Not ours to understand (a future event type); the next one may be.
      }
      const session = backend.parse(value);
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

/**
 * Follows the session's stream until it closes, handing each session to `deliver`, which
 * answers true when following should end (a final status). Answers how many sessions the
 * stream carried, and whether the backend streams at all: a 404, 405 or 501, or a stream
 * that closed without the current session the contract sends on connect (a buffering
 * proxy, say), means it does not, and the caller polls instead. A dropped connection or
 * a 5xx means neither: the caller reconnects at its next round. A 503 with Retry-After
 * (`stream_limit_reached`) means not before then: the caller polls meanwhile.
 * `read` is the session the caller's status read gave: when the stream carries none (not
 * offered, `streams` false, or refused), the page polls and reports that one as shown.
 * Here rather than in the status controller: only a page that got its first answer
 * needs it, and this chunk loads during that first request.
 */
export async function followStream(
  backend: Backend,
  signal: AbortSignal,
  idleMs: number | undefined,
  deliver: (session: CheckoutSession) => boolean,
  read: CheckoutSession,
  streams: boolean,
): Promise<[events: number, streams: boolean]> {
  const [events, works] =
    // The store asked for a pause (its streams are full): poll until then.
    streams && (paused.get(backend) ?? 0) <= Date.now()
      ? await follow(backend, signal, idleMs, deliver)
      : [0, streams];
  if (!events) reportShown(backend, read);
  return [events, works];
}

/** Follows the stream itself (see followStream): how many sessions, and whether it streams. */
async function follow(
  backend: Backend,
  signal: AbortSignal,
  idleMs: number | undefined,
  deliver: (session: CheckoutSession) => boolean,
): Promise<[events: number, streams: boolean]> {
  let events = 0;
  try {
    for await (const session of streamSessions(backend, signal, idleMs)) {
      events++;
      reportShown(backend, session);
      if (deliver(session)) break;
    }
  } catch (error) {
    // Read, not `instanceof BackendError`: an import would share a chunk with the main file.
    const { status, retryAfter } = (error ?? {}) as { status?: number; retryAfter?: number };
    // A 503 with Retry-After (`stream_limit_reached`, `store_unavailable`) says for how long:
    // no stream is asked for before then.
    if (status === 503 && retryAfter) paused.set(backend, Date.now() + waitFor(retryAfter, 0));
    return [events, status !== 404 && status !== 405 && status !== 501];
  }
  return [events, events > 0];
}

/** Until when (local clock) each backend's store asked not to open its stream. */
const paused = new WeakMap<Backend, number>();

/** How many times a shown report is sent before the page gives up on it. */
export const SHOWN_ATTEMPTS = 5;
/** The wait before the second attempt; it doubles for each one after. */
export const SHOWN_RETRY_MS = 1_000;

/** Milliseconds to wait: what the store asked (`Retry-After`, up to a minute), or the backoff. */
const waitFor = (retryAfter: number, backoffMs: number) =>
  Math.max(Math.min(retryAfter, 60) * 1000, backoffMs);

/** The code each backend (one per session) last reported as shown. */
const reported = new WeakMap<Backend, string>();

/**
 * Tells the store, once per code, that this page shows it (`POST …/shown`): the store mails a
 * code only after a shopper's page showed it, and reading the status never counts, so that a
 * link scanner or a monitor changes nothing. The stream's first event is the session as it is
 * on connect, so a code shown from the first GET is reported a moment later, and a code that
 * replaces it on the same session is reported again. A page that polls (no stream, or a full
 * one) reports the session its status read gave instead (followStream's `read`).
 * Nothing the shopper sees waits on it, but a report lost to the network or to a store briefly
 * down (5xx, 503 with Retry-After) is sent again, up to SHOWN_ATTEMPTS times, backing off: the
 * store e-mails a pay-first code only once it knows the code was shown.
 */
function reportShown(backend: Backend, session: CheckoutSession): void {
  const code = session.status === "pending" && JSON.stringify(session.pix ?? session.boleto);
  if (!code || reported.get(backend) === code) return;
  reported.set(backend, code);
  void (async () => {
    for (let attempt = 1; ; attempt++) {
      let retryAfter = 0;
      try {
        const res = await backend.request("shown", { method: "POST" }, true);
        // Recorded, or refused for good (a code no longer pending, say): nothing to retry.
        if (res.status < 500) return;
        retryAfter = Number(res.headers.get("retry-after")) || 0;
      } catch {
        // Unreachable: as a 5xx.
      }
      // Given up, or another code replaced this one (it has its own report).
      if (attempt >= SHOWN_ATTEMPTS || reported.get(backend) !== code) return;
      const ms = waitFor(retryAfter, SHOWN_RETRY_MS * 2 ** (attempt - 1));
      await new Promise((resolve) => setTimeout(resolve, ms));
    }
  })();
}
