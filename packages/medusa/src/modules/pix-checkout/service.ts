import { MedusaService } from "@medusajs/framework/utils";
import { PixCheckoutCharge } from "./models/charge";
import { PixCheckoutChargeEvent } from "./models/charge-event";
import { PixCheckoutWebhookDelivery } from "./models/webhook-delivery";

/** Read/write service over the plugin's own tables (charges, their timeline, deliveries). */
export default class PixCheckoutModuleService extends MedusaService({
  PixCheckoutCharge,
  PixCheckoutChargeEvent,
  PixCheckoutWebhookDelivery,
}) {}
