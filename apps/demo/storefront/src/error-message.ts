// What the shopper reads when a store call fails. The store answers in English for developers;
// a shopper in Brazil gets Portuguese, and the retryable failures say that nothing was charged.

/** The part of the Medusa JS SDK's FetchError (or a StoreRefusal) this needs. */
interface FailedCall {
  status?: unknown;
  code?: unknown;
  message?: unknown;
}

/**
 * A refusal of the store that keeps the plugin's stable `code`, which the JS SDK's error
 * drops: what the shopper reads is chosen by it, never by the English message.
 */
export class StoreRefusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    message: string,
  ) {
    super(message);
    this.name = "StoreRefusal";
  }
}

export const retryLater =
  "O serviço de pagamento não respondeu a tempo. Nada foi cobrado: tente de novo em alguns segundos.";
export const somethingWrong = "Algo deu errado. Tente de novo.";
export const busyNow = "Muita procura agora. Nada foi cobrado: tente de novo em um minuto.";
export const tooManyUnpaidOrders =
  "Você já tem pedidos aguardando pagamento nesta loja. Pague um deles, ou pague este com Pix, para fazer um novo pedido.";

/**
 * 409 is the Pix Checkout plugin's "the payment service failed or is busy; nothing was
 * charged" (Medusa renders every conflict with its own English retry text), 429 is the store's
 * line of codes being full ("muita procura"), and a 5xx is the store's own failure: all three
 * are worth another try.
 * Other refusals (a 400 naming a field) keep the store's message, which says what to fix.
 */
export function errorMessage(error: unknown): string {
  const failed = (typeof error === "object" && error !== null ? error : {}) as FailedCall;
  const status = typeof failed.status === "number" ? failed.status : undefined;
  // Each order placed before payment holds its stock until its boleto is paid or ends; the
  // store caps how many one shopper holds (429 too_many_unpaid_orders).
  if (failed.code === "too_many_unpaid_orders") return tooManyUnpaidOrders;
  // The plugin's line of codes to create is full (a busy minute, or one client asking for
  // many): 429 too_many_waiting_creates, with Retry-After.
  if (status === 429) return busyNow;
  if (status === 409 || (status !== undefined && status >= 500)) {
    return retryLater;
  }
  if (typeof failed.message === "string" && failed.message !== "") return failed.message;
  return somethingWrong;
}
