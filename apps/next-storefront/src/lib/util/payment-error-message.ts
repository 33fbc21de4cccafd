import {
  developerText,
  shopperMessage,
  type StoreRefusal,
} from "@pix-checkout/element/messages"

/**
 * The shopper's message, in Portuguese, for a refusal of the store: the words of the element's
 * shared module, chosen by the plugin's stable `code` (for the boleto payer, the fields it
 * named), never by its message, which is written for developers and goes to the console.
 */
export function paymentErrorMessage(refusal: StoreRefusal): string {
  logRefusal(refusal)
  return shopperMessage(refusal)
}

/** The store's own words, for developers: the console, never the page. */
export function logRefusal(refusal: StoreRefusal): void {
  // An app, not a library: the console is where a storefront's developer looks.
  // eslint-disable-next-line no-console
  console.warn(`[pix-checkout] ${developerText(refusal)}`)
}
