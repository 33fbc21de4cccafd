import { PluginCommonModule, VendurePlugin } from "@vendure/core";
import { awaitingPixProcess } from "./awaiting-pix";
import { BooksController } from "./books.controller";
import { PixCheckoutDifferenceCodes } from "./difference-code.service";
import { PixCheckoutMed } from "./med.service";
import { adminApiExtensions, MerchantResolver } from "./merchant.resolver";
import { PixCheckoutMerchantRecords } from "./merchant-records.service";
import { checkOptions, PIX_CHECKOUT_OPTIONS, type PixCheckoutVendureOptions } from "./options";
import { PixCheckoutService } from "./pix-checkout.service";
import { boletoPaymentHandler } from "./boleto-handler";
import { pixPaymentHandler } from "./pix-handler";
import { reconcileTask } from "./reconcile-task";
import { PixCheckoutReminders, remindersTask } from "./reminders";
import { ReplaceCodeResolver, shopApiExtensions } from "./replace-code.resolver";
import { PixCheckoutSessionController } from "./session.controller";
import { SessionNews } from "./session-news";
import { PixCheckoutShopperSessions } from "./shopper-sessions.service";
import { PixCheckoutWebhookController } from "./webhook.controller";

/**
 * Pix Checkout for Vendure: `PixCheckoutPlugin.init({ apiKey, baseUrl, variant, webhookSecret })`
 * in the config's `plugins`, then a payment method with the handler `pix-checkout-pix`.
 */
@VendurePlugin({
  imports: [PluginCommonModule],
  providers: [
    { provide: PIX_CHECKOUT_OPTIONS, useFactory: () => PixCheckoutPlugin.options },
    PixCheckoutService,
    PixCheckoutMerchantRecords,
    PixCheckoutMed,
    PixCheckoutDifferenceCodes,
    PixCheckoutShopperSessions,
    PixCheckoutReminders,
    SessionNews,
  ],
  controllers: [PixCheckoutWebhookController, PixCheckoutSessionController, BooksController],
  adminApiExtensions: { schema: adminApiExtensions, resolvers: [MerchantResolver] },
  shopApiExtensions: { schema: shopApiExtensions, resolvers: [ReplaceCodeResolver] },
  configuration: (config) => {
    config.paymentOptions.paymentMethodHandlers.push(pixPaymentHandler, boletoPaymentHandler);
    (config.paymentOptions.process ??= []).push(awaitingPixProcess);
    (config.schedulerOptions.tasks ??= []).push(reconcileTask, remindersTask);
    return config;
  },
  compatibility: "^3.7.0",
  // The merchant's screens, compiled by Vendure's dashboard build from the package's source.
  dashboard: "../dashboard/index.tsx",
})
export class PixCheckoutPlugin {
  static options: PixCheckoutVendureOptions;

  static init(options: PixCheckoutVendureOptions): typeof PixCheckoutPlugin {
    PixCheckoutPlugin.options = checkOptions(options);
    return PixCheckoutPlugin;
  }
}
