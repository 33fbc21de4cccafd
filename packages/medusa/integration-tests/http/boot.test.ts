import { medusaIntegrationTestRunner } from "@medusajs/test-utils";
import { Modules } from "@medusajs/framework/utils";
import type { IPaymentModuleService } from "@medusajs/framework/types";
import path from "node:path";

medusaIntegrationTestRunner({
  cwd: path.join(__dirname, "..", "app"),
  testSuite: ({ api, getContainer }) => {
    it("answers the health check with the plugin installed", async () => {
      const response = await api.get("/health");
      expect(response.status).toBe(200);
    });

    it("registers pix and boleto for a Variant A account and only pix for Variant B", async () => {
      const payment = getContainer().resolve<IPaymentModuleService>(Modules.PAYMENT);
      const providers = await payment.listPaymentProviders();
      const ids = providers.map((provider) => provider.id).sort();
      expect(ids).toEqual(expect.arrayContaining(["pp_boleto_a", "pp_pix_a", "pp_pix_b"]));
      expect(ids).not.toContain("pp_boleto_b");
    });
  },
});
