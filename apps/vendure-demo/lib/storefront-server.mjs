// The Vendure demo's storefront: one page and its script (storefront/), and the element's
// built bundle, served as files from an origin of their own. Nothing to build: the page talks to
// Vendure's Shop API with fetch, and <pix-checkout> to the plugin's session route.
import { readFile } from "node:fs/promises";
import http from "node:http";
import { once } from "node:events";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const PAGE_DIR = fileURLToPath(new URL("../storefront/", import.meta.url));
const ELEMENT_DIR = path.join(
  path.dirname(createRequire(import.meta.url).resolve("@pix-checkout/element/package.json")),
  "dist",
);

const TYPES = { ".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8" };

/**
 * @param {{ host: string, port: number, storeUrl: string }} options
 * @returns {Promise<{ url: string, close: () => Promise<void> }>}
 */
export async function startVendureStorefront(options) {
  const server = http.createServer(async (request, response) => {
    const { pathname } = new URL(request.url ?? "/", "http://storefront");
    const file = fileOf(pathname);
    if (!file || request.method !== "GET") {
      response.writeHead(404, { "content-type": "text/plain; charset=utf-8" });
      response.end("Página não encontrada.");
      return;
    }
    try {
      let body = await readFile(file);
      if (pathname === "/" || pathname === "/index.html") {
        // The store's address, for the page's script and the element's backend-url.
        body = Buffer.from(body.toString("utf8").replaceAll("__STORE_URL__", options.storeUrl));
      }
      response.writeHead(200, {
        "content-type": TYPES[path.extname(file)] ?? "application/octet-stream",
        "cache-control": "no-store",
      });
      response.end(body);
    } catch {
      response.writeHead(404, { "content-type": "text/plain; charset=utf-8" });
      response.end("Página não encontrada.");
    }
  });
  server.listen({ host: options.host, port: options.port });
  await Promise.race([
    once(server, "listening"),
    once(server, "error").then(([error]) => Promise.reject(error)),
  ]);
  return {
    url: `http://${options.host}:${options.port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(() => resolve(undefined)));
    },
  };
}

/** The file a path names: the page, its script, or a file of the element's bundle; else null. */
function fileOf(pathname) {
  if (pathname === "/" || pathname === "/index.html") return path.join(PAGE_DIR, "index.html");
  if (pathname === "/shop.js") return path.join(PAGE_DIR, "shop.js");
  if (pathname.startsWith("/element/")) {
    const file = path.normalize(path.join(ELEMENT_DIR, pathname.slice("/element/".length)));
    // Only the bundle's own files: no way out of its folder.
    return file.startsWith(ELEMENT_DIR + path.sep) && file.endsWith(".js") ? file : null;
  }
  return null;
}
