import type { ConfigModule } from "@medusajs/framework/types";

/**
 * The payment link of an order's own collection, as Medusa's order page copies it ("Copy
 * payment link"): `${admin.storefrontUrl}/payment-collection/<collection id>?order_id=<order id>`.
 * With `admin.storefrontUrl` set to the Medusa server's `/pix-checkout`, it opens the plugin's
 * own payment page (storefront/collection-page.ts); set to a storefront, that storefront's page
 * (or its redirect to the plugin's). Null when the store never set `admin.storefrontUrl`:
 * Medusa's button then copies a `localhost` link, which the plugin does not repeat in a message.
 */
export function collectionPageUrl(
  config: ConfigModule,
  paymentCollectionId: string,
  orderId: string,
): string | null {
  const base = (config.admin as { storefrontUrl?: unknown } | undefined)?.storefrontUrl;
  if (typeof base !== "string" || !/^https?:\/\/\S+$/.test(base)) return null;
  return `${base.replace(/\/+$/, "")}/payment-collection/${encodeURIComponent(paymentCollectionId)}?order_id=${encodeURIComponent(orderId)}`;
}
