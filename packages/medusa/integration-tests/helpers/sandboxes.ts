import type { Sandbox, SandboxOptions } from "@pix-checkout/sandbox" with {
  "resolution-mode": "import",
};

type Extra = Omit<SandboxOptions, "variant" | "keys">;

/**
 * Starts the two payment services the test app's providers call, Variant A and Variant B,
 * each accepting `apiKey` (with `a` and `b` added to their options), and points the app at
 * them: app/medusa-config.ts reads PIX_SANDBOX_A_URL, PIX_SANDBOX_B_URL and PIX_API_KEY when
 * the suite's Medusa boots, so call this in `beforeAll`.
 */
export async function startAppSandboxes(
  apiKey: string,
  extra: { a?: Extra; b?: Extra } = {},
): Promise<{ a: Sandbox; b: Sandbox }> {
  // The sandbox is ESM-only; this package compiles as CommonJS (what Medusa loads).
  const { startSandbox } = await import("@pix-checkout/sandbox");
  const a = await startSandbox({ ...extra.a, variant: "a", keys: [apiKey] });
  const b = await startSandbox({ ...extra.b, variant: "b", keys: [apiKey] });
  process.env.PIX_SANDBOX_A_URL = a.baseUrl;
  process.env.PIX_SANDBOX_B_URL = b.baseUrl;
  process.env.PIX_API_KEY = apiKey;
  return { a, b };
}
