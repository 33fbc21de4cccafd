import { Args, Mutation, Query, Resolver } from "@nestjs/graphql";
import { Allow, Ctx, Permission, UserInputError, type RequestContext } from "@vendure/core";
import { gql } from "graphql-tag";
import {
  DifferenceRefused,
  PixCheckoutService,
  type DifferenceCode,
  type HeldPayment,
  type RefundDue,
} from "./pix-checkout.service";

/**
 * The Admin API's view of what needs the merchant, in the active channel only: paid codes that
 * settled nothing, refunds owed, and a Pix for what a modified order costs more.
 */
export const adminApiExtensions = gql`
  "Until when money owed back can go back by a Pix devolução: 90 days after the payment."
  type PixCheckoutDevolucaoDeadline {
    "The last day, in São Paulo: YYYY-MM-DD."
    deadline: String!
    "Days from today to it: 0 on the day, negative once past."
    daysLeft: Int!
    "ok, warning (15 days or fewer), critical (5 or fewer), past (return it by a transfer)."
    state: String!
  }

  type PixCheckoutHeldPayment {
    paymentId: ID!
    orderId: ID!
    orderCode: String!
    "Integer cents: what the bank paid, all of it owed back."
    amount: Money!
    chargeId: String!
    "Why it settled nothing, in Portuguese."
    why: String!
    heldAt: DateTime!
    "Null for a boleto: it has no Pix devolução window."
    devolucao: PixCheckoutDevolucaoDeadline
  }

  type PixCheckoutRefundDue {
    refundId: ID!
    orderCode: String!
    "Integer cents."
    amount: Money!
    chargeId: String!
    reason: String
    "What to do, in Portuguese."
    instructions: String!
    createdAt: DateTime!
    "Null for a boleto: it has no Pix devolução window."
    devolucao: PixCheckoutDevolucaoDeadline
  }

  type PixCheckoutDifferenceCode {
    orderCode: String!
    "Integer cents: what the order still owes."
    amount: Money!
    "What <pix-checkout session-id> follows."
    sessionId: String!
    copyPaste: String
    expiresAt: DateTime
    "False when a code for it was already waiting, and is given again."
    created: Boolean!
  }

  extend type Query {
    "Paid Pix codes of the active channel that settled nothing: the money is the shopper's until the merchant returns it."
    pixCheckoutHeldPayments: [PixCheckoutHeldPayment!]!
    "Refunds of Pix and boleto payments still owed (Pending): return them at the service, then settleRefund."
    pixCheckoutRefundsDue: [PixCheckoutRefundDue!]!
  }

  extend type Mutation {
    "A Pix for what an order modified after payment still owes (ArrangingAdditionalPayment)."
    pixCheckoutCollectDifference(orderId: ID!): PixCheckoutDifferenceCode!
  }
`;

@Resolver()
export class MerchantResolver {
  constructor(private readonly service: PixCheckoutService) {}

  @Query()
  @Allow(Permission.ReadOrder)
  pixCheckoutHeldPayments(@Ctx() ctx: RequestContext): Promise<HeldPayment[]> {
    return this.service.heldPayments(ctx);
  }

  @Query()
  @Allow(Permission.ReadOrder)
  pixCheckoutRefundsDue(@Ctx() ctx: RequestContext): Promise<RefundDue[]> {
    return this.service.refundsDue(ctx);
  }

  @Mutation()
  @Allow(Permission.UpdateOrder)
  async pixCheckoutCollectDifference(
    @Ctx() ctx: RequestContext,
    @Args() args: { orderId: string },
  ): Promise<DifferenceCode> {
    try {
      return await this.service.collectDifference(ctx, args.orderId);
    } catch (error) {
      // A refusal the merchant can act on, with its stable code; anything else is a bug.
      if (error instanceof DifferenceRefused) {
        throw new UserInputError(error.message, { code: error.code });
      }
      throw error;
    }
  }
}
