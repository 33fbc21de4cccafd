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
 * a 5xx means neither: the caller reconnects at its next round.
 * Here rather than in the status controller: only a page that got its first answer
 * needs it, and this chunk loads during that first request.
 */
export async function followStream(
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
    const status = (error as { status?: number } | null)?.status;
    return [events, status !== 404 && status !== 405 && status !== 501];
  }
  return [events, events > 0];
}

/** The code each backend (one per session) last reported as shown. */
const reported = new WeakMap<Backend, string>();

/**
 * Tells the store, once per code, that this page shows it (`POST …/shown`): the store mails a
 * code only after a shopper's page showed it, and reading the status never counts, so that a
 * link scanner or a monitor changes nothing. The stream's first event is the session as it is
 * on connect, so a code shown from the first GET is reported a moment later, and a code that
 * replaces it on the same session is reported again. Fire and forget: nothing the shopper sees
 * waits on it. A backend whose stream does not work (the element polls) gets no report.
 */
function reportShown(backend: Backend, session: CheckoutSession) {
  const code = session.status === "pending" && JSON.stringify(session.pix ?? session.boleto);
  if (!code || reported.get(backend) === code) return;
  reported.set(backend, code);
  backend.request("shown", { method: "POST" }, true).catch(() => {});
}
