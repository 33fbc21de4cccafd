// The one place that knows where the plugin receives the service's webhooks.

/** The plugin's webhook route (see packages/medusa/README.md). */
export const webhookPath = "/hooks/pix-checkout";

/**
 * The URL the payment service (here, the sandbox) posts events to. An optional secret token
 * rides in the query string, which the plugin compares in constant time.
 * @param {string} storeOrigin e.g. http://127.0.0.1:9000
 * @param {string} [secret]
 */
export function webhookUrl(storeOrigin, secret) {
  const url = new URL(webhookPath, storeOrigin);
  if (secret) url.searchParams.set("token", secret);
  return url.toString();
}
