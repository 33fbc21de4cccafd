import { describe, expect, it } from "vitest";
import type { ConfigModule } from "@medusajs/framework/types";
import { keyOfProviderId, providerByKey, registeredProviders } from "./provider-registry";

const options = { apiKey: "sk_live_x", baseUrl: "http://127.0.0.1:1/v1", variant: "a" };
const config = {
  modules: {
    payment: {
      resolve: "@medusajs/medusa/payment",
      options: {
        providers: [
          { resolve: "@medusajs/medusa/payment-stripe", id: "stripe", options: {} },
          { resolve: "@pix-checkout/medusa/providers/pix-checkout", id: "br", options },
        ],
      },
    },
  },
} as unknown as ConfigModule;

describe("registeredProviders", () => {
  it("finds this plugin's registrations under the payment module and ignores others", () => {
    const found = registeredProviders(config);
    expect(found.map((p) => p.key)).toEqual(["br"]);
    expect(found[0]?.options.reconcileIntervalMinutes).toBe(5);
  });

  it("takes a registration by path into this package's providers, not another provider kept beside it", () => {
    const byPath = {
      modules: [
        {
          resolve: "@medusajs/medusa/notification",
          options: {
            providers: [
              { resolve: "/shop/packages/medusa/integration-tests/app/smtp", id: "smtp" },
            ],
          },
        },
        {
          resolve: "@medusajs/medusa/payment",
          options: {
            providers: [
              {
                resolve: "/shop/packages/medusa/.medusa/server/src/providers/pix-only",
                id: "p",
                options,
              },
            ],
          },
        },
      ],
    } as unknown as ConfigModule;
    expect(registeredProviders(byPath).map((p) => p.key)).toEqual(["p"]);
  });

  it("answers provider_not_found for an unknown webhook id", () => {
    expect(() => providerByKey(config, "nope")).toThrow(
      expect.objectContaining({ code: "provider_not_found" }),
    );
  });
});

describe("keyOfProviderId", () => {
  it("strips Medusa's pp_<identifier>_ prefix", () => {
    expect(keyOfProviderId("pp_pix_br")).toBe("br");
    expect(keyOfProviderId("pp_boleto_pix-checkout")).toBe("pix-checkout");
  });
});
