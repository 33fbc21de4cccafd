// Two stores timed request by request: the same request to each in turn, one at a time, which
// goes first a coin toss. On a shared 2-core machine the CPU's speed moves from second to second
// (a route's CPU time per request moved by half between 4-second slices); two requests a few
// milliseconds apart meet the same machine, so each pair's ratio leaves that out.

/** @param {number[]} list */
export function median(list) {
  const sorted = [...list].sort((a, b) => a - b);
  const mid = sorted.length / 2;
  return sorted.length % 2 ? sorted[Math.floor(mid)] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * One request; resolves with its time in ms and whether it answered 2xx.
 * @param {string} base
 * @param {Record<string, string>} headers
 * @param {{ path: string, method?: string, body?: unknown }} request
 */
export async function timed(base, headers, request) {
  const t0 = performance.now();
  const response = await fetch(base + request.path, {
    method: request.method ?? "GET",
    headers: { ...headers, "content-type": "application/json" },
    body: request.body === undefined ? undefined : JSON.stringify(request.body),
  }).catch(() => null);
  await response?.arrayBuffer().catch(() => undefined);
  return { ms: performance.now() - t0, ok: Boolean(response?.ok), status: response?.status };
}

/**
 * Times `count` pairs after `warmup` pairs. `requestAt(i)` gives the i-th request, sent alike to
 * both stores. Resolves with the median of the pairs' ratios (`a` ÷ `b` time: above 1 means `b`
 * is faster), each store's median time, the ratio in each quarter of the run (a drift shows
 * there), and the count of answers that were not 2xx.
 * @param {{ a: string, b: string, headers: Record<string, string>, count: number, warmup: number, requestAt: (i: number) => { path: string, method?: string, body?: unknown } }} plan
 */
export async function timeRequestPairs({ a, b, headers, count, warmup, requestAt }) {
  const ms = { a: [], b: [] };
  const ratios = [];
  let failures = 0;
  for (let i = 0; i < warmup + count; i++) {
    const request = requestAt(i);
    const order = Math.random() < 0.5 ? ["a", "b"] : ["b", "a"];
    const got = {};
    for (const side of order) {
      const x = await timed(side === "a" ? a : b, headers, request);
      got[side] = x.ms;
      if (!x.ok && failures++ === 0) {
        console.error(`  ${request.method ?? "GET"} ${request.path}: ${x.status ?? "no answer"}`);
      }
    }
    if (i < warmup) continue;
    ms.a.push(got.a);
    ms.b.push(got.b);
    ratios.push(got.a / got.b);
  }
  const quarter = (q) => median(ratios.slice((q * count) / 4, ((q + 1) * count) / 4));
  return {
    ratio: median(ratios),
    aMedianMs: median(ms.a),
    bMedianMs: median(ms.b),
    quarters: count >= 4 ? [0, 1, 2, 3].map(quarter) : [],
    failures,
  };
}
