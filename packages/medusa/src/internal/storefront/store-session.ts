import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http";
import { ContainerRegistrationKeys } from "@medusajs/framework/utils";
import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import { z } from "zod";
import { Charges, type ChargeRow } from "../records/charges";
import { recordsOf, type Records } from "../records/records";
import { sendError } from "../platform/errors";
import type { MedusaContainer } from "@medusajs/framework/types";
import { liveSessionsOf } from "../medusa/collection-links";
import {
  toQueuedView,
  toStoreView,
  withCartRefused,
  withOrderState,
  type StoreSessionView,
} from "./store-view";
import { createLineOf } from "../create-line/line";
import type { CreateRequestRow } from "../create-line/queue";
import { withPixDiscount } from "./pix-discount-view";
import { Ledger } from "../records/ledger";
import { earlierPaymentOf } from "./earlier-payment";
import { orderPaymentOfCollection } from "../medusa/order-payment";
import { rowCountsAsPayment } from "../settlement/decide";
import { paymentOnItsWay } from "./live-status/order-news";

// Medusa payment session ids are `payses_` + a ULID; anything of that alphabet is looked
// up (and simply not found), anything else is refused before touching the database.
const paramsSchema = z.object({
  session_id: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/),
});

/**
 * Whether the request's publishable key may see this row: its cart's sales channel must be
 * one of the key's, as for Medusa's own carts and products. Another storefront's key, and a
 * key linked to no sales channel at all, get the same 404 as an unknown session, so they
 * cannot even learn that the session exists. Rows recorded before the plugin stored the
 * channel (none) stay readable as before.
 */
export function servesChannel(
  req: MedusaRequest,
  row: { sales_channel_id: string | null },
): boolean {
  if (!row.sales_channel_id) return true;
  const channels = (req as { publishable_key_context?: { sales_channel_ids?: string[] } })
    .publishable_key_context?.sales_channel_ids;
  return channels?.includes(row.sales_channel_id) ?? false;
}

/** A session the store routes serve: its charge row, or the view of its create request. */
export type LoadedSession =
  | { sessionId: string; records: Records; row: ChargeRow; queued?: undefined }
  | { sessionId: string; records: Records; row?: undefined; queued: StoreSessionView };

/**
 * Validates `:session_id` and loads the plugin's charge row of that session, or, while its
 * charge waits in the create line, the `preparing` view of its request. Answers the request
 * itself (400 / 404) and returns undefined when there is nothing to serve; a session of
 * another payment provider, or of a cart in a sales channel the publishable key does not
 * cover, is a 404 too. `read` replaces the table read (the status route reads through the
 * live-status cache).
 */
export async function loadSession(
  req: MedusaRequest,
  res: MedusaResponse,
  read?: (sessionId: string) => Promise<ChargeRow | undefined>,
): Promise<LoadedSession | undefined> {
  const parsed = paramsSchema.safeParse(req.params);
  if (!parsed.success) {
    sendError(
      res,
      "invalid_session_id",
      "session_id must be a payment session id such as payses_01H... (letters, digits, _ and -).",
    );
    return undefined;
  }
  const sessionId = parsed.data.session_id;
  const db = req.scope.resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION);
  const records = recordsOf(db);
  const row = await (read ? read(sessionId) : records.charges.bySessionId(sessionId));
  if (row && servesChannel(req, row)) return { sessionId, row, records };
  const queued = row ? undefined : await queuedView(req.scope, sessionId);
  if (queued && servesChannel(req, queued.request)) {
    if (queued.view) return { sessionId, records, queued: queued.view };
    // Its charge was recorded between the two reads.
    const created = await records.charges.bySessionId(sessionId);
    if (created) return { sessionId, row: created, records };
    // Its code went on to a later session of the same collection (Medusa replaced the session
    // when the cart changed and changed back, and the code was shown again there): the same
    // code, so a tab or a link still on this session shows it, and its payment, instead of a
    // "not found" for a code the shopper can still pay.
    const moved = await codeMadeFor(records, queued.request);
    if (moved) return { sessionId, row: moved, records };
  }
  sendError(
    res,
    "session_not_found",
    `No Pix or boleto payment session ${sessionId} exists. Initiate a payment session with a Pix Checkout provider first.`,
  );
  return undefined;
}

/**
 * The charge the create line made for a session, when a later session of the same collection
 * now holds it (settlement/open-session.ts `reuse`). Read through the session's own request,
 * so only who held the session the code was made for finds it. The line keeps ended requests a
 * day (`ENDED_REQUEST_RETENTION_MS`).
 */
async function codeMadeFor(
  records: Records,
  request: Pick<CreateRequestRow, "charge_id" | "payment_collection_id">,
): Promise<ChargeRow | undefined> {
  if (!request.charge_id || !request.payment_collection_id) return undefined;
  const row = await records.charges.byChargeId(request.charge_id);
  return row?.payment_collection_id === request.payment_collection_id ? row : undefined;
}

/**
 * The view of a session whose charge is not created yet, if it asked for one (`view` is
 * undefined once the request is done: the charge row speaks for it).
 */
export async function queuedView(
  scope: MedusaContainer,
  sessionId: string,
): Promise<
  | {
      request: Pick<CreateRequestRow, "sales_channel_id" | "charge_id" | "payment_collection_id">;
      view: StoreSessionView | undefined;
    }
  | undefined
> {
  const line = createLineOf(
    scope.resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION),
    scope.resolve(ContainerRegistrationKeys.CONFIG_MODULE),
  );
  const request = await line.latestOfSession(sessionId);
  if (!request) return undefined;
  if (request.state === "done") return { request, view: undefined };
  const place = request.state === "waiting" ? await line.place(request) : undefined;
  let replacedBy: string | null = null;
  if (request.state === "canceled" && request.payment_collection_id) {
    const live = await liveSessionsOf(scope, request.payment_collection_id);
    replacedBy = live.find((session) => session.id !== sessionId)?.id ?? null;
  }
  return { request, view: toQueuedView(request, place, sessionId, new Date(), replacedBy) };
}

/**
 * The one answer a shopper's page gets for a session's row, the status route's and each event of
 * the stream alike: the code's own money (toStoreView), what the cart's other codes mean for it
 * (one more indexed read of the collection's charges): money an older code brought that the
 * store owes back (`earlier_payment`), and for a replaced code, the cart paid by another of its
 * codes, or the cart's current session; and, once there is news of the order, the order's number
 * and whether Medusa's order is paid.
 */
export async function shopperView(
  scope: MedusaContainer,
  row: ChargeRow,
  sessionId: string,
): Promise<StoreSessionView> {
  if (!row.payment_collection_id) return withPixDiscount(scope, row, toStoreView(row, sessionId));
  const collectionId = row.payment_collection_id;
  const db = scope.resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION);
  const siblings = await new Charges(db).ofCollection(collectionId);
  const others = siblings.filter((other) => other.charge_id !== row.charge_id);
  if (row.superseded_at && row.status !== "paid") {
    // A tab left on an old code finds the cart paid by another of its codes: that payment.
    // Only money that pays the cart: captured, or a live code's on its way to capture (the
    // webhook's capture may take a moment after the page saw it paid). Another replaced code's
    // money is its own story, told on its own page.
    const paid =
      others.find((other) => Number(other.captured_cents) > 0) ??
      others.find((other) => !other.superseded_at && rowCountsAsPayment(other));
    if (paid) return withOrder(scope, toStoreView(paid, sessionId), collectionId, paid);
  }
  // A replaced code points at the code that still pays the cart.
  const replacedBy = row.superseded_at
    ? ((await liveSessionsOf(scope, collectionId)).find((session) => session.id !== sessionId)
        ?.id ?? null)
    : null;
  const view = await withPixDiscount(
    scope,
    row,
    toStoreView(row, sessionId, new Date(), replacedBy),
  );
  // A replaced code speaks of its own money; the earlier payment is the live code's news.
  const earlier = row.superseded_at
    ? undefined
    : await earlierPaymentOf(new Ledger(db), siblings, row.charge_id);
  return withOrder(
    scope,
    earlier ? { ...view, earlier_payment: earlier } : view,
    collectionId,
    row,
  );
}

/**
 * The view with its order's number and payment, once the cart is an order. Read only when
 * there is money to speak of (`paid`, `refund_due`, a replaced code's `received`, an earlier
 * payment), the code ended with its order (`canceled`), or an expired Pix offers a new code
 * (`renew`, which a canceled order takes away): a pending code is polled, and each poll would be
 * one more read for no news. A read that fails leaves the order out: the page then names no
 * order rather than a wrong one. A paid code with no order yet whose cart Medusa refused to
 * complete is `confirming` (withCartRefused).
 */
async function withOrder(
  scope: MedusaContainer,
  view: StoreSessionView,
  collectionId: string,
  row: ChargeRow,
): Promise<StoreSessionView> {
  const news =
    view.status === "paid" ||
    view.status === "canceled" ||
    view.status === "held" ||
    view.renew !== undefined ||
    view.status === "refund_due" ||
    view.received !== undefined ||
    view.earlier_payment !== undefined;
  if (!news) return view;
  const found = await orderPaymentOfCollection(scope, collectionId).catch(() => null);
  if (found) return withOrderState(view, found, paymentOnItsWay(row));
  // No order (`undefined`; `null`: the read failed, and says nothing): was the cart refused?
  if (found === null || view.status !== "paid") return view;
  const db = scope.resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION);
  const { count } = await recordsOf(db).events.cartFailures(row.charge_id);
  return withCartRefused(view, row, count);
}
