import { describe, expect, it } from "vitest";
import { configuredPixCheckoutProviders } from "./configured-providers";

const payment = (providers: unknown[]) => ({
  resolve: "@medusajs/medusa/payment",
  options: { providers },
});

describe("configuredPixCheckoutProviders", () => {
  it("gives Pix and boleto for the combined provider", () => {
    const config = {
      modules: {
        payment: payment([
          { resolve: "@pix-checkout/medusa/providers/pix-checkout", id: "pix-checkout" },
        ]),
      },
    };
    expect(configuredPixCheckoutProviders(config)).toEqual([
      "pp_pix_pix-checkout",
      "pp_boleto_pix-checkout",
    ]);
  });

  it("gives only Pix for the Pix-only provider of Variant B accounts", () => {
    const config = {
      modules: [payment([{ resolve: "@pix-checkout/medusa/providers/pix-only", id: "shop" }])],
    };
    expect(configuredPixCheckoutProviders(config)).toEqual(["pp_pix_shop"]);
  });

  it("gives nothing when the plugin is not registered", () => {
    const config = {
      modules: {
        payment: payment([{ resolve: "@medusajs/medusa/payment-stripe", id: "stripe" }]),
      },
    };
    expect(configuredPixCheckoutProviders(config)).toEqual([]);
    expect(configuredPixCheckoutProviders({})).toEqual([]);
  });
});
