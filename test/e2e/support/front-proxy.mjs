// The proxy a shopper-facing Next.js store always has in front of `next start` (which speaks no
// HTTPS): it passes each request on and appends the address that connected to
// `X-Forwarded-For`, as nginx's `$proxy_add_x_forwarded_for`, Caddy and load balancers do. So the
// storefront's `PIX_PROXY_HOPS=1` (the default) names the shopper, whatever the shopper wrote.
import { createServer, request } from "node:http";

/**
 * Starts the proxy on 127.0.0.1:`port` (0: a free one) in front of `target`.
 * @param {string} target e.g. "http://127.0.0.1:3000"
 * @param {number} [port]
 * @returns {Promise<{ url: string, close: () => Promise<void> }>}
 */
export async function startFrontProxy(target, port = 0) {
  const upstream = new URL(target);
  const server = createServer((req, res) => {
    const peer = req.socket.remoteAddress ?? "";
    const prior = req.headers["x-forwarded-for"];
    const headers = {
      ...req.headers,
      "x-forwarded-for": prior ? `${prior}, ${peer}` : peer,
      host: req.headers.host ?? upstream.host,
    };
    const forward = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
        answer.pipe(res);
      },
    );
    forward.on("error", () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(forward);
  });
  await new Promise((resolve) => server.listen(port, "127.0.0.1", () => resolve(undefined)));
  const address = server.address();
  const listening = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${listening}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
