/**
 * Medusa's "Copy payment link" (an order edit's, exchange's or claim's difference, a draft
 * order's total) when a store's `admin.storefrontUrl` is this storefront:
 * `/payment-collection/<collection id>?order_id=<order id>`. The plugin's own page on the store
 * collects it (`/pix-checkout/payment-collection/…`): it reads the amount from Medusa, refuses a
 * collection that is not that order's, is paid or canceled, and makes the code with the store's
 * rules, so this storefront only sends the customer there. Null for any other path. Only ids of
 * Medusa's shape go into the address; anything else goes as nothing, and the store's page says
 * the link is not valid.
 */
export function paymentCollectionPage(
  pathname: string,
  search: string,
  backendUrl: string,
): string | null {
  const match = /^\/payment-collection\/([^/]+)\/?$/.exec(pathname);
  if (!match) return null;
  const id = /^pay_col_[A-Za-z0-9]{10,40}$/.test(match[1]!) ? match[1]! : "invalid";
  const order = new URLSearchParams(search).get("order_id") ?? "";
  const orderId = /^order_[A-Za-z0-9]{10,40}$/.test(order) ? order : "";
  return `${backendUrl.replace(/\/+$/, "")}/pix-checkout/payment-collection/${id}?order_id=${orderId}`;
}
