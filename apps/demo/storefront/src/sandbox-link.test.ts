import { describe, expect, it } from "vitest";
import { sandboxPageOf } from "./sandbox-link";

describe("sandboxPageOf", () => {
  const sandbox = "http://127.0.0.1:4010";

  it("links a Pix code to its own pay page in the sandbox, not to the list of every charge", () => {
    expect(
      sandboxPageOf(sandbox, {
        pix: { payment_link: "http://localhost:4010/pay/3f2c9a1e-7b4d-4c1a-9e8f-0a1b2c3d4e5f" },
      }),
    ).toBe("http://127.0.0.1:4010/pay/3f2c9a1e-7b4d-4c1a-9e8f-0a1b2c3d4e5f");
  });

  it("links a boleto to its own page in the sandbox", () => {
    expect(
      sandboxPageOf(`${sandbox}/`, { boleto: { url: "http://127.0.0.1:4010/boleto/ch_123" } }),
    ).toBe("http://127.0.0.1:4010/boleto/ch_123");
  });

  it("links a Variant A code, which names no page, to the pay page of its charge's id", () => {
    expect(
      sandboxPageOf(
        sandbox,
        { pix: { payment_link: null } },
        "3f2c9a1e-7b4d-4c1a-9e8f-0a1b2c3d4e5f",
      ),
    ).toBe("http://127.0.0.1:4010/pay/3f2c9a1e-7b4d-4c1a-9e8f-0a1b2c3d4e5f");
    expect(sandboxPageOf(sandbox, {}, "../x")).toBe(sandbox);
  });

  it("falls back to the sandbox's home when the code names no page of it", () => {
    expect(sandboxPageOf(sandbox, null)).toBe(sandbox);
    expect(sandboxPageOf(sandbox, { pix: { payment_link: null } })).toBe(sandbox);
    expect(sandboxPageOf(sandbox, { pix: { payment_link: "not a url" } })).toBe(sandbox);
    expect(sandboxPageOf(sandbox, { pix: { payment_link: "https://bank.example/x/y/z" } })).toBe(
      sandbox,
    );
  });
});
