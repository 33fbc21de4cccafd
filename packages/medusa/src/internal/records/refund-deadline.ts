// The devolução clock is a platform-free money rule, shared with the Vendure plugin:
// `@pix-checkout/client/books` holds it (books/refund-deadline.ts there, with its tests).
export {
  NEAR_DEADLINE_PAID_BEFORE_DAYS,
  owedOnTheClock,
  PIX_REFUND_WINDOW_DAYS,
  REFUND_DEADLINE_CRITICAL_DAYS,
  REFUND_DEADLINE_WARNING_DAYS,
  refundDeadline,
  refundDeadlineState,
  type OwedCharge,
  type RefundDeadline,
  type RefundDeadlineState,
} from "@pix-checkout/client/books";
