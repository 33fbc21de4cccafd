import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import express from "express";
import { pixCheckoutErrorHandler } from "./route-failures";
import { PixCheckoutError } from "../platform/errors";

/** What a lost connection to Postgres raises through node-postgres. */
const lostConnection = () => new Error("Connection terminated unexpectedly");

// A real Express app (Medusa's) with routes that fail the ways the plugin's can, and the
// handler at the end, as Medusa mounts it; the integration suite runs it inside Medusa.
const app = express();
const logged: string[] = [];
app.use((req, _res, next) => {
  (req as unknown as { scope: unknown }).scope = {
    resolve: () => ({
      info() {},
      warn() {},
      error: (line: string) => void logged.push(line),
    }),
  };
  next();
});
app.get("/store/pix-checkout/sessions/:id", () => {
  throw lostConnection();
});
app.get("/store/pix-checkout/bug/:id", () => {
  throw new TypeError("x is undefined");
});
app.get("/pix-checkout/recovery/:token/bug", () => {
  throw Object.assign(new Error("duplicate key value violates unique constraint"), {
    code: "23505",
  });
});
app.get("/store/pix-checkout/refused/:id", () => {
  throw new PixCheckoutError("session_not_found", "No such session.");
});
app.get("/store/carts/:id", () => {
  throw lostConnection();
});
app.get("/pix-checkout/recovery/:token", () => {
  throw lostConnection();
});
app.get("/store/pix-checkout/sessions/:id/stream", (_req, res, next) => {
  res.writeHead(200, { "content-type": "text/event-stream" });
  res.write("data: {}\n\n");
  next(lostConnection());
});
app.use(pixCheckoutErrorHandler() as unknown as express.ErrorRequestHandler);

let server: Server;
let port: number;
beforeAll(async () => {
  server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** A raw GET (fetch would re-encode a broken escape), or the socket error that ended it. */
function get(
  path: string,
): Promise<{ status: number; headers: Record<string, unknown>; text: string } | Error> {
  return new Promise((resolve) => {
    request({ host: "127.0.0.1", port, path }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      res.on("error", (error) => resolve(error));
    })
      .on("error", (error) => resolve(error))
      .end();
  });
}

describe("the plugin's error handler", () => {
  it("answers a failure of the store's database 503 store_unavailable with Retry-After", async () => {
    const answer = await get("/store/pix-checkout/sessions/payses_1");
    expect(answer).not.toBeInstanceOf(Error);
    if (answer instanceof Error) return;
    expect(answer.status).toBe(503);
    expect(answer.headers["retry-after"]).toBe("3");
    expect(answer.headers["access-control-expose-headers"]).toBe("Retry-After");
    expect(JSON.parse(answer.text)).toEqual({
      code: "store_unavailable",
      message: expect.stringMatching(/nothing was charged or changed/),
    });
    expect(answer.text).not.toContain("terminated");
  });

  it("answers a page a page that asks again by itself (no timed reload), and logs without the page's token", async () => {
    logged.length = 0;
    const answer = await get("/pix-checkout/recovery/rk_secret_token_0123456789");
    if (answer instanceof Error) throw answer;
    expect(answer.status).toBe(503);
    expect(answer.headers["content-type"]).toMatch(/text\/html/);
    expect(answer.text).not.toContain("http-equiv");
    const nonce = /script-src 'nonce-([^']+)'/.exec(
      String(answer.headers["content-security-policy"]),
    )?.[1];
    expect(nonce).toBeTruthy();
    expect(answer.text).toContain(`<script nonce="${nonce}">`);
    expect(answer.text).toContain('"waitMs":3000');
    expect(answer.text).toContain("Tentar agora");
    expect(logged.join("\n")).toContain("/pix-checkout/recovery");
    expect(logged.join("\n")).not.toContain("rk_secret_token");
  });

  it("answers a broken percent-escape 400 invalid_path", async () => {
    for (const broken of ["%", "%zz", "%E0%A4%A"]) {
      const answer = await get(`/store/pix-checkout/sessions/${broken}`);
      if (answer instanceof Error) throw answer;
      expect([answer.status, JSON.parse(answer.text).code]).toEqual([400, "invalid_path"]);
    }
  });

  it("answers a bug 500 internal_error with the error id of the log line that holds its stack", async () => {
    logged.length = 0;
    const bug = await get("/store/pix-checkout/bug/1");
    if (bug instanceof Error) throw bug;
    expect(bug.status).toBe(500);
    const body = JSON.parse(bug.text) as { code: string; message: string };
    expect(body.code).toBe("internal_error");
    expect(body.message).not.toMatch(/try again|retry/i);
    expect(bug.headers["retry-after"]).toBeUndefined();
    const id = /error id ([0-9a-f-]{36})/.exec(body.message)?.[1];
    expect(id).toBeDefined();
    const line = logged.find((l) => l.includes(`unexpected error ${id}`));
    expect(line).toMatch(/GET \/store\/pix-checkout\/bug/);
    expect(line).toMatch(/TypeError: x is undefined\n\s+at /);
    // The answer names no file or frame: only the id.
    expect(bug.text).not.toMatch(/x is undefined|\.ts:/);
  });

  it("takes a constraint violation on a page for a bug too, logged without the page's token", async () => {
    logged.length = 0;
    const bug = await get("/pix-checkout/recovery/rk_secret_token_0123456789/bug");
    if (bug instanceof Error) throw bug;
    expect([bug.status, JSON.parse(bug.text).code]).toEqual([500, "internal_error"]);
    expect(logged.join("\n")).toContain("unexpected error");
    expect(logged.join("\n")).not.toContain("rk_secret_token");
  });

  it("leaves the plugin's own refusals, and every other path of the store, to Medusa's own handler", async () => {
    const refused = await get("/store/pix-checkout/refused/1");
    if (refused instanceof Error) throw refused;
    expect([refused.status, JSON.parse(refused.text).code]).toEqual([404, "session_not_found"]);
    const medusa = await get("/store/carts/cart_1");
    if (medusa instanceof Error) throw medusa;
    expect(medusa.status).toBe(500);
    expect(medusa.text).not.toContain("store_unavailable");
    expect(medusa.text).not.toContain("internal_error");
  });

  it("ends a stream already under way instead of writing a status into it", async () => {
    const answer = await get("/store/pix-checkout/sessions/payses_1/stream");
    // Express's final handler closes the connection: the body ends early or the socket resets.
    if (!(answer instanceof Error)) {
      expect(answer.status).toBe(200);
      expect(answer.text).not.toContain("store_unavailable");
    }
  });
});
