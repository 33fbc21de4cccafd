import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startSandbox } from "./index.js";
import { startHarness } from "./test-support/harness.js";

const tempFile = (): string => join(mkdtempSync(join(tmpdir(), "pix-sandbox-")), "state.json");

describe.each(["a", "b"] as const)("state file, variant %s", (variant) => {
  it("keeps charges, their states and the clock across a restart", async () => {
    const statePath = tempFile();
    const first = await startHarness({ variant, statePath });
    const paid = first.idOf(await first.createPix(1990));
    const pending = first.idOf(await first.createPix(2990));
    await first.control("POST", `/charges/${paid}/pay`);
    first.sandbox.clock.advance(60_000);
    const offset = first.sandbox.clock.now() - Date.now();
    await first.close();

    const second = await startHarness({ variant, statePath });
    try {
      expect((await second.call("GET", `/v1/charges/${paid}/status`)).body.status).toBe("paid");
      expect((await second.call("GET", `/v1/charges/${pending}/status`)).body.status).toBe(
        "pending",
      );
      expect(second.sandbox.clock.now() - Date.now()).toBeGreaterThanOrEqual(offset - 1_000);
    } finally {
      await second.close();
    }
  });

  it("keeps a disabled key disabled across a restart", async () => {
    const statePath = tempFile();
    const first = await startHarness({ variant, statePath });
    await first.control("POST", "/keys", { key: first.sandbox.defaultKey, state: "disabled" });
    await first.close();
    const second = await startHarness({ variant, statePath });
    try {
      expect((await second.call("GET", "/v1/balance")).body.error.code).toBe("api_key_disabled");
    } finally {
      await second.close();
    }
  });

  it("never writes a secret key into the file", async () => {
    const statePath = tempFile();
    const first = await startHarness({
      variant,
      statePath,
      keys: ["sk_live_secret_never_on_disk"],
    });
    await first.call("POST", "/v1/charges", {
      key: "sk_live_secret_never_on_disk",
      body: { amount: 1000, payment_method: "pix" },
    });
    await first.close();
    expect(readFileSync(statePath, "utf8")).not.toContain("sk_live_secret_never_on_disk");
  });

  it("expires, at start, a charge whose expires_at passed while the sandbox was down", async () => {
    const statePath = tempFile();
    const first = await startHarness({ variant, statePath, pixExpirySeconds: 1 });
    const id = first.idOf(await first.createPix());
    await first.close();
    const file = JSON.parse(readFileSync(statePath, "utf8"));
    file.clock_offset_ms += 5_000; // as if time had passed while down
    writeFileSync(statePath, JSON.stringify(file));
    const second = await startHarness({ variant, statePath });
    try {
      expect((await second.call("GET", `/v1/charges/${id}/status`)).body.status).toBe("expired");
    } finally {
      await second.close();
    }
  });
});

describe("state file errors", () => {
  it("refuses to start on a file written by the other variant", async () => {
    const statePath = tempFile();
    await (await startSandbox({ variant: "a", statePath })).close();
    await expect(startSandbox({ variant: "b", statePath })).rejects.toThrow(/belongs to variant a/);
  });

  it("refuses to start on a file that is not JSON", async () => {
    const statePath = tempFile();
    writeFileSync(statePath, "not json");
    await expect(startSandbox({ variant: "a", statePath })).rejects.toThrow(/not valid JSON/);
  });

  it("keeps Variant B idempotency across a restart", async () => {
    const statePath = tempFile();
    const first = await startHarness({ variant: "b", statePath });
    const created = await first.call("POST", "/v1/charges", {
      body: { amount: 1990 },
      headers: { "idempotency-key": "k-1" },
    });
    await first.close();
    const second = await startHarness({ variant: "b", statePath });
    try {
      const replay = await second.call("POST", "/v1/charges", {
        body: { amount: 1990 },
        headers: { "idempotency-key": "k-1" },
      });
      expect(replay.body.id).toBe(created.body.id);
      expect(replay.body.pix.qr_code).toBe(created.body.pix.qr_code);
    } finally {
      await second.close();
    }
  });
});
