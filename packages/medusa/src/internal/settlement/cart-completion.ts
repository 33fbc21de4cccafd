import { completeCartWorkflow } from "@medusajs/medusa/core-flows";
import type { ChargeRow } from "../records/charges";
import type { LifecycleSource } from "../records/charge-lifecycle";
import type { SettleContext } from "./context";
import { unlinkOrphanOrder } from "../medusa/orphan-order-links";
import { announceOrderNews } from "../records/charge-channel";

/**
 * Pay-first: turns a captured cart into its order. Medusa's processPaymentWorkflow completes
 * the cart after capturing, but with `continueOnPermanentFailure`, so a failed completion (a
 * lock held by the storefront's own `cart.complete`, a restart, a cart that was not ready)
 * would leave a captured payment with no order. The charge waits for its order from the
 * statement that recorded the capture (`awaiting_order_since`); each try goes on its timeline,
 * and the collection's decision says what follows a failure (decide.ts: try again, or after
 * `CART_COMPLETION_ATTEMPTS` a refund due). A link left to an order that does not exist (a
 * completion undone halfway) is removed first, or Medusa would answer that order's id and
 * create none (medusa/orphan-order-links.ts).
 */
export async function completeCart(
  ctx: SettleContext,
  row: ChargeRow,
  cartId: string,
  source: LifecycleSource,
): Promise<"completed" | "failed"> {
  try {
    await unlinkOrphanOrder(ctx.container, cartId);
    const { result } = await completeCartWorkflow(ctx.container).run({ input: { id: cartId } });
    await ctx.records.events.add({
      chargeId: row.charge_id,
      kind: "cart_completed",
      source,
      detail: { cart_id: cartId, order_id: (result as { id?: string }).id },
    });
    await ctx.lifecycle.orderSeen(row.charge_id);
    // The shopper's page already said the code is paid; its order is the next news.
    await announceOrderNews(ctx.db, [row.charge_id]);
    return "completed";
  } catch (error) {
    const message = (error as Error).message;
    await ctx.records.events.add({
      chargeId: row.charge_id,
      kind: "cart_completion_failed",
      source,
      detail: { cart_id: cartId, message },
    });
    ctx.logger.warn(
      `charge ${row.charge_id} is paid but cart ${cartId} could not become an order (${message}); the reconciliation job retries it`,
    );
    // The shopper's page said `paid`; with no order coming yet it says `confirming`.
    await announceOrderNews(ctx.db, [row.charge_id]);
    return "failed";
  }
}
