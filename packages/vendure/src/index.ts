export { PixCheckoutPlugin } from "./plugin";
export { pixPaymentHandler, PIX_HANDLER_CODE } from "./pix-handler";
export { PixCheckoutService, type DeliveryOutcome } from "./pix-checkout.service";
export {
  settlementVerdict,
  type SettlementVerdict,
  type SettlementFacts,
} from "./settlement-verdict";
export type { PixCheckoutVendureOptions } from "./options";
export { AWAITING_PIX, awaitingPixProcess } from "./awaiting-pix";
