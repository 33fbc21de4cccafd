import { Module } from "@medusajs/framework/utils";
import PixCheckoutModuleService from "./service";

/** Container key of the plugin's own module. */
export const PIX_CHECKOUT_MODULE = "pix_checkout";

export default Module(PIX_CHECKOUT_MODULE, { service: PixCheckoutModuleService });
