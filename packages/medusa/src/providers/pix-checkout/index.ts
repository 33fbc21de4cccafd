import { ModuleProvider, Modules } from "@medusajs/framework/utils";
import { PixCheckoutBoletoService } from "./services/boleto";
import { PixCheckoutPixService } from "./services/pix";

/** Pix and boleto (Variant A accounts). Register under the payment module's `providers`. */
export default ModuleProvider(Modules.PAYMENT, {
  services: [PixCheckoutPixService, PixCheckoutBoletoService],
});
