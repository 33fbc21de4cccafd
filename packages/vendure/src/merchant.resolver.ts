import { Args, Mutation, Query, Resolver } from "@nestjs/graphql";
import { Allow, Ctx, Permission, UserInputError, type RequestContext } from "@vendure/core";
import { gql } from "graphql-tag";
import {
  DifferenceRefused,
  PixCheckoutDifferenceCodes,
  type DifferenceCode,
} from "./difference-code.service";
import { MedRefused } from "./med-case";
import { PixCheckoutMed, type OpenMed } from "./med.service";
import {
  HeldReturnRefused,
  PixCheckoutMerchantRecords,
  type HeldPayment,
  type OrderCode,
  type RefundDue,
} from "./merchant-records.service";

/**
 * The Admin API's view of what needs the merchant, in the active channel only: paid codes that
 * settled nothing, refunds owed, each code of an order and what became of it, a Pix for what a
 * modified order costs more, a held code's return recorded, and MED 2.0 cases on a Pix.
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
    "Integer cents to give back: what the bank paid, less parts already returned and money an open MED blocked."
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

  "One code of ours on an order (a payment of the plugin's), and what became of its money."
  type PixCheckoutOrderCode {
    paymentId: ID!
    "pix or boleto"
    method: String!
    chargeId: String!
    createdAt: DateTime!
    "Integer cents the code asked for (the payment's amount)."
    asked: Money!
    "Integer cents the bank paid: 0 while unpaid; what arrived for a held code (held.receivedCents)."
    received: Money!
    "Integer cents of it that pays the order (a Settled payment's amount less its refunds and what an open MED contests), 0 otherwise."
    captured: Money!
    "Integer cents of captured money an open MED blocked: out of income until it is decided. received = captured + contested + owedBack + returned."
    contested: Money!
    "Integer cents still to go back to the payer: a held code's received minus what was recorded returned; a captured code's Pending refunds."
    owedBack: Money!
    "Integer cents recorded as returned (Settled refunds, or a held code's recorded return)."
    returned: Money!
    "waiting | captured | held | ended"
    became: String!
    "One pt-BR sentence for the merchant: what became of it and why (the hold's why, a replaced code, an expired/cancelled one, a boleto authorized and waiting...)."
    words: String!
    "Pix only, while something is owed back that no open MED blocked; null otherwise."
    devolucao: PixCheckoutDevolucaoDeadline
    "The code's latest MED case, null if none."
    med: PixCheckoutMed
  }

  "A MED 2.0 case on a Pix: what the payer's institution blocked, and what it decided."
  type PixCheckoutMed {
    protocol: String!
    "By when the institution decides: YYYY-MM-DD, a São Paulo day."
    deadline: String!
    "Integer cents blocked: owed money first, then captured money."
    blocked: Money!
    "Of it, money already owed back (stays owed, the case's)."
    blockedOwed: Money!
    "Of it, captured money: out of income while the case is open (Vendure's order unchanged)."
    contested: Money!
    openedAt: DateTime!
    "open | kept | returned"
    state: String!
    "Integer cents the MED returned to the payer (state returned); null otherwise."
    returned: Money
    decidedAt: DateTime
    "While open: ok, near (2 bank business days or fewer to the deadline, the day included) or past; null once decided."
    deadlineState: String
  }

  type PixCheckoutOpenMed {
    paymentId: ID!
    orderId: ID!
    orderCode: String!
    chargeId: String!
    med: PixCheckoutMed!
  }

  extend type Query {
    "Paid Pix codes of the active channel that settled nothing: the money is the shopper's until the merchant returns it."
    pixCheckoutHeldPayments: [PixCheckoutHeldPayment!]!
    "Refunds of Pix and boleto payments still owed (Pending): return them at the service, then settleRefund."
    pixCheckoutRefundsDue: [PixCheckoutRefundDue!]!
    "Each Pix and boleto code of an order of the active channel, oldest first: what became of it and where its money is. Another channel's order: []."
    pixCheckoutOrderCodes(orderId: ID!): [PixCheckoutOrderCode!]!
    "Open MED cases of the active channel, nearest deadline first."
    pixCheckoutOpenMeds: [PixCheckoutOpenMed!]!
  }

  extend type Mutation {
    "A Pix for what an order modified after payment still owes (ArrangingAdditionalPayment)."
    pixCheckoutCollectDifference(orderId: ID!): PixCheckoutDifferenceCode!
    "Records a held code's money returned at the service's dashboard, with the devolução's id: it leaves pixCheckoutHeldPayments, and the books show it returned."
    pixCheckoutRecordHeldReturn(paymentId: ID!, reference: String!): PixCheckoutHeldPayment!
    "Records a MED's block on a Pix of ours (Registrar MED)."
    pixCheckoutRecordMed(
      paymentId: ID!
      protocol: String!
      deadline: String!
      amount: Money!
    ): PixCheckoutOrderCode!
    "Records the institution's decision: kept, or returned (amount: integer cents, the whole block when omitted)."
    pixCheckoutRecordMedOutcome(
      paymentId: ID!
      outcome: String!
      amount: Money
    ): PixCheckoutOrderCode!
  }
`;

@Resolver()
export class MerchantResolver {
  constructor(
    private readonly records: PixCheckoutMerchantRecords,
    private readonly differenceCodes: PixCheckoutDifferenceCodes,
    private readonly med: PixCheckoutMed,
  ) {}

  @Query()
  @Allow(Permission.ReadOrder)
  pixCheckoutHeldPayments(@Ctx() ctx: RequestContext): Promise<HeldPayment[]> {
    return this.records.heldPayments(ctx);
  }

  @Query()
  @Allow(Permission.ReadOrder)
  pixCheckoutRefundsDue(@Ctx() ctx: RequestContext): Promise<RefundDue[]> {
    return this.records.refundsDue(ctx);
  }

  @Query()
  @Allow(Permission.ReadOrder)
  pixCheckoutOrderCodes(
    @Ctx() ctx: RequestContext,
    @Args() args: { orderId: string },
  ): Promise<OrderCode[]> {
    return this.records.orderCodes(ctx, args.orderId);
  }

  @Mutation()
  @Allow(Permission.UpdateOrder)
  pixCheckoutCollectDifference(
    @Ctx() ctx: RequestContext,
    @Args() args: { orderId: string },
  ): Promise<DifferenceCode> {
    return refusalsToUserInput(this.differenceCodes.collectDifference(ctx, args.orderId));
  }

  @Mutation()
  @Allow(Permission.UpdateOrder)
  pixCheckoutRecordHeldReturn(
    @Ctx() ctx: RequestContext,
    @Args() args: { paymentId: string; reference: string },
  ): Promise<HeldPayment> {
    return refusalsToUserInput(this.records.recordHeldReturn(ctx, args.paymentId, args.reference));
  }

  @Query()
  @Allow(Permission.ReadOrder)
  pixCheckoutOpenMeds(@Ctx() ctx: RequestContext): Promise<OpenMed[]> {
    return this.med.openMeds(ctx);
  }

  @Mutation()
  @Allow(Permission.UpdateOrder)
  pixCheckoutRecordMed(
    @Ctx() ctx: RequestContext,
    @Args() args: { paymentId: string; protocol: string; deadline: string; amount: number },
  ): Promise<OrderCode> {
    return refusalsToUserInput(
      this.med.recordMed(ctx, args.paymentId, {
        protocol: args.protocol,
        deadline: args.deadline,
        amountCents: args.amount,
      }),
    );
  }

  @Mutation()
  @Allow(Permission.UpdateOrder)
  pixCheckoutRecordMedOutcome(
    @Ctx() ctx: RequestContext,
    @Args() args: { paymentId: string; outcome: string; amount?: number | null },
  ): Promise<OrderCode> {
    return refusalsToUserInput(
      this.med.recordMedOutcome(ctx, args.paymentId, {
        outcome: args.outcome,
        amountCents: args.amount ?? null,
      }),
    );
  }
}

/**
 * A refusal the merchant can act on becomes a `UserInputError` with its message and its stable
 * code; anything else is a bug, thrown as it is. Vendure drops an error's variables before it
 * answers (its i18n only reads them), so the code also rides in the error's GraphQL
 * `extensions.refusal`, where the dashboard reads it.
 */
async function refusalsToUserInput<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (
      error instanceof DifferenceRefused ||
      error instanceof HeldReturnRefused ||
      error instanceof MedRefused
    ) {
      const refused = new UserInputError(error.message, { code: error.code });
      Object.assign(refused.extensions, { refusal: error.code });
      throw refused;
    }
    throw error;
  }
}
