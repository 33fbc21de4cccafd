import type { PaymentSessionRefusal } from "@lib/data/cart"

/** The boleto payer fields the plugin's errors name, as the shopper knows them. */
const payerFields = new Map([
  ["document", "o CPF ou CNPJ"],
  ["neighborhood", "o bairro"],
  ["number", "o número"],
  ["name", "o nome"],
  ["first_name", "o nome"],
  ["email", "o e-mail"],
  ["phone", "o telefone"],
  ["address_1", "o endereço"],
  ["city", "a cidade"],
  ["province", "o estado"],
  ["postal_code", "o CEP"],
])

/** What the shopper reads for the plugin's other codes (its README's error table). */
const messages = new Map([
  ["unsupported_currency", "Pix e boleto aceitam apenas pagamentos em reais."],
  [
    "invalid_amount",
    "O valor deste pedido não pode ser pago com Pix ou boleto.",
  ],
  // Medusa answers every passing failure of the plugin (the payment service slow or down,
  // the database busy) with this code; nothing was charged, so trying again is safe.
  [
    "invalid_state_error",
    "Não conseguimos gerar o pagamento agora. Tente de novo em instantes.",
  ],
  // A busy minute: the store's line of codes to create is full (429, with Retry-After).
  [
    "too_many_waiting_creates",
    "Muita procura agora. Nada foi cobrado: tente de novo em um minuto.",
  ],
  // Each order placed before payment holds its stock until the boleto is paid or ends.
  [
    "too_many_unpaid_orders",
    "Você já tem pedidos aguardando pagamento nesta loja. Pague um deles, ou pague este com Pix, para fazer um novo pedido.",
  ],
])

/** "o CPF ou CNPJ, o bairro e o número": the payer fields a plugin message names. */
function namedFields(message: string) {
  // A missing field is named `data.number` or `billing_address.city`; a wrong one
  // opens the message ("document is not a valid CPF or CNPJ.").
  // Array.from, not spread: the starter compiles for ES5, where tsc refuses to spread an
  // iterator ("can only be iterated through when using the '--downlevelIteration' flag").
  const names = Array.from(
    message.matchAll(/\b(?:data|billing_address)\.(\w+)|^(\w+)/g)
  ).flatMap((match) => payerFields.get(match[1] ?? match[2] ?? "") ?? [])
  const fields = Array.from(new Set(names))
  return fields.length < 2
    ? (fields[0] ?? "os dados do pagador")
    : `${fields.slice(0, -1).join(", ")} e ${fields[fields.length - 1]}`
}

/**
 * The shopper's message, in Portuguese, for a refused payment session. It is chosen by the
 * plugin's stable `code`, never by its message, which is written for developers; for the
 * boleto payer, the message only tells which fields.
 */
export function paymentErrorMessage(refusal: PaymentSessionRefusal): string {
  switch (refusal.code) {
    case "missing_payer_data":
      return `Para gerar o boleto, preencha ${namedFields(refusal.message)}.`
    case "invalid_payer_data":
      return `Confira ${namedFields(refusal.message)}.`
    default:
      return (
        messages.get(refusal.code ?? "") ??
        "Não conseguimos iniciar o pagamento. Tente de novo."
      )
  }
}
