import { createServer } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import express from "express";
import { hideWebhookToken, webhookTokenOf } from "./webhook-intake";

// Medusa's own access logger (it ships no types; this is the one call the test makes).
const morgan = createRequire(__filename)("morgan") as (
  format: string,
  options: { stream: { write(line: string): void } },
) => express.RequestHandler;

// Medusa's HTTP access log is morgan writing `:url` (req.originalUrl) when the response ends.
describe("the webhook token and the access log", () => {
  it("the access log line has no token, and the route still reads it", async () => {
    const lines: string[] = [];
    const seen: (string | undefined)[] = [];
    const app = express();
    app.use(morgan(":method :url (:status)", { stream: { write: (l) => void lines.push(l) } }));
    app.post("/hooks/pix-checkout/:provider", hideWebhookToken, (req, res) => {
      seen.push(webhookTokenOf(req));
      res.json({ ok: true });
    });
    const server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const token = "whsec-log-0123456789abcdef";
      const res = await fetch(`http://127.0.0.1:${port}/hooks/pix-checkout/a?token=${token}&x=1`, {
        method: "POST",
      });
      expect(res.status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(seen).toEqual([token]);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain("/hooks/pix-checkout/a?token=[redacted]&x=1");
      expect(lines.join("")).not.toContain(token);
    } finally {
      server.close();
    }
  });
});
