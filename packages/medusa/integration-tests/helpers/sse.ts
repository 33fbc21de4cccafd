/** A server-sent-events reader over fetch (what the element does: EventSource sends no headers). */
export interface SseReader {
  status: number;
  contentType: string | null;
  /** The next `data:` event, parsed as JSON; rejects when the stream ends first. */
  next(): Promise<Record<string, unknown>>;
  /** Resolves when the server closes the stream. */
  ended(): Promise<void>;
  close(): void;
}

/** Opens `url` with the given headers and reads it as an SSE stream. */
export async function openSse(url: string, headers: Record<string, string>): Promise<SseReader> {
  const abort = new AbortController();
  const response = await fetch(url, { headers, signal: abort.signal });
  const queue: Record<string, unknown>[] = [];
  const waiters: { resolve: (v: Record<string, unknown>) => void; reject: (e: Error) => void }[] =
    [];
  let done = false;
  let endResolve: () => void = () => undefined;
  const endPromise = new Promise<void>((resolve) => (endResolve = resolve));
  const finish = () => {
    done = true;
    endResolve();
    for (const waiter of waiters.splice(0)) waiter.reject(new Error("stream ended"));
  };
  void (async () => {
    if (!response.body) return finish();
    const decoder = new TextDecoder();
    let buffer = "";
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const data = block
            .split("\n")
            .filter((line) => line.startsWith("data: "))
            .map((line) => line.slice(6))
            .join("\n");
          if (!data) continue;
          const event = JSON.parse(data) as Record<string, unknown>;
          const waiter = waiters.shift();
          if (waiter) waiter.resolve(event);
          else queue.push(event);
        }
      }
    } catch {
      // aborted
    }
    finish();
  })();
  return {
    status: response.status,
    contentType: response.headers.get("content-type"),
    next: () =>
      queue.length > 0
        ? Promise.resolve(queue.shift()!)
        : done
          ? Promise.reject(new Error("stream ended"))
          : new Promise((resolve, reject) => waiters.push({ resolve, reject })),
    ended: () => endPromise,
    close: () => abort.abort(),
  };
}
