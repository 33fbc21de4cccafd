import type { z } from "zod";
import { describe, expectTypeOf, it } from "vitest";
import type { streamOptionsSchema } from "./internal/storefront/live-status/options";
import type { optionsSchema } from "./internal/platform/options";
import type { alertOptionsSchema } from "./internal/operations/alert-options";
import type { PixCheckoutOptions, PixCheckoutPluginOptions } from "./types";

describe("the public option types", () => {
  it("match what the provider options schema accepts", () => {
    expectTypeOf<PixCheckoutOptions>().toEqualTypeOf<z.input<typeof optionsSchema>>();
  });

  it("match what the stream options schema accepts", () => {
    expectTypeOf<NonNullable<PixCheckoutPluginOptions["stream"]>>().toEqualTypeOf<
      z.input<typeof streamOptionsSchema>
    >();
  });

  it("match what the alert options schema accepts", () => {
    expectTypeOf<NonNullable<PixCheckoutPluginOptions["alerts"]>>().toEqualTypeOf<
      z.input<typeof alertOptionsSchema>
    >();
  });
});
