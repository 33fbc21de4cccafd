// Starts the payment-service sandbox in this process, wired to the store's webhook route.
import { webhookUrl } from "./webhook-url.mjs";

/**
 * @typedef {object} DemoSandbox
 * @property {import("@pix-checkout/sandbox").Sandbox} handle What `startSandbox` returned,
 *   for tests (clock, deliveries, reset).
 * @property {string} url e.g. http://127.0.0.1:4010
 * @property {string} baseUrl e.g. http://127.0.0.1:4010/v1
 * @property {number} port
 * @property {string} apiKey The secret key the plugin authenticates with. Never printed.
 * @property {string} webhookUrlForDisplay The webhook URL with any secret token masked.
 * @property {() => Promise<void>} close
 */

/**
 * @param {{
 *   variant: "a" | "b",
 *   host: string,
 *   port: number,
 *   storeOrigin: string,
 *   webhookSecret?: string,
 *   statePath?: string,
 * }} options
 * @returns {Promise<DemoSandbox>}
 */
export async function startSandboxFor(options) {
  let startSandbox;
  try {
    ({ startSandbox } = await import("@pix-checkout/sandbox"));
  } catch (error) {
    throw new Error(
      `The sandbox package could not be loaded (${/** @type {Error} */ (error).message}). ` +
        "Build it with `npm run build -w @pix-checkout/sandbox`.",
    );
  }
  const sandbox = await startSandbox({
    variant: options.variant,
    host: options.host,
    port: options.port,
    webhookUrls: [webhookUrl(options.storeOrigin, options.webhookSecret)],
    statePath: options.statePath,
  });
  return {
    handle: sandbox,
    url: sandbox.url,
    baseUrl: sandbox.baseUrl,
    port: Number(new URL(sandbox.url).port),
    apiKey: sandbox.defaultKey,
    webhookUrlForDisplay: webhookUrl(options.storeOrigin, options.webhookSecret && "***"),
    close: () => sandbox.close(),
  };
}
