// The demo storefront's store calls, against a real HTTP server on loopback that answers as the
// plugin does when it is busy for a moment (503 `store_unavailable`, 409 `collection_busy`).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { BUSY_ATTEMPTS, BUSY_MAX_WAIT_S, fetchWhileBusy } from "./busy-retry";

type Answer = { status: number; code?: string; retryAfter?: string };

let server: Server | undefined;
afterEach(
  () => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())),
);

/** A store that gives `answers` in turn (then 200), recording each request's body. */
async function store(answers: Answer[]) {
  const bodies: string[] = [];
  server = createServer((req, res) => {
    let text = "";
    req.on("data", (chunk) => (text += chunk));
    req.on("end", () => {
      bodies.push(text);
      const answer = answers.shift() ?? { status: 200 };
      res.writeHead(answer.status, {
        "content-type": "application/json",
        ...(answer.retryAfter ? { "retry-after": answer.retryAfter } : {}),
      });
      res.end(JSON.stringify(answer.code ? { code: answer.code, message: "busy" } : { ok: true }));
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server!.address() as AddressInfo).port}/store/x`;
  const waits: number[] = [];
  const call = () =>
    fetchWhileBusy(
      () => fetch(url, { method: "POST", body: JSON.stringify({ cpf: "12345678909" }) }),
      async (ms) => void waits.push(ms),
    );
  return { call, bodies, waits };
}

describe("fetchWhileBusy", () => {
  it("waits the store's Retry-After on a 503 store_unavailable and sends the same request again", async () => {
    const { call, bodies, waits } = await store([
      { status: 503, code: "store_unavailable", retryAfter: "2" },
    ]);
    const response = await call();
    expect(response.status).toBe(200);
    expect(waits).toEqual([2000]);
    // What the shopper typed goes again, unchanged.
    expect(bodies).toEqual(['{"cpf":"12345678909"}', '{"cpf":"12345678909"}']);
  });

  it("waits on a 409 collection_busy too, 1 s when it says no Retry-After, at most 5 s", async () => {
    const { call, waits } = await store([
      { status: 409, code: "collection_busy" },
      { status: 409, code: "collection_busy", retryAfter: "600" },
    ]);
    expect((await call()).status).toBe(200);
    expect(waits).toEqual([1000, BUSY_MAX_WAIT_S * 1000]);
  });

  it(`gives the busy answer back after ${BUSY_ATTEMPTS} attempts`, async () => {
    const busy = { status: 503, code: "store_unavailable", retryAfter: "1" };
    const { call, bodies } = await store([busy, busy, busy, busy]);
    const response = await call();
    expect(response.status).toBe(503);
    expect(((await response.json()) as { code: string }).code).toBe("store_unavailable");
    expect(bodies).toHaveLength(BUSY_ATTEMPTS);
  });

  it("never retries another refusal", async () => {
    const { call, bodies } = await store([{ status: 409, code: "cart_changed" }]);
    expect((await call()).status).toBe(409);
    expect(bodies).toHaveLength(1);
  });
});
