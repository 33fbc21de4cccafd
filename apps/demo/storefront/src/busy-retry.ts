/**
 * The plugin's answers that mean "busy for a moment, ask again": `store_unavailable` (503: the
 * store's database failed) and `collection_busy` (409: another request holds the cart's payment
 * collection). Both carry `Retry-After`.
 */
const BUSY_CODES = new Set(["store_unavailable", "collection_busy"]);

/** Attempts in all: a shopper is looking at the button's spinner meanwhile. */
export const BUSY_ATTEMPTS = 3;
/** The longest wait between two attempts, whatever `Retry-After` says. */
export const BUSY_MAX_WAIT_S = 5;

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Sends a store call (`send` makes a new request each time), and again while the store answers
 * that it is busy for a moment: after the answer's `Retry-After` (1 s when absent, or hidden by
 * CORS; at most BUSY_MAX_WAIT_S), BUSY_ATTEMPTS times in all. Any other answer, and the last
 * busy one, is returned as it came: the caller says what it means. Nothing the shopper typed is
 * touched meanwhile: the form waits on this call.
 */
export async function fetchWhileBusy(
  send: () => Promise<Response>,
  wait: (ms: number) => Promise<void> = pause,
): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    const response = await send();
    if (response.ok || attempt >= BUSY_ATTEMPTS) return response;
    const body = (await response
      .clone()
      .json()
      .catch(() => null)) as { code?: unknown } | null;
    if (typeof body?.code !== "string" || !BUSY_CODES.has(body.code)) return response;
    const seconds = Number(response.headers.get("retry-after")) || 1;
    await wait(Math.min(seconds, BUSY_MAX_WAIT_S) * 1000);
  }
}
