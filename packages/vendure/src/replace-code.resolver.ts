import { Mutation, Resolver } from "@nestjs/graphql";
import { Allow, Ctx, Logger, Permission, type RequestContext } from "@vendure/core";
import { redact } from "@pix-checkout/client";
import { gql } from "graphql-tag";
import { PixCheckoutService, type ReplaceOutcome } from "./pix-checkout.service";

/**
 * The Shop API's "another way to pay": Vendure counts a Pix still waiting as covering the
 * order, so `addPaymentToOrder` asks nothing more of any method until that code is let go.
 */
export const shopApiExtensions = gql`
  type PixCheckoutReplaceCodeResult {
    """
    replaced: the waiting Pix is cancelled; addPaymentToOrder now takes any method.
    already_paid: it was paid first, and pays the order; nothing was replaced.
    nothing_waiting: no Pix waits on the active order.
    unavailable: the payment service could not be asked; nothing was replaced, try again.
    """
    outcome: String!
    "What to tell the shopper, in Portuguese."
    message: String!
  }

  extend type Mutation {
    "Lets go of the active order's Pix still waiting, so the shopper can pay another way."
    pixCheckoutReplaceCode: PixCheckoutReplaceCodeResult!
  }
`;

type Answer = { outcome: ReplaceOutcome | "unavailable"; message: string };

/** What the shopper reads for each outcome. */
const MESSAGES: Record<Answer["outcome"], string> = {
  replaced:
    "Pronto: o código Pix anterior foi cancelado. Escolha como pagar. Se ele for pago mesmo assim, a loja devolve o valor.",
  already_paid: "Esse código Pix já foi pago: o pedido está sendo concluído com ele.",
  nothing_waiting: "Nenhum código Pix aguarda pagamento neste pedido.",
  unavailable:
    "Não conseguimos consultar o código Pix agora, e nada foi trocado. Tente de novo em instantes.",
};

@Resolver()
export class ReplaceCodeResolver {
  constructor(private readonly service: PixCheckoutService) {}

  @Mutation()
  @Allow(Permission.UpdateOrder, Permission.Owner)
  async pixCheckoutReplaceCode(@Ctx() ctx: RequestContext): Promise<Answer> {
    let outcome: Answer["outcome"];
    try {
      outcome = await this.service.replaceCode(ctx);
    } catch (error) {
      // Fail closed: the code stays as it was, and the shopper is told to try again.
      Logger.warn(
        `replacing a code failed: ${redact(String((error as Error)?.message ?? error))}`,
        "PixCheckoutPlugin",
      );
      outcome = "unavailable";
    }
    return { outcome, message: MESSAGES[outcome] };
  }
}
