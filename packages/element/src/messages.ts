/**
 * `@pix-checkout/element/messages`: what a shopper reads when the store refuses a call, in
 * Brazilian Portuguese, for every code the store's routes can answer (the Pix Checkout
 * plugin's, the payment API's it passes on, and Medusa's own). One module for the element and
 * every storefront: a shopper never reads the store's `message`, which is English written for
 * developers (log it; {@link developerText} says it in one line).
 *
 * No DOM and no Lit: it loads in a browser, in Node and in a server component alike. The element
 * imports it only from its lazily loaded chunks, so its first paint does not pay for it.
 * @packageDocumentation
 */

/** A refusal of the store: the body's `code` and `message`, and the HTTP status. */
export interface StoreRefusal {
  /** The stable code (`cart_email_missing`, `too_many_unpaid_orders`, Medusa's `invalid_data`...). */
  code?: string | null;
  /** For developers, in English; never shown to a shopper. */
  message?: string | null;
  /** The HTTP status, when the store answered. */
  status?: number | null;
}

// The few things a shopper can be told, each once; the codes below point at them.
const retry =
  "Não conseguimos falar com o serviço de pagamento agora. Nada foi cobrado: tente de novo em alguns segundos.";
const busy = "Muita procura agora. Nada foi cobrado: tente de novo em um minuto.";
const storeSetup =
  "A loja não consegue receber por Pix ou boleto neste momento. Nada foi cobrado: tente mais tarde ou fale com a loja.";
const ours = "Algo deu errado do nosso lado. Nada foi cobrado: tente de novo.";
// A bug in the store (`internal_error`): asking again repeats it, and the store has the details.
// Before a code nothing can be paid, and after one a payment made is kept: both are "nothing lost".
const storeBug =
  "Algo deu errado do nosso lado, e tentar de novo agora não resolve. Nenhum pagamento feito se perde: fale com a loja.";
const newCode = "Este pagamento não vale mais. Volte ao carrinho e gere um novo código.";
const notFound = "Não encontramos este pagamento. Volte à loja e confira o seu pedido.";

/**
 * The shopper's words for each code. Codes only a merchant or a developer can meet (admin
 * routes, the webhook, a malformed request of the storefront itself) still have words: a
 * storefront that shows one by mistake says something true and calm, never English.
 */
const byCode: Record<string, string> = {
  // The cart is not ready to be paid: the storefront's own steps ask for these.
  cart_empty: "Seu carrinho está vazio. Adicione um produto para continuar.",
  cart_email_missing: "Informe o seu e-mail na etapa de entrega para continuar.",
  cart_address_missing: "Informe o endereço de entrega para continuar.",
  cart_completed: "Este carrinho já virou um pedido. Confira o seu pedido.",
  cart_not_found: "Não encontramos o seu carrinho. Adicione os produtos de novo.",
  collection_already_paid: "Este pedido já está pago. Não é preciso pagar de novo.",
  // An order's own collection (an order edit's difference, a converted draft order).
  order_email_missing:
    "Este pedido não tem e-mail. Fale com a loja para receber o link de pagamento.",
  collection_canceled:
    "Este pagamento foi cancelado pela loja. Fale com a loja se ainda quiser pagar.",
  collection_exists: "Este pedido já tem um link de pagamento. Use o link que a loja enviou.",
  order_canceled: "Este pedido foi cancelado. Não é preciso pagar.",
  nothing_owed: "Este pedido não tem valor a pagar agora.",
  payment_code_in_progress:
    "Este pedido já tem um código de pagamento em aberto. Pague por ele: está na página do pedido ou no link que a loja enviou.",
  payment_capture_pending:
    "Um pagamento anterior deste pedido ainda está sendo registrado pela loja. Nada foi cobrado agora: tente de novo em alguns minutos.",
  invalid_amount: "O valor deste pedido não pode ser pago com Pix ou boleto.",
  unsupported_currency: "Pix e boleto aceitam apenas pagamentos em reais.",
  missing_payer_data: "Para gerar o boleto, preencha os dados de quem paga.",
  invalid_payer_data: "Confira os dados de quem paga.",
  // Passing failures: nothing was charged, the same request may be sent again.
  store_unavailable: retry,
  charge_bound_elsewhere: retry,
  collection_busy: retry,
  payment_service_unavailable: retry,
  payment_service_error: retry,
  charge_outcome_unknown: retry,
  connection_error: retry,
  timeout: retry,
  rate_limit_exceeded: retry,
  client_rate_limited: retry,
  stream_limit_reached: retry,
  too_many_streams: retry,
  // Medusa answers every passing failure of the plugin with this code (a 409).
  invalid_state_error: retry,
  unknown_error: ours,
  // A bug the store logged under an id (a 500): not passing, so not "tente de novo".
  internal_error: storeBug,
  too_many_waiting_creates: busy,
  too_many_unpaid_orders:
    "Você já tem pedidos aguardando pagamento nesta loja. Pague um deles, ou pague este com Pix, para fazer um novo pedido.",
  refresh_rate_limited: "Aguarde alguns segundos para verificar o pagamento de novo.",
  // The code itself.
  session_not_found: notFound,
  session_has_no_charge: newCode,
  charge_not_found: newCode,
  create_input_gone: newCode,
  order_not_found: "Não encontramos este pedido. Confira o link ou fale com a loja.",
  qr_not_ready: "O QR code ainda está sendo preparado. Ele aparece aqui em instantes.",
  qr_not_available: "Este pagamento não tem QR code. Use o código para copiar e colar.",
  // The store's configuration: only the merchant can fix it.
  plugin_not_installed: storeSetup,
  invalid_options: storeSetup,
  provider_not_found: storeSetup,
  invalid_api_key: storeSetup,
  api_key_revoked: storeSetup,
  variant_mismatch: storeSetup,
  // A publishable key missing or not the store's (Medusa's `not_allowed`).
  not_allowed: storeSetup,
  capture_not_recorded: ours,
  capture_not_started: ours,
  refund_not_supported: ours,
  // A request the storefront itself got wrong, or one of the admin's and the webhook's.
  invalid_data: "Confira os dados informados e tente de novo.",
  invalid_request: ours,
  invalid_session_id: notFound,
  invalid_cart_id: ours,
  invalid_order_id: ours,
  invalid_charge_id: ours,
  invalid_payment_method: ours,
  reserved_cart_metadata: ours,
  invalid_pix_discount: ours,
  invalid_query: ours,
  invalid_limit: ours,
  invalid_filters: ours,
  invalid_period: ours,
  invalid_refund: ours,
  invalid_note: ours,
  charge_not_held: ours,
  charge_needs_decision: ours,
  invalid_webhook: ours,
  webhook_unauthorized: ours,
  payload_too_large: ours,
  not_found: notFound,
  unauthorized: storeSetup,
};

/** The payer fields a boleto refusal names (`data.number`, `billing_address.city`), as a shopper knows them. */
const payerFields: Record<string, string> = {
  document: "o CPF ou CNPJ",
  neighborhood: "o bairro",
  number: "o número",
  name: "o nome",
  first_name: "o nome",
  last_name: "o sobrenome",
  email: "o e-mail",
  phone: "o telefone",
  address_1: "o endereço",
  city: "a cidade",
  province: "o estado",
  postal_code: "o CEP",
};

/**
 * "o CPF ou CNPJ, o bairro e o número": the payer fields a boleto refusal's message names. The
 * plugin names a missing field `data.number` or `billing_address.city`, and opens the message
 * with a wrong one ("document is not a valid CPF or CNPJ."); only those names are read.
 */
function namedFields(message: string): string | undefined {
  const names = Array.from(message.matchAll(/\b(?:data|billing_address)\.(\w+)|^(\w+)/g))
    .map((match) => payerFields[match[1] ?? match[2] ?? ""])
    .filter((name): name is string => !!name);
  const fields = Array.from(new Set(names));
  if (fields.length < 2) return fields[0];
  return `${fields.slice(0, -1).join(", ")} e ${fields[fields.length - 1]}`;
}

/**
 * The shopper's words for `code`, or undefined for a code this module does not know (a newer
 * plugin's, say): {@link shopperMessage} then falls back on the status.
 */
export function shopperMessageFor(code: string): string | undefined {
  return Object.hasOwn(byCode, code) ? byCode[code] : undefined;
}

/**
 * What the shopper reads for a refusal of the store, in Brazilian Portuguese: chosen by its
 * `code`, else by its status (a 409, a 429 or a 5xx are passing: nothing was charged), never by
 * its `message`. For a boleto's payer data, it names the fields the store named.
 */
export function shopperMessage(refusal: StoreRefusal): string {
  const { code, message, status } = refusal;
  if (code === "missing_payer_data" || code === "invalid_payer_data") {
    const fields = namedFields(message ?? "");
    if (fields) {
      return code === "missing_payer_data"
        ? `Para gerar o boleto, preencha ${fields}.`
        : `Confira ${fields}.`;
    }
  }
  const known = code ? shopperMessageFor(code) : undefined;
  if (known) return known;
  if (status === 429) return busy;
  if (status === 409 || (status != null && status >= 500) || status == null) return retry;
  return ours;
}

/**
 * The refusal in one line for a console or a log (`cart_email_missing (400): The cart has no
 * e-mail...`): what a developer needs, where a shopper never looks.
 */
export function developerText(refusal: StoreRefusal): string {
  const { code, message, status } = refusal;
  return `${code ?? "no code"}${status != null ? ` (${status})` : ""}: ${message ?? "no message"}`;
}
