// Serves the Vite storefront in this process. Vite runs in middleware mode behind our own
// HTTP server: a standalone Vite server installs a SIGTERM handler (and a stdin "end"
// handler) that exits the whole process, which would cut the demo's orderly stop short.
import http from "node:http";
import { once } from "node:events";
import { createServer } from "vite";
import { storefrontConfig } from "../storefront/demo-config-plugin.mjs";

/**
 * @param {{ host: string, port: number, config: import("../storefront/demo-config-plugin.mjs").StorefrontConfig }} options
 * @returns {Promise<{ url: string, close: () => Promise<void> }>}
 */
export async function startStorefront(options) {
  const httpServer = http.createServer();
  const base = storefrontConfig(options.config);
  const vite = await createServer({
    ...base,
    plugins: [...(base.plugins ?? []), quietClient()],
    configFile: false,
    logLevel: "warn",
    appType: "spa",
    // A demo page, not a workbench: no file watching and no hot reload, so rebuilding a
    // workspace package (the element) never reloads a shopper's page mid-checkout. For
    // editing the storefront, run Vite on storefront/vite.config.mjs instead. The shared
    // `server` settings stay, above all `fs`: without them /@fs/ serves the whole workspace.
    // `ws: false`: no WebSocket server either, so two demos on one machine do not both want
    // Vite's port 24678.
    server: { ...base.server, middlewareMode: true, hmr: false, ws: false, watch: null },
  });
  httpServer.on("request", vite.middlewares);
  httpServer.listen({ host: options.host, port: options.port });
  try {
    await Promise.race([
      once(httpServer, "listening"),
      once(httpServer, "error").then(([error]) => Promise.reject(error)),
    ]);
    // Compile the entry now rather than on the shopper's first visit.
    await vite.warmupRequest("/src/main.ts");
  } catch (error) {
    await vite.close();
    httpServer.close();
    throw error;
  }
  return {
    url: `http://localhost:${options.port}`,
    close: async () => {
      await vite.close();
      httpServer.closeAllConnections();
      await new Promise((resolve) => httpServer.close(() => resolve(undefined)));
    },
  };
}

/**
 * Vite's page client (`/@vite/client`) connects to the HMR WebSocket whatever `hmr: false`
 * says, and with no WebSocket server every page logged a failed connection and an uncaught
 * error. Its connection call is taken out; the rest of the client (the CSS it injects) stays.
 * The build stops if Vite's client no longer has that call, so the demo never silently keeps
 * the error.
 * @returns {import("vite").Plugin}
 */
function quietClient() {
  const connect = "transport.connect(createHMRHandler(handleMessage));";
  return {
    name: "pix-demo-quiet-client",
    transform(code, id) {
      if (!/vite\/dist\/client\/client\.mjs$/.test(id.split("?")[0])) return undefined;
      if (!code.includes(connect)) {
        throw new Error("Vite's client has changed: lib/storefront.mjs cannot keep it quiet");
      }
      return code.replace(connect, "/* no HMR server in the demo (lib/storefront.mjs) */");
    },
  };
}
