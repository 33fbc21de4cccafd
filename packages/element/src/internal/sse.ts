/**
 * Reads server-sent events from a fetch body and yields each event's `data`.
 * Comments (`: keep-alive`) yield nothing but still call `onBytes`, which the
 * caller uses as a liveness signal.
 */
export async function* readEventData(
  body: ReadableStream<Uint8Array>,
  onBytes: () => void,
): AsyncGenerator<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      onBytes();
      buffer = (buffer + decoder.decode(value, { stream: true })).replace(/\r\n?/g, "\n");
      let end: number;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const data = buffer
          .slice(0, end)
          .split("\n")
          .filter((line) => line.startsWith("data:"))
          .map((line) => line.slice(line[5] === " " ? 6 : 5))
          .join("\n");
        buffer = buffer.slice(end + 2);
        if (data) yield data;
      }
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}
