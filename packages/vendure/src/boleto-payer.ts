import type { BillingAddress, BoletoCustomer } from "@pix-checkout/client";

/** What a boleto needs beyond Vendure's order: the payer's document and the address's parts. */
export interface BoletoPayer {
  customer: BoletoCustomer;
  billingAddress: BillingAddress;
}

/** The order's side: its customer and address, from Vendure's records. */
export interface OrderPayerFacts {
  customer: {
    firstName: string;
    lastName: string;
    emailAddress: string;
    phoneNumber: string;
  } | null;
  address: {
    streetLine1: string;
    city: string;
    province: string;
    postalCode: string;
    phoneNumber: string;
  } | null;
}

/** Why the payer's data cannot make a boleto, in the shopper's words. */
export type PayerRefusal = { refused: string };

/** What the shopper is asked to check, by the field of the boleto the service's client refused. */
const CHECK: Record<string, string> = {
  "customer.document": "o CPF ou CNPJ",
  "customer.phone": "o telefone com DDD",
  "customer.email": "o e-mail",
  "customer.name": "o nome",
  "billingAddress.zip": "o CEP",
  "billingAddress.state": "o estado (UF)",
  "billingAddress.city": "a cidade",
  "billingAddress.street": "a rua",
  "billingAddress.neighborhood": "o bairro",
  "billingAddress.number": "o número",
};

/**
 * The shopper's words for the fields the client refused (`InvalidRequestError.issues`): what to
 * check, never the client's own English message.
 */
export function refusalOfIssues(issues: readonly { path: string }[]): string {
  const fields = [...new Set(issues.map((issue) => CHECK[issue.path]).filter(Boolean))];
  if (fields.length === 0) return "Confira os dados do boleto.";
  const list =
    fields.length === 1 ? fields[0] : `${fields.slice(0, -1).join(", ")} e ${fields.at(-1)}`;
  return `Confira ${list} do boleto.`;
}

const text = (value: unknown, max = 120): string | undefined =>
  typeof value === "string" && value.trim().length > 0 && value.length <= max
    ? value.trim()
    : undefined;

/**
 * The boleto's payer: the order's customer and address (Vendure's records), with what only the
 * shopper can say from `addPaymentToOrder`'s metadata: `document` (CPF or CNPJ), `neighborhood`,
 * `number` and optionally `complement` and `phone`. Everything from the metadata is the client's
 * word: only strings of a sane size are taken, and the service's client checks the document and
 * the address (a wrong one is refused in Portuguese, never sent).
 */
export function boletoPayerOf(
  order: OrderPayerFacts,
  metadata: Record<string, unknown>,
): BoletoPayer | PayerRefusal {
  const document = text(metadata.document, 20);
  if (!document) return { refused: "Informe o CPF ou CNPJ de quem paga o boleto." };
  if (!order.customer) return { refused: "Informe seu nome e e-mail antes do boleto." };
  if (!order.address?.streetLine1)
    return { refused: "Informe o endereço de cobrança antes do boleto." };
  const neighborhood = text(metadata.neighborhood, 80);
  const number = text(metadata.number, 20);
  if (!neighborhood || !number) {
    return { refused: "Informe o bairro e o número do endereço de cobrança." };
  }
  const phone =
    text(metadata.phone, 20) ?? (order.customer.phoneNumber || order.address.phoneNumber || "");
  if (!phone) return { refused: "Informe um telefone com DDD para o boleto." };
  const complement = text(metadata.complement, 80);
  return {
    customer: {
      name: `${order.customer.firstName} ${order.customer.lastName}`.trim(),
      email: order.customer.emailAddress,
      document,
      phone,
    },
    billingAddress: {
      zip: order.address.postalCode,
      state: order.address.province,
      city: order.address.city,
      street: order.address.streetLine1,
      neighborhood,
      number,
      ...(complement ? { complement } : {}),
    },
  };
}
