import type { ClientCreateChargeInput } from "../platform/client-port";
import type { PaymentMethod } from "../platform/options";
import { buildBoletoCharge, type ContextCustomer } from "./boleto-payer";
import { chargeDescription } from "./charge-reference";
import type { SessionInput } from "./session-data";

/**
 * What is sent to the payment service for a session's charge: the amount, the description
 * (carrying the session's reference), and the payer, from what the storefront sent and the
 * logged-in customer. A boleto names every missing or wrong payer field at once
 * (boleto-payer.ts); a Pix needs no payer, and sends what it has.
 */
export function chargeInputOf(
  method: PaymentMethod,
  amountCents: number,
  input: SessionInput,
  customer: ContextCustomer | undefined,
  sessionId: string,
): ClientCreateChargeInput {
  const description = chargeDescription(sessionId, method, input.description);
  if (method === "boleto") {
    return buildBoletoCharge(amountCents, input as Record<string, unknown>, customer, description);
  }
  const name = [customer?.first_name, customer?.last_name].filter(Boolean).join(" ");
  const email = input.email ?? customer?.email ?? undefined;
  const payer = {
    ...(name ? { name } : {}),
    ...(email ? { email } : {}),
    ...(input.document ? { document: input.document.replace(/[.\-/\s]/g, "") } : {}),
  };
  return {
    method: "pix",
    amountCents,
    description,
    ...(Object.keys(payer).length > 0 ? { customer: payer } : {}),
  };
}
