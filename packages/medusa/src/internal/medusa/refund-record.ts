import type { BigNumberInput, MedusaContainer } from "@medusajs/framework/types";
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils";
import { fromCents } from "../platform/money";

/*
 * A refund the plugin has recorded (the merchant's, or the MED's return), written to Medusa.
 *
 * Not through Medusa's `refundPaymentsWorkflow`, whose two habits would make Medusa's order tell
 * another story than its payments: its refund step logs a provider's refusal and goes on, so the
 * order's refund transaction is written for a refund that did not happen; and the transaction's
 * reference is the payment's id, which Medusa's `addOrderTransactionStep` skips once it has one, so
 * a second refund of the same payment never reaches the order's summary (R$ 10,00 then R$ 20,00
 * left `refunded_total` at R$ 10,00). Here the payment's refund must succeed (a refusal throws, and
 * nothing is written to the order), and each refund is its own order transaction, named by the
 * plugin's record of it (`referenceId`), so a retry of the same refund is not written twice.
 */

/** What Medusa's refund and the order's transaction need. */
export interface RefundToRecord {
  paymentId: string;
  amountCents: number;
  /** The plugin's own id of this refund (its ledger declaration): one order transaction each. */
  referenceId: string;
  note?: string;
}

/**
 * Records `refund` on Medusa's payment, then on the payment's order (when its collection has
 * one), as Medusa's own refund does, but failing when the payment module refuses.
 */
export async function recordRefundInMedusa(
  container: MedusaContainer,
  refund: RefundToRecord,
): Promise<void> {
  const payments = container.resolve(Modules.PAYMENT);
  const amount = fromCents(refund.amountCents) as BigNumberInput;
  await payments.refundPayment({
    payment_id: refund.paymentId,
    amount,
    ...(refund.note ? { note: refund.note } : {}),
  });
  const query = container.resolve(ContainerRegistrationKeys.QUERY);
  const { data } = await query.graph({
    entity: "payment",
    fields: ["id", "currency_code", "payment_collection.order.id"],
    filters: { id: refund.paymentId },
  });
  const payment = data[0] as
    | { currency_code: string; payment_collection?: { order?: { id?: string } | null } | null }
    | undefined;
  const orderId = payment?.payment_collection?.order?.id;
  if (!payment || !orderId) return;
  const orders = container.resolve(Modules.ORDER);
  const existing = await orders.listOrderTransactions(
    { order_id: orderId, reference: "refund", reference_id: refund.referenceId },
    { select: ["id"] },
  );
  if (existing.length > 0) return;
  await orders.addOrderTransactions([
    {
      order_id: orderId,
      amount: fromCents(-refund.amountCents) as BigNumberInput,
      currency_code: payment.currency_code,
      reference: "refund",
      reference_id: refund.referenceId,
    },
  ]);
}
