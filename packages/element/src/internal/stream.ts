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
