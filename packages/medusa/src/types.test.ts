import type { z } from "zod";
import { describe, expectTypeOf, it } from "vitest";
import type { optionsSchema } from "./internal/platform/options";
import type { fairOptionsSchema } from "./internal/create-line/fair-options";
import type { PixCheckoutOptions, PixCheckoutPluginOptions } from "./types";

describe("the public option types", () => {
  it("are what the provider options schema accepts", () => {
    expectTypeOf<PixCheckoutOptions>().toEqualTypeOf<z.input<typeof optionsSchema>>();
  });

  it("name every section of the plugin entry, each optional", () => {
    expectTypeOf<keyof PixCheckoutPluginOptions>().toEqualTypeOf<
      "fairness" | "notifications" | "stream" | "alerts" | "recovery" | "calendar"
    >();
    expectTypeOf<NonNullable<PixCheckoutPluginOptions["fairness"]>>().toEqualTypeOf<
      z.input<typeof fairOptionsSchema>
    >();
    expectTypeOf<Record<never, never>>().toExtend<PixCheckoutPluginOptions>();
  });

  it("take a merchant's options as written, and refuse a misspelt one", () => {
    const options = {
      fairness: { trustedProxies: ["private"], clientCreatesPerMinute: 3 },
      notifications: {
        enabled: true,
        paymentPageUrl: "https://loja.example.com/pagar/{session_id}",
      },
      stream: { maxConnections: 2000 },
      alerts: { enabled: true, to: ["loja@example.com"] },
      recovery: { enabled: true, backendUrl: "https://api.loja.example.com" },
    } satisfies PixCheckoutPluginOptions;
    expectTypeOf(options).toExtend<PixCheckoutPluginOptions>();
    // @ts-expect-error `notification` is not a section: the merchant meant `notifications`.
    const typo: PixCheckoutPluginOptions = { notification: { enabled: true } };
    expectTypeOf(typo).toExtend<PixCheckoutPluginOptions>();
  });
});
