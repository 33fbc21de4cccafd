import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework";
import { refundsDueOnCanceledOrder } from "../internal/settlement/collection";
import { settleContext } from "../internal/settlement/context";
import { endCodesOfCanceledOrder } from "../internal/settlement/end-session";

/**
 * A canceled order's codes end with it (no code of it is offered or renewed any more), and one
 * whose Pix or boleto was paid owes the shopper their money; the payment service has no refund
 * API, so the charge goes to "Needs attention" as a refund due (the merchant returns it in the
 * service's dashboard, then records it).
 */
export default async function pixCheckoutOrderCanceled({
  event,
  container,
}: SubscriberArgs<{ id: string }>): Promise<void> {
  const ctx = settleContext(container);
  await endCodesOfCanceledOrder(ctx, event.data.id);
  await refundsDueOnCanceledOrder(ctx, event.data.id);
}

export const config: SubscriberConfig = { event: "order.canceled" };
