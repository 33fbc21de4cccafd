import type { ClientCreateChargeInput } from "../platform/client-port";
import { PixCheckoutError } from "../platform/errors";
import type { BuyerDocumentOption, PaymentMethod } from "../platform/options";
import { buildBoletoCharge, type ContextCustomer } from "./boleto-payer";
import { buyerDocumentOf } from "./buyer-document";
import { chargeDescription } from "./charge-reference";
import type { SessionInput } from "./session-data";

/**
 * What is sent to the payment service for a session's charge: the amount, the description
 * (carrying the session's reference), and the payer, from what the storefront sent and the
 * logged-in customer. A boleto names every missing or wrong payer field at once
 * (boleto-payer.ts). A Pix sends what it has of the payer (the service needs none of it), its
 * document checked as a boleto's; with `buyerDocument: "every_order"` the merchant needs the
 * buyer's CPF or CNPJ on every order (a nota fiscal), so a Pix without one is refused.
 */
export function chargeInputOf(
  method: PaymentMethod,
  amountCents: number,
  input: SessionInput,
  customer: ContextCustomer | undefined,
  sessionId: string,
  buyerDocument: BuyerDocumentOption = "boleto",
): ClientCreateChargeInput {
  const description = chargeDescription(sessionId, method, input.description);
  if (method === "boleto") {
    return buildBoletoCharge(amountCents, input as Record<string, unknown>, customer, description);
  }
  if (!input.document?.trim() && buyerDocument === "every_order") {
    throw new PixCheckoutError(
      "missing_payer_data",
      "This store needs the buyer's CPF or CNPJ on every order (informe o CPF ou CNPJ). Send data.document when creating the payment session.",
    );
  }
  const document = input.document?.trim() ? buyerDocumentOf(input.document).number : undefined;
  const address = input.billing_address;
  const addressName = [address?.first_name, address?.last_name].filter(Boolean).join(" ");
  const customerName = [customer?.first_name, customer?.last_name].filter(Boolean).join(" ");
  const name = input.name ?? (addressName || customerName);
  const email = input.email ?? customer?.email ?? undefined;
  const payer = {
    ...(name ? { name } : {}),
    ...(email ? { email } : {}),
    ...(document ? { document } : {}),
  };
  return {
    method: "pix",
    amountCents,
    description,
    ...(Object.keys(payer).length > 0 ? { customer: payer } : {}),
  };
}
