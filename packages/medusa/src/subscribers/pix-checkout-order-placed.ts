import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework";
import { redact } from "@pix-checkout/client";
import { settleContext } from "../internal/settlement/context";
import { settlePaid } from "../internal/settlement/settle";
import { collectionsOfOrder } from "../internal/medusa/collection-links";

/**
 * A cart became an order. In a pay-first checkout the shopper's own `cart.complete` captured
 * the payment (the provider's `authorizePayment` answered `captured`): settling the order's
 * paid charges now records that capture at once (`pix_checkout.charge.captured`, the shopper's
 * e-mail), instead of when the capture claim `authorizePayment` took lapses, and a captured
 * charge stops waiting for its order. Settling asks the collection's one decision, so this
 * door captures nothing that is held or due a refund.
 */
export default async function pixCheckoutOrderPlaced({
  event,
  container,
}: SubscriberArgs<{ id: string }>): Promise<void> {
  const collections = await collectionsOfOrder(container, event.data.id);
  if (collections.length === 0) return;
  const ctx = settleContext(container);
  for (const id of collections) {
    for (const row of await ctx.records.charges.ofCollection(id)) {
      // Money still held, or captured and still waiting to see this order.
      const open = Number(row.held_cents) > 0 || row.awaiting_order_since !== null;
      if (row.status !== "paid" || !open) continue;
      await settlePaid(ctx, row, "order_placed").catch((error: unknown) =>
        ctx.logger.warn(
          `charge ${row.charge_id} is paid; recording its capture after order ${event.data.id} was placed failed, and reconciliation retries it: ${redact((error as Error).message ?? String(error))}`,
        ),
      );
    }
  }
}

export const config: SubscriberConfig = { event: "order.placed" };
