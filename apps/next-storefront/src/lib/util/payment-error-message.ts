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
  console.warn(`[pix-checkout] ${developerText(refusal)}`)
  return shopperMessage(refusal)
}
