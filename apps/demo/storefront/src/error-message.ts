// What the shopper reads when a store call fails: the words of the one module the element and
// every storefront share (`@pix-checkout/element/messages`), chosen by the store's stable `code`
// (else its status), never by its message, which is English for developers and goes to the
// console.
import { developerText, shopperMessage } from "@pix-checkout/element/messages";
import { logForDevelopers } from "./developer-log";

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

/**
 * The shopper's words for a failed call, in Portuguese; the store's own text goes to the
 * console for whoever develops the store. A call that never reached the store (no status) is
 * a passing failure, as a 409, a 429 or a 5xx is: nothing was charged.
 */
export function errorMessage(error: unknown): string {
  const failed = (typeof error === "object" && error !== null ? error : {}) as FailedCall;
  const refusal = {
    code: typeof failed.code === "string" ? failed.code : undefined,
    status: typeof failed.status === "number" ? failed.status : undefined,
    message: typeof failed.message === "string" ? failed.message : String(error),
  };
  logForDevelopers(developerText(refusal));
  return shopperMessage(refusal);
}
