import { Query, Resolver } from "@nestjs/graphql";
import { Allow, Ctx, Permission, type RequestContext } from "@vendure/core";
import { gql } from "graphql-tag";
import { PixCheckoutService, type HeldPayment } from "./pix-checkout.service";

/** The Admin API's list of paid codes that settled nothing (see `PixCheckoutService.heldPayments`). */
export const adminApiExtensions = gql`
  type PixCheckoutHeldPayment {
    paymentId: ID!
    orderId: ID!
    orderCode: String!
    "Integer cents."
    amount: Money!
    chargeId: String!
    "Why it settled nothing, in Portuguese."
    why: String!
    heldAt: DateTime!
  }

  extend type Query {
    "Paid Pix codes of the active channel that settled nothing: the money is the shopper's until the merchant returns it."
    pixCheckoutHeldPayments: [PixCheckoutHeldPayment!]!
  }
`;

@Resolver()
export class HeldPaymentsResolver {
  constructor(private readonly service: PixCheckoutService) {}

  @Query()
  @Allow(Permission.ReadOrder)
  pixCheckoutHeldPayments(@Ctx() ctx: RequestContext): Promise<HeldPayment[]> {
    return this.service.heldPayments(ctx);
  }
}
