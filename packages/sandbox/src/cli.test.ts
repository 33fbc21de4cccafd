import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createInterface } from "node:readline";
import { describe, expect, it } from "vitest";

// The CLI runs from the built package, as `npx pix-sandbox` does.
const BIN = fileURLToPath(new URL("../bin/pix-sandbox.js", import.meta.url));

function run(args: string[]) {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  const firstLine = new Promise<string>((resolve) => {
    createInterface({ input: child.stdout }).once("line", resolve);
  });
  return { child, firstLine };
}

describe("pix-sandbox CLI", () => {
  it.each(["a", "b"])(
    "prints a base URL ending in /v1 that serves variant %s with the default key",
    async (variant) => {
      const { child, firstLine } = run(["--port", "0", "--variant", variant]);
      try {
        const baseUrl = await firstLine;
        expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
        const response = await fetch(`${baseUrl}/charges`, {
          method: "POST",
          headers: {
            authorization: "Bearer sk_live_sandbox_default",
            "content-type": "application/json",
          },
          body: JSON.stringify({ amount: 1990, payment_method: "pix" }),
        });
        const body = (await response.json()) as { uuid?: string; id?: string };
        expect(response.status).toBe(201);
        expect(variant === "a" ? body.uuid : body.id).toBeTruthy();
      } finally {
        child.kill("SIGTERM");
      }
      const [code] = await once(child, "exit");
      expect(code).toBe(0);
    },
  );

  it("sends webhooks with a generated token when --webhook-url has none, and prints it once", async () => {
    const { createServer } = await import("node:http");
    const seen: string[] = [];
    const hook = createServer((req, res) => {
      seen.push(req.url ?? "");
      res.end("ok");
    });
    await new Promise<void>((resolve) => hook.listen(0, "127.0.0.1", resolve));
    const port = (hook.address() as { port: number }).port;
    const { child, firstLine } = run([
      "--port",
      "0",
      "--variant",
      "a",
      "--webhook-url",
      `http://127.0.0.1:${port}/hooks/pix-checkout/a`,
    ]);
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    try {
      const baseUrl = await firstLine;
      const created = await fetch(`${baseUrl}/charges`, {
        method: "POST",
        headers: {
          authorization: "Bearer sk_live_sandbox_default",
          "content-type": "application/json",
        },
        body: JSON.stringify({ amount: 1990, payment_method: "pix" }),
      });
      const { uuid } = (await created.json()) as { uuid: string };
      await fetch(`${baseUrl.replace(/\/v1$/, "")}/__sandbox/charges/${uuid}/pay`, {
        method: "POST",
      });
      for (let i = 0; i < 50 && seen.length === 0; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const token = stderr.match(
        /webhookSecret \(PIX_WEBHOOK_SECRET\) to ([A-Za-z0-9_-]{24})/,
      )?.[1];
      expect(token).toBeTruthy();
      expect(seen[0]).toBe(`/hooks/pix-checkout/a?token=${token}`);
    } finally {
      child.kill("SIGTERM");
      hook.close();
    }
  });

  it("accepts only the --key given when one is", async () => {
    const { child, firstLine } = run([
      "--port",
      "0",
      "--variant",
      "a",
      "--key",
      "sk_live_cli_custom_1",
    ]);
    try {
      const baseUrl = await firstLine;
      const ok = await fetch(`${baseUrl}/balance`, {
        headers: { authorization: "Bearer sk_live_cli_custom_1" },
      });
      const old = await fetch(`${baseUrl}/balance`, {
        headers: { authorization: "Bearer sk_live_sandbox_default" },
      });
      expect(ok.status).toBe(200);
      expect(old.status).toBe(401);
    } finally {
      child.kill("SIGTERM");
      await once(child, "exit");
    }
  });

  it("keeps charges across a restart with --state", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pix-cli-"));
    const state = join(dir, "state.json");
    const first = run(["--port", "0", "--variant", "b", "--state", state]);
    let id = "";
    try {
      const baseUrl = await first.firstLine;
      const response = await fetch(`${baseUrl}/charges`, {
        method: "POST",
        headers: {
          authorization: "Bearer sk_live_sandbox_default",
          "content-type": "application/json",
        },
        body: JSON.stringify({ amount: 1990 }),
      });
      id = ((await response.json()) as { id: string }).id;
    } finally {
      first.child.kill("SIGTERM");
      await once(first.child, "exit");
    }
    const second = run(["--port", "0", "--variant", "b", "--state", state]);
    try {
      const baseUrl = await second.firstLine;
      const response = await fetch(`${baseUrl}/charges/${id}/status`, {
        headers: { authorization: "Bearer sk_live_sandbox_default" },
      });
      expect(response.status).toBe(200);
    } finally {
      second.child.kill("SIGTERM");
      await once(second.child, "exit");
    }
  });

  it("exits 2 naming an extra bank holiday that is not a day", async () => {
    const child = spawn(
      process.execPath,
      [BIN, "--bank-holiday", "01-25", "--bank-holiday", "2027-13-01"],
      {
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const [code] = await once(child, "exit");
    expect(code).toBe(2);
    expect(stderr).toMatch(/--bank-holiday "2027-13-01" is not a day: write YYYY-MM-DD or MM-DD/);
  });

  it("exits 2 with a usage message for an unknown variant", async () => {
    const child = spawn(process.execPath, [BIN, "--variant", "c"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const [code] = await once(child, "exit");
    expect(code).toBe(2);
    expect(stderr).toMatch(/--variant must be a or b/);
  });
});
