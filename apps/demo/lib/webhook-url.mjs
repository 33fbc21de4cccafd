// The one place that knows where the plugin receives the service's webhooks.

/**
 * The `id` of the plugin's provider registration in medusa-config.ts; the plugin serves one
 * webhook URL per registration, ending in this id.
 */
export const providerRegistrationId = "pix-checkout";

/** The plugin's webhook route for the demo's registration (see packages/medusa/README.md). */
export const webhookPath = `/hooks/pix-checkout/${providerRegistrationId}`;

/**
 * The URL the payment service (here, the sandbox) posts events to. The optional secret token
 * rides in the query string, where the plugin compares it in constant time.
 * @param {string} storeOrigin e.g. http://127.0.0.1:9000
 * @param {string} [secret] The provider's `webhookSecret` option.
 */
export function webhookUrl(storeOrigin, secret) {
  const url = new URL(webhookPath, storeOrigin);
  if (secret) url.searchParams.set("token", secret);
  return url.toString();
}
