import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework";
import { redact } from "@pix-checkout/client";
import { settleContext, type SettleContext } from "../internal/settlement/context";
import { settlePaid } from "../internal/settlement/settle";
import { collectionsOfOrder } from "../internal/medusa/collection-links";
import { buyerDocumentOfCharges } from "../internal/checkout/buyer-document";
import type { BuyerDocument } from "../internal/platform/buyer-document";
import { ownPluginKeysOfOrder } from "../internal/checkout/order-buyer-document";

/**
 * A cart became an order. In a pay-first checkout the shopper's own `cart.complete` captured
 * the payment (the provider's `authorizePayment` answered `captured`): settling the order's
 * paid charges now records that capture at once (`pix_checkout.charge.captured`, the shopper's
 * e-mail), instead of when the capture claim `authorizePayment` took lapses, and a captured
 * charge stops waiting for its order. Settling asks the collection's one decision, so this
 * door captures nothing that is held or due a refund.
 *
 * Whichever came first, the order or the payment, the order is also given the buyer's CPF or
 * CNPJ its charge was created with (README "Nota fiscal"), from the plugin's own records. And
 * every order, the plugin's or not, keeps only the `pix_checkout_*` metadata keys the plugin
 * stands behind: Medusa copies the cart's metadata onto the order, and a key the store routes
 * did not refuse (a cart of an older release, a write through Medusa's cart module) would
 * otherwise show as the buyer's document in the order widget, the CSV and the OFX.
 */
export default async function pixCheckoutOrderPlaced({
  event,
  container,
}: SubscriberArgs<{ id: string }>): Promise<void> {
  const ctx = settleContext(container);
  // Most of a store's orders are not the plugin's: one statement tells, before Query's reads
  // of the order's collections (bench/store-cost.mjs).
  if (!(await ctx.records.charges.anyOfOrder(event.data.id))) {
    // A card order carries none of the plugin's keys but the cart's chosen method: one read,
    // and a write only when a key the plugin did not write came with the cart.
    await ownKeys(ctx, event.data.id, undefined);
    return;
  }
  const collections = await collectionsOfOrder(container, event.data.id);
  const rows = (
    await Promise.all(collections.map((id) => ctx.records.charges.ofCollection(id)))
  ).flat();
  await ownKeys(ctx, event.data.id, buyerDocumentOfCharges(rows));
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

/**
 * The order's `pix_checkout_*` keys as the plugin's records say (see `ownPluginKeysOfOrder`).
 * A failure is logged and the order.placed work goes on: settling the order's charges must not
 * wait on its metadata.
 */
async function ownKeys(
  ctx: SettleContext,
  orderId: string,
  document: BuyerDocument | undefined,
): Promise<void> {
  await ownPluginKeysOfOrder(ctx.container, ctx.db, orderId, document).catch((error: unknown) =>
    // Never the document itself in a log (LGPD).
    ctx.logger.warn(
      `order ${orderId}: writing the plugin's metadata (the buyer's CPF/CNPJ) on the order failed (${redact((error as Error).message ?? String(error)).replace(/[0-9A-Z]{11,14}/g, "…")})`,
    ),
  );
}
