import { ModuleProvider, Modules } from "@medusajs/framework/utils";
import { PixCheckoutPixService } from "../pix-checkout/services/pix";

/** Pix only: for Variant B accounts, which have no boleto. */
export default ModuleProvider(Modules.PAYMENT, {
  services: [PixCheckoutPixService],
});
