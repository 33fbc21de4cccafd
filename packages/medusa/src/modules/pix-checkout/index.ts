import { Module } from "@medusajs/framework/utils";
import checkPluginOptionsOnStart from "./loaders/check-plugin-options";
import PixCheckoutModuleService from "./service";

/** Container key of the plugin's own module. */
export const PIX_CHECKOUT_MODULE = "pix_checkout";

/**
 * The plugin's own module: it carries the migrations of the plugin's tables and the check of
 * the plugin's options at startup, and nothing else (no DML models, an empty service; see
 * README.md next to this file).
 */
export default Module(PIX_CHECKOUT_MODULE, {
  service: PixCheckoutModuleService,
  loaders: [checkPluginOptionsOnStart],
});
