import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http";
import type { ChargeRow } from "../../../../../../internal/records/charges";
import { liveStatus } from "../../../../../../internal/storefront/live-status";
import {
  loadSession,
  queuedView,
  shopperView,
} from "../../../../../../internal/storefront/store-session";
import { sendError } from "../../../../../../internal/platform/errors";
import { takeStreamSlot } from "../../../../../../internal/storefront/live-status/client-slots";
import { streamIsDone } from "../../../../../../internal/storefront/live-status/order-news";
import { clientOfRequest } from "../../../../../../internal/create-line/client-of-request";
import {
  toStoreView,
  viewFingerprint,
  type StoreSessionView,
} from "../../../../../../internal/storefront/store-view";

/**
 * `GET /store/pix-checkout/sessions/:session_id/stream`: server-sent events. The first event
 * is the current session object, then one per change (the same object as the GET route),
 * with `: keep-alive` comments in between. A session whose code is still being prepared
 * (the create line) starts with `preparing`, and its code follows as soon as it exists. Changes made on any instance arrive through
 * Postgres LISTEN/NOTIFY (see internal/storefront/live-status). The stream ends after a final status
 * (a paid code's once its order is paid too: the payment is streamed at the ledger's commit, the
 * order's news after Medusa's capture; live-status/order-news.ts), after `idleTimeoutMs` without
 * a change, or when the client goes; this instance accepts
 * at most `maxConnections` streams (more get 503 `stream_limit_reached`), and one client at most
 * `maxPerClient` (more get 429 `too_many_streams`); either way the element polls instead.
 * It writes nothing (a GET never changes state): anyone holding a session id may open it, so
 * it must not make the store call the payment API; the page's `POST …/shown` asks for that.
 */
export async function GET(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const found = await loadSession(req, res);
  if (!found) return;
  const { sessionId } = found;
  // The session whose row speaks for this one: itself, or the later session of the same
  // collection its code went on to (store-session.ts `loadSession`).
  const rowSession = found.row?.session_id ?? sessionId;
  const { hub, options } = liveStatus(req.scope);

  let lastPrint: string | undefined;
  let lastUpdated = 0;
  let ended = false;
  let idleTimer: NodeJS.Timeout | undefined;
  let unfollow: (() => void)[] = [];
  let writing: Promise<void> = Promise.resolve();

  const end = () => {
    if (ended) return;
    ended = true;
    clearInterval(keepAlive);
    clearTimeout(idleTimer);
    unsubscribe?.();
    for (const stop of unfollow) stop();
    releaseSlot?.();
    res.end();
  };
  const armIdle = () => {
    clearTimeout(idleTimer);
    idleTimer = setTimeout(end, options.idleTimeoutMs);
  };
  const push = (row: ChargeRow | undefined) => {
    if (ended) return;
    if (!row) {
      // No charge yet: the create request's news (failed, or the session went away).
      if (!found.row) void queuedView(req.scope, sessionId).then((q) => q?.view && write(q.view));
      return;
    }
    // Reads race (a sweep and the first read); never step back to an older row.
    const updated = new Date(row.updated_at).getTime();
    if (updated < lastUpdated) return;
    lastUpdated = updated;
    // The same answer as the status route: the code's money, the cart's other codes, the order.
    // One view at a time, in the order the rows came: a slower read never overwrites a newer one.
    writing = writing.then(() =>
      shopperView(req.scope, row, sessionId).then(
        (view) => write(view, row),
        () => write(toStoreView(row, sessionId), row),
      ),
    );
  };
  // Another code of the same cart changed (an older code paid, a replaced code's money owed
  // back): this code's answer may change with it (`earlier_payment`, the cart paid), though its
  // own row did not. Read its row again; an unchanged answer writes nothing.
  const pushOwn = () => {
    if (ended) return;
    void found.records.charges.bySessionId(rowSession).then(
      (own) => own && push(own),
      () => undefined,
    );
  };
  const write = (view: StoreSessionView, row?: ChargeRow) => {
    if (ended) return;
    const print = viewFingerprint(view);
    if (print === lastPrint) return;
    lastPrint = print;
    res.write(`data: ${JSON.stringify(view)}\n\n`);
    armIdle();
    // Done once the code's news and its order's are told (a paid code's order follows it).
    if (streamIsDone(view, row)) setImmediate(end);
  };

  // One client holds at most `maxPerClient` streams here; past it, it polls instead.
  const releaseSlot = takeStreamSlot(clientOfRequest(req), options.maxPerClient);
  if (!releaseSlot) {
    res.setHeader("Retry-After", "5");
    res.setHeader("Access-Control-Expose-Headers", "Retry-After");
    sendError(
      res,
      "too_many_streams",
      "This client already follows too many payments at once; poll the session route instead.",
    );
    return;
  }
  // Subscribe before the first read, so a change between the two is not lost.
  const unsubscribe = hub.subscribe(rowSession, push, end);
  // The cart's other codes (an older code is the one a shopper pays from their clipboard), as
  // followers that take no stream slot of their own.
  const siblings = found.row?.payment_collection_id
    ? (await found.records.charges.ofCollection(found.row.payment_collection_id))
        .map((other) => other.session_id)
        .filter((id): id is string => Boolean(id) && id !== rowSession)
    : [];
  if (unsubscribe && !ended) unfollow = siblings.map((id) => hub.follow(id, pushOwn));
  if (!unsubscribe) {
    releaseSlot();
    res.setHeader("Retry-After", "5");
    sendError(
      res,
      "stream_limit_reached",
      "This server has too many open payment streams; poll the session route instead.",
    );
    return;
  }
  res.writeHead(200, {
    "Content-Type": "text/event-stream; charset=utf-8",
    "Cache-Control": "no-cache, no-transform",
    Connection: "keep-alive",
    // Tells nginx-style proxies not to buffer the stream.
    "X-Accel-Buffering": "no",
  });
  res.write(`retry: 2000\n\n`);
  const keepAlive = setInterval(() => {
    if (!ended) res.write(`: keep-alive\n\n`);
  }, options.keepAliveMs);
  req.on("close", end);
  res.on("close", end);
  res.on("error", end);
  const current = (await found.records.charges.bySessionId(rowSession)) ?? found.row;
  if (current) push(current);
  else if (found.queued) write(found.queued);
}
