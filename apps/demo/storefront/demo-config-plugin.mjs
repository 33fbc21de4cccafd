// Hands the storefront its runtime settings (store URL, publishable key, region) as the
// virtual module `virtual:pix-demo-config`, so the page needs no .env file and no rebuild
// when the seed makes a new key.

const id = "virtual:pix-demo-config";
const resolvedId = `\0${id}`;

/**
 * @typedef {object} StorefrontConfig
 * @property {string} backendUrl The Medusa store, e.g. http://localhost:9000.
 * @property {string} publishableKey Sent as x-publishable-api-key on every /store request.
 * @property {string} [regionId] The BRL region; looked up by currency when missing.
 * @property {string} [sandboxUrl] Shown as a link so the shopper can "pay" in the sandbox.
 */

/**
 * @param {StorefrontConfig} config
 * @returns {import("vite").Plugin}
 */
export function demoConfigPlugin(config) {
  return {
    name: "pix-demo-config",
    resolveId: (source) => (source === id ? resolvedId : undefined),
    load: (loaded) =>
      loaded === resolvedId ? `export default ${JSON.stringify(config)};` : undefined,
  };
}

/**
 * The storefront's Vite configuration, shared by `npm run demo` and a standalone `vite`.
 * @param {StorefrontConfig} config
 * @returns {import("vite").InlineConfig}
 */
export function storefrontConfig(config) {
  const here = new URL(".", import.meta.url).pathname;
  const repo = new URL("../../../", import.meta.url).pathname;
  const messages = `${repo}packages/element/src/messages.ts`;
  return {
    root: here,
    // Not Vite's default (apps/demo/node_modules/.vite): the admin's Vite inside Medusa
    // uses that one, and two servers sharing it invalidate each other's optimized deps.
    cacheDir: new URL("../node_modules/.vite-storefront", import.meta.url).pathname,
    plugins: [demoConfigPlugin(config)],
    // The shopper messages are the element's module, read from its source: the shop says
    // what went wrong in Portuguese even before the element has a build.
    resolve: { alias: { "@pix-checkout/element/messages": messages } },
    clearScreen: false,
    server: {
      host: "127.0.0.1",
      strictPort: true,
      // Vite's dev server serves any file of the workspace under /@fs/ by default: the demo's
      // medusa-config (API key), .data/ (admin password, payers' CPFs in the sandbox state)
      // and logs would be one URL away. Serve the storefront, the packages it imports and
      // nothing else.
      fs: {
        strict: true,
        allow: [here, `${repo}node_modules`, `${repo}packages/element/dist`, messages],
        deny: [
          ".env",
          ".env.*",
          "*.{crt,pem,key}",
          "**/.data/**",
          "**/*.log",
          "**/medusa-config.*",
        ],
      },
    },
    preview: { host: "127.0.0.1", strictPort: true },
    build: { target: "es2022" },
  };
}
