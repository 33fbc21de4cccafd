import { describe, expect, it } from "vitest";

// Node's built-in fetch bundles its own, older undici. Whichever undici loads first installs
// the process-wide "global dispatcher", and Medusa's server loads Node's fetch early. The
// client must not hand its requests to that foreign dispatcher, whose handler API differs.
describe("in a process where Node's own fetch came first", () => {
  it("creates and reads a charge through the sandbox", async () => {
    const { startSandbox } = await import("@pix-checkout/sandbox");
    const sandbox = await startSandbox({ variant: "b" });
    try {
      await fetch(`${sandbox.url}/`); // Node's bundled undici claims the global dispatcher
      const { PixClient } = await import("./index.js");
      const client = new PixClient({
        apiKey: sandbox.defaultKey,
        baseUrl: sandbox.baseUrl,
        variant: "b",
      });
      const created = await client.charges.create({ method: "pix", amountCents: 1990 });
      const status = await client.charges.status(created.id);
      expect(status).toMatchObject({ id: created.id, status: "pending", paid: false });
    } finally {
      await sandbox.close();
    }
  });
});
