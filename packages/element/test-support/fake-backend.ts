// A fake store backend for the element's browser tests: it speaks the store contract
// (README, "Backend contract") over real HTTP on loopback, and exposes control routes
// under /__control so a test can drive every transition. Not shipped.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import QRCode from "qrcode";
import type { CheckoutSession } from "../src/session.js";

/** The publishable key the fake accepts; any other gets Medusa's 400. */
export const PUBLISHABLE_KEY = "pk_test_element";

/** How one session's routes behave. */
export interface FakeBehaviour {
  /** Server clock = real clock + this (skew tests). */
  clockOffsetMs?: number;
  /**
   * `sse`: a working stream; `missing`: 404; `silent`: headers, then nothing (a buffering proxy);
   * `full`: the store's streams are full (503 `stream_limit_reached`, Retry-After 2).
   */
  stream?: "sse" | "missing" | "silent" | "full";
  /**
   * What POST refresh does: answer the session after applying `patch`, or 429 with Retry-After
   * (`unavailable`: the store's 503 `store_unavailable` with Retry-After instead).
   */
  refresh?: {
    patch?: Partial<CheckoutSession>;
    retryAfter?: number;
    exposeRetryAfter?: boolean;
    unavailable?: boolean;
  };
  /** `hang`: the QR image route never answers. */
  qr?: "hang";
  /** The status route answers this late (a slow network), with the session as it is then. */
  delayMs?: number;
  /**
   * The next N status, stream or refresh calls fail: `http` answers `status` (503 unless given),
   * with `retryAfter` as the store's `store_unavailable` (Retry-After, exposed to the page);
   * `drop` destroys the socket, `hang` never answers.
   */
  fail?: { count: number; mode: "http" | "drop" | "hang"; status?: number; retryAfter?: number };
  /** The next N `POST shown` fail, as `fail` does (`http` is a 503, with `retryAfter` if given). */
  shownFail?: { count: number; mode: "http" | "drop"; retryAfter?: number };
  /**
   * `refuse`: the session's routes answer as a store whose STORE_CORS does not list the page's
   * origin: no `access-control-allow-origin`, on the preflight and on the answer. `allow`
   * (the default): the store lists it.
   */
  cors?: "refuse" | "allow";
}

interface Entry {
  session: CheckoutSession;
  behaviour: FakeBehaviour;
  streams: Set<ServerResponse>;
  log: { route: string; at: number }[];
  /** The codes the page reported as shown (`POST shown`), apart from the log of reads. */
  shown: string[];
  /** Every `POST shown` that arrived, failed ones included. */
  shownAttempts: number;
}

/** A running fake backend. */
export interface FakeBackend {
  url: string;
  close(): Promise<void>;
}

const sessions = new Map<string, Entry>();

function serverNow(entry: Entry) {
  return new Date(Date.now() + (entry.behaviour.clockOffsetMs ?? 0)).toISOString();
}

function snapshot(entry: Entry): CheckoutSession {
  const session = { ...entry.session, server_time: serverNow(entry) };
  // As the store: a replaced code is never offered again, whatever the session still holds.
  if (session.status === "superseded") {
    delete session.pix;
    delete session.boleto;
  }
  // As the store: where a new code comes from, only once the old one can no longer be paid.
  if (session.status !== "expired") delete session.renew;
  return session;
}

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

/**
 * The store briefly unable to answer (its database, say): 503 with Retry-After, which Medusa's
 * CORS must expose for the page to read it. Without `retryAfter`, no Retry-After at all.
 */
function unavailable(res: ServerResponse, retryAfter?: number, code = "store_unavailable") {
  send(
    res,
    503,
    { code, message: "The store is briefly unavailable; try again shortly." },
    retryAfter
      ? { "retry-after": String(retryAfter), "access-control-expose-headers": "retry-after" }
      : {},
  );
}

function push(entry: Entry) {
  const frame = `data: ${JSON.stringify(snapshot(entry))}\n\n`;
  for (const stream of entry.streams) stream.write(frame);
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  let text = "";
  for await (const chunk of req) text += chunk;
  return text ? JSON.parse(text) : {};
}

async function control(req: IncomingMessage, res: ServerResponse, parts: string[]) {
  const [, , id, action] = parts;
  const entry = id ? sessions.get(id) : undefined;
  if (req.method === "PUT" && id && !action) {
    const body = (await readJson(req)) as { session: CheckoutSession; behaviour?: FakeBehaviour };
    sessions.set(id, {
      session: body.session,
      behaviour: body.behaviour ?? {},
      streams: new Set(),
      log: [],
      shown: [],
      shownAttempts: 0,
    });
    return send(res, 204, null);
  }
  if (!entry) return send(res, 404, { message: `no fake session ${id}` });
  if (req.method === "PATCH" && !action) {
    Object.assign(entry.session, await readJson(req));
    push(entry);
    return send(res, 200, entry.session);
  }
  if (req.method === "PATCH" && action === "behaviour") {
    Object.assign(entry.behaviour, await readJson(req));
    return send(res, 200, entry.behaviour);
  }
  if (req.method === "POST" && action === "supersede") {
    // The cart changed: the store made `by` (if given) its current session and replaced this one.
    const { by } = (await readJson(req)) as { by?: CheckoutSession };
    if (by)
      sessions.set(by.session_id, {
        session: by,
        behaviour: {},
        streams: new Set(),
        log: [],
        shown: [],
        shownAttempts: 0,
      });
    Object.assign(entry.session, { status: "superseded", replaced_by: by?.session_id ?? null });
    push(entry);
    return send(res, 200, snapshot(entry));
  }
  if (req.method === "POST" && action === "close-streams") {
    for (const stream of entry.streams) stream.end();
    entry.streams.clear();
    return send(res, 204, null);
  }
  if (req.method === "GET" && action === "log") return send(res, 200, entry.log);
  if (req.method === "GET" && action === "shown") return send(res, 200, entry.shown);
  if (req.method === "GET" && action === "shown-attempts") {
    return send(res, 200, entry.shownAttempts);
  }
  if (req.method === "GET" && action === "streams") return send(res, 200, entry.streams.size);
  send(res, 404, { message: "unknown control route" });
}

/**
 * Medusa's `POST /store/payment-collections/:id/payment-sessions`, as the plugin answers it:
 * a new pending Pix session for the collection, unless one of its sessions is still payable,
 * which is handed back instead (never two payable codes for one cart).
 */
async function paymentSessions(req: IncomingMessage, res: ServerResponse, collectionId: string) {
  if (req.headers["x-publishable-api-key"] !== PUBLISHABLE_KEY) {
    return send(res, 400, { type: "not_allowed", message: "A valid publishable key is required" });
  }
  const { provider_id, data } = (await readJson(req)) as {
    provider_id?: string;
    data?: { renews?: unknown };
  };
  // A busy minute: the plugin's line of codes to create is full.
  if (collectionId.includes("_busy_")) {
    res.setHeader("Retry-After", "60");
    return send(res, 429, {
      code: "too_many_waiting_creates",
      message: "The store has 300 Pix codes or boletos waiting to be created (a busy minute).",
      over: "store",
    });
  }
  const mine = [...sessions.values()].filter(
    (entry) => entry.session.renew?.payment_collection_id === collectionId,
  );
  if (!provider_id || mine.length === 0) {
    return send(res, 404, { type: "not_found", message: `no collection ${collectionId}` });
  }
  // The plugin takes a request on an order's collection for the shopper's only when it names the
  // code it renews (`data.renews`, checkout/session-tie.ts). This backend answers the element's
  // renewals only, so a request naming none of the collection's sessions is refused, as the
  // plugin refuses a stranger beside a live code: an element that forgot to name it fails here.
  const renews = mine.find((entry) => entry.session.session_id === data?.renews);
  const payable = mine.find((entry) => entry.session.status === "pending");
  if (!renews) {
    return send(res, 409, {
      code: "payment_code_in_progress",
      message: "This order already has a payment code in progress; nothing was changed.",
    });
  }
  let session = payable?.session;
  if (!session) {
    const old = mine[mine.length - 1]!.session;
    const id = `${old.session_id}_renewed`;
    session = {
      ...old,
      session_id: id,
      status: "pending",
      expires_at: new Date(Date.now() + 15 * 60_000).toISOString(),
      pix: { copy_paste: `${old.pix?.copy_paste ?? "code"}-renewed`, qr_image_url: null },
      // The renew target stays with it: the collection's sessions are found by it.
      renew: old.renew,
    };
    sessions.set(id, {
      session,
      behaviour: {},
      streams: new Set(),
      log: [],
      shown: [],
      shownAttempts: 0,
    });
  }
  send(res, 200, {
    payment_collection: {
      id: collectionId,
      payment_sessions: [{ id: session.session_id, provider_id }],
    },
  });
}

async function store(req: IncomingMessage, res: ServerResponse, id: string, action: string) {
  // Medusa answers a missing or unknown publishable key with 400 `not_allowed`.
  if (req.headers["x-publishable-api-key"] !== PUBLISHABLE_KEY) {
    return send(res, 400, { type: "not_allowed", message: "A valid publishable key is required" });
  }
  const entry = sessions.get(id);
  if (!entry) return send(res, 404, { type: "not_found", message: `Session ${id} not found` });
  const route = `${req.method} ${action || "status"}`;
  // As the store: records which code the page says it shows, answers 204 whatever there was.
  if (route === "POST shown") {
    entry.shownAttempts++;
    const shownFail = entry.behaviour.shownFail;
    if (shownFail && shownFail.count > 0) {
      shownFail.count--;
      if (shownFail.mode === "drop") return req.socket.destroy();
      return unavailable(res, shownFail.retryAfter);
    }
    const { status, pix, boleto } = snapshot(entry);
    if (status === "pending") entry.shown.push(pix?.copy_paste ?? boleto?.digitable_line ?? "");
    return send(res, 204, null);
  }
  entry.log.push({ route, at: Date.now() });

  const fail = entry.behaviour.fail;
  if (fail && fail.count > 0 && route !== "GET qr.svg") {
    fail.count--;
    if (fail.mode === "drop") return req.socket.destroy();
    if (fail.mode === "hang") return;
    if (fail.retryAfter) return unavailable(res, fail.retryAfter);
    return send(res, fail.status ?? 503, { type: "unexpected_state", message: "down" });
  }
  if (route === "GET status") {
    const { delayMs } = entry.behaviour;
    if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
    return send(res, 200, snapshot(entry));
  }
  if (route === "GET stream") {
    const mode = entry.behaviour.stream ?? "sse";
    if (mode === "missing") return send(res, 404, { type: "not_found", message: "no stream" });
    if (mode === "full") return unavailable(res, 2, "stream_limit_reached");
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    res.flushHeaders();
    if (mode === "silent") return;
    res.write(`: connected\n\ndata: ${JSON.stringify(snapshot(entry))}\n\n`);
    entry.streams.add(res);
    res.on("close", () => entry.streams.delete(res));
    return;
  }
  if (route === "POST refresh") {
    const {
      patch,
      retryAfter,
      exposeRetryAfter = true,
      unavailable: down,
    } = entry.behaviour.refresh ?? {};
    if (retryAfter && down) return unavailable(res, retryAfter);
    if (retryAfter) {
      return send(
        res,
        429,
        { type: "too_many_requests", message: "Checked recently" },
        {
          "retry-after": String(retryAfter),
          ...(exposeRetryAfter ? { "access-control-expose-headers": "retry-after" } : {}),
        },
      );
    }
    if (patch) {
      Object.assign(entry.session, patch);
      push(entry);
    }
    return send(res, 200, snapshot(entry));
  }
  if (route === "GET qr.svg" && entry.behaviour.qr === "hang") return;
  const { pix, status } = snapshot(entry);
  // As the store: no picture before the code exists.
  if (route === "GET qr.svg" && status === "preparing") {
    return send(res, 409, { type: "qr_not_ready", message: "The code is still being prepared" });
  }
  if (route === "GET qr.svg" && pix) {
    const svg = await QRCode.toString(pix.copy_paste, { type: "svg", margin: 4 });
    res.writeHead(200, { "content-type": "image/svg+xml", "cache-control": "no-store" });
    return res.end(svg);
  }
  send(res, 404, { type: "not_found", message: "unknown route" });
}

/** Starts the fake on 127.0.0.1 at an ephemeral port. */
export async function startFakeBackend(): Promise<FakeBackend> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const parts = url.pathname.split("/").filter(Boolean).map(decodeURIComponent);
    // The test page runs on another origin, as a storefront does; Medusa's STORE_CORS plays this
    // part, and a session may play a store whose STORE_CORS leaves the page out.
    const refused =
      parts[2] === "sessions" && sessions.get(parts[3] ?? "")?.behaviour.cors === "refuse";
    if (!refused) res.setHeader("access-control-allow-origin", "*");
    if (req.method === "OPTIONS") {
      res.writeHead(204, {
        "access-control-allow-methods": "GET, POST, PUT, PATCH",
        "access-control-allow-headers": "x-publishable-api-key, content-type, accept",
        "access-control-max-age": "600",
      });
      return res.end();
    }
    const handle =
      parts[0] === "__control"
        ? control(req, res, parts)
        : parts[0] === "store" && parts[1] === "pix-checkout" && parts[2] === "sessions" && parts[3]
          ? store(req, res, parts[3], parts[4] ?? "")
          : parts[0] === "store" &&
              parts[1] === "payment-collections" &&
              parts[3] === "payment-sessions"
            ? paymentSessions(req, res, parts[2] ?? "")
            : Promise.resolve(send(res, 404, { type: "not_found", message: "unknown route" }));
    handle.catch((error: unknown) => send(res, 500, { message: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const entry of sessions.values()) for (const stream of entry.streams) stream.end();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
