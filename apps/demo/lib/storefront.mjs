// Serves the Vite storefront in this process.
import { createServer } from "vite";
import { storefrontConfig } from "../storefront/demo-config-plugin.mjs";

/**
 * @param {{ host: string, port: number, config: import("../storefront/demo-config-plugin.mjs").StorefrontConfig }} options
 * @returns {Promise<{ url: string, close: () => Promise<void> }>}
 */
export async function startStorefront(options) {
  const base = storefrontConfig(options.config);
  const server = await createServer({
    ...base,
    configFile: false,
    logLevel: "warn",
    server: { ...base.server, host: options.host, port: options.port },
  });
  await server.listen();
  // Compile the entry now rather than on the shopper's first visit.
  await server.warmupRequest("/src/main.ts");
  return { url: `http://localhost:${options.port}`, close: () => server.close() };
}
