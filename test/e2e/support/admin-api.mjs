// What the merchant sees of orders, through Medusa's admin API with the demo's admin login.

/**
 * Logs in as the admin and returns a bearer token.
 * @param {string} storeUrl
 * @param {{ email: string, password: string }} admin
 */
export async function adminToken(storeUrl, admin) {
  const response = await fetch(`${storeUrl}/auth/user/emailpass`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(admin),
  });
  const body = await response.json();
  if (!response.ok || typeof body.token !== "string") {
    throw new Error(`admin login failed: ${response.status} ${JSON.stringify(body)}`);
  }
  return body.token;
}

/**
 * @typedef {{ id: string, display_id: number, email: string | null, status: string,
 *   payment_status: string, total: number, discount_total: number }} AdminOrder
 */

/**
 * The newest orders, as the admin's order list shows them.
 * @param {string} storeUrl
 * @param {string} token
 * @returns {Promise<AdminOrder[]>}
 */
export async function listOrders(storeUrl, token) {
  const query = new URLSearchParams({
    fields: "id,display_id,email,status,payment_status,total,discount_total",
    order: "-created_at",
    limit: "50",
  });
  const response = await fetch(`${storeUrl}/admin/orders?${query}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const body = await response.json();
  if (!response.ok)
    throw new Error(`GET /admin/orders: ${response.status} ${JSON.stringify(body)}`);
  return body.orders;
}

/**
 * @typedef {{ type: "state", kind: string, source: string, from_status: string | null,
 *   to_status: string } | { type: "delivery", [key: string]: unknown }} TimelineEntry
 */

/**
 * The plugin's charges of an order with their timelines, as its order widget shows them.
 * @param {string} storeUrl
 * @param {string} token
 * @param {string} orderId
 * @returns {Promise<Array<{ charge_id: string, status: string, timeline: TimelineEntry[] }>>}
 */
export async function orderCharges(storeUrl, token, orderId) {
  const response = await fetch(`${storeUrl}/admin/pix-checkout/orders/${orderId}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const body = await response.json();
  if (!response.ok) {
    throw new Error(`GET /admin/pix-checkout/orders: ${response.status} ${JSON.stringify(body)}`);
  }
  return body.charges;
}

/**
 * The buyer's CPF or CNPJ on Medusa's order, as an NF-e integration reads it through Medusa's
 * own admin API (`metadata.pix_checkout_buyer_document`); undefined when it has none.
 * @param {string} storeUrl
 * @param {string} token
 * @param {string} orderId
 * @returns {Promise<{ type: "cpf" | "cnpj", number: string } | undefined>}
 */
export async function orderBuyerDocument(storeUrl, token, orderId) {
  const response = await fetch(`${storeUrl}/admin/orders/${orderId}?fields=id,metadata`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const body = await response.json();
  if (!response.ok)
    throw new Error(`GET /admin/orders/${orderId}: ${response.status} ${JSON.stringify(body)}`);
  return body.order.metadata?.pix_checkout_buyer_document;
}

/**
 * One call of Medusa's admin API as the logged-in merchant (cancel an order, edit it): the
 * answer's body, or an error naming the route and what it answered.
 * @param {string} storeUrl
 * @param {string} token
 * @param {string} method
 * @param {string} route
 * @param {unknown} [body]
 * @returns {Promise<any>}
 */
export async function adminCall(storeUrl, token, method, route, body) {
  const response = await fetch(`${storeUrl}${route}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok)
    throw new Error(`${method} ${route}: ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}
