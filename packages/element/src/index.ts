/**
 * `@pix-checkout/element`: importing this module registers `<pix-checkout>`.
 * @packageDocumentation
 */
export { PixCheckout } from "./pix-checkout.js";
export type { PixCheckoutView } from "./pix-checkout.component.js";
export type {
  PixCheckoutEventMap,
  PixCopyDetail,
  PixErrorCode,
  PixErrorDetail,
  PixExpiredDetail,
  PixPaidDetail,
  PixRefundDueDetail,
  PixRenewedDetail,
  PixStatusChangeDetail,
} from "./events.js";
export type {
  BoletoData,
  CheckoutSession,
  EarlierPayment,
  OrderState,
  PixData,
  RefundData,
  RefundReason,
  RenewTarget,
  SessionStatus,
} from "./session.js";
export type { Lang } from "./localize/index.js";
