import { Payment, TransactionalConnection, type RequestContext } from "@vendure/core";

/** Payments of the active channel's orders, with their order: never another channel's. */
export function channelPayments(connection: TransactionalConnection, ctx: RequestContext) {
  return connection
    .getRepository(ctx, Payment)
    .createQueryBuilder("payment")
    .innerJoinAndSelect("payment.order", "order")
    .innerJoin("order.channels", "channel", "channel.id = :channelId", {
      channelId: ctx.channelId,
    });
}
