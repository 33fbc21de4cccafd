export { PixCheckoutPlugin } from "./plugin";
export { pixPaymentHandler, PIX_HANDLER_CODE } from "./pix-handler";
export {
  PixCheckoutService,
  type DeliveryOutcome,
  type ReconcileReport,
  type ReplaceOutcome,
} from "./pix-checkout.service";
export {
  PixCheckoutMerchantRecords,
  type HeldPayment,
  type RefundDue,
  type OrderCode,
  HeldReturnRefused,
} from "./merchant-records.service";
export { PixCheckoutMed, type OpenMed } from "./med.service";
export {
  PixCheckoutDifferenceCodes,
  type DifferenceCode,
  DifferenceRefused,
} from "./difference-code.service";
export { PixCheckoutShopperSessions } from "./shopper-sessions.service";
export {
  MedRefused,
  decideMedRecord,
  decideMedOutcome,
  medDeadlineState,
  type MedCase,
  type MedView,
  type MedDeadlineState,
  type MedPaymentFacts,
} from "./med-case";
export {
  orderCodeStory,
  type OrderCodeFacts,
  type OrderCodeStory,
  type CodeBecame,
} from "./order-codes";
export { reconcileTask } from "./reconcile-task";
export { PixCheckoutReminders, remindersTask, type ReminderReport } from "./reminders";
export { PixCheckoutReminderEvent } from "./reminder-event";
export {
  reminderDecision,
  decideReminders,
  reminderWords,
  type ReminderDecision,
  type ReminderFacts,
  type ReminderSkipReason,
  type HandledReminder,
  type ReminderWordsFacts,
} from "./reminder-decision";
export type { ReminderStep } from "@pix-checkout/client/reminders";
export {
  settlementVerdict,
  type SettlementVerdict,
  type SettlementFacts,
} from "./settlement-verdict";
export type { PixCheckoutVendureOptions, ReminderOptions } from "./options";
export { AWAITING_PIX, awaitingPixProcess } from "./awaiting-pix";
export { shopperSession, type ShopperSession, type ShopperSessionFacts } from "./shopper-session";
export type { HoldReason } from "./settlement-verdict";
export { boletoPaymentHandler, BOLETO_HANDLER_CODE } from "./boleto-handler";
export { boletoPayerOf, type BoletoPayer } from "./boleto-payer";
export { boletoOrderHeldUntil } from "./boleto-grace";
