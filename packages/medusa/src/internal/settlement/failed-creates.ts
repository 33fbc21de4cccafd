import { redact } from "@pix-checkout/client";
import { CreateQueue, SPENT_SEND, type CreateRequestRow } from "../create-line/queue";
import { UnpaidOrders } from "../create-line/unpaid-orders";
import { cartOfCollection } from "../medusa/collection-links";
import { providerByKey } from "../platform/provider-registry";
import { withCollection } from "./collection";
import type { SettleContext } from "./context";
import { decideFailedCreate } from "./decide";
import { endOrder } from "./medusa-side";

/**
 * How long after a create failed its order is looked at: a cart completion that authorized the
 * session while its code was still in line makes its order within seconds, so by then the
 * order it made, if any, is there to be seen.
 */
export const FAILED_CREATE_GRACE_MS = 60_000;

/** Failed creates looked at per reconciliation pass. */
const BATCH = 100;

/** What the pass over failed creates did. */
export interface FailedCreatesReport {
  ordersEnded: number;
  ordersKept: number;
}

/**
 * A create that failed (the service refused it, five passing failures, an outcome no one can
 * know) for a session whose cart became an order while its code was in line (order-first in a
 * busy minute): no charge exists, so nothing else would ever decide about that order. Each one
 * is decided once, under the collection's lease (decide.ts `decideFailedCreate`): the order is
 * canceled and its stock released (`cancelOrderOnExpiry`, the default), or kept for the
 * merchant, who finds it on the "Needs attention" list (medusa/orders-without-code.ts);
 * either way it stops counting against its shopper's unpaid-order caps.
 */
export async function settleFailedCreates(
  ctx: SettleContext,
  now: Date,
): Promise<FailedCreatesReport> {
  const queue = new CreateQueue(ctx.db);
  const report: FailedCreatesReport = { ordersEnded: 0, ordersKept: 0 };
  const failed = await queue.failedUndecided(
    new Date(now.getTime() - FAILED_CREATE_GRACE_MS),
    BATCH,
  );
  const decided: string[] = [];
  for (const request of failed) {
    try {
      const outcome = await settleOne(ctx, request);
      if (outcome === "ended") report.ordersEnded += 1;
      if (outcome === "kept") report.ordersKept += 1;
      decided.push(request.id);
    } catch (error) {
      // Left undecided: the next pass looks again.
      ctx.logger.warn(
        `deciding the order of failed create ${request.id} failed: ${redact((error as Error).message)}`,
      );
    }
  }
  await queue.failureDecided(decided);
  return report;
}

async function settleOne(
  ctx: SettleContext,
  request: CreateRequestRow,
): Promise<"ended" | "kept" | "nothing"> {
  const collectionId = request.payment_collection_id;
  if (request.error_code === SPENT_SEND || !collectionId) return "nothing";
  let provider;
  try {
    provider = providerByKey(ctx.config, request.provider_key);
  } catch {
    return "nothing"; // A registration removed since: its sessions are no one's to decide.
  }
  const { cancelOrderOnExpiry } = provider.options;
  const decision = await withCollection(
    ctx,
    collectionId,
    cancelOrderOnExpiry,
    "reconcile",
    async (desk) => {
      const { snapshot } = await desk.snapshot();
      const decided = decideFailedCreate(snapshot, request.session_id);
      if (decided.kind === "end_order") {
        const ended = await endOrder(ctx, collectionId, decided.orderId, "reconcile", null);
        if (!ended) throw new Error(`order ${decided.orderId} could not be canceled`);
      }
      return decided;
    },
  );
  if (decision.kind !== "end_order" && decision.kind !== "keep_order") return "nothing";
  const cartId = await cartOfCollection(ctx.container, collectionId);
  if (cartId) await new UnpaidOrders(ctx.db).release(cartId);
  if (decision.kind === "keep_order") {
    await new CreateQueue(ctx.db).keptOrder(request.id, decision.orderId);
    ctx.logger.warn(
      `order ${decision.orderId} waits for a Pix or boleto code that could not be created (${request.error_code ?? "failed"}); cancelOrderOnExpiry is off, so it is kept for the store to decide`,
    );
    return "kept";
  }
  return "ended";
}
