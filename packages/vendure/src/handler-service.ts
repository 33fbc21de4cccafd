import type { Injector, Order, Payment, RequestContext } from "@vendure/core";
import { PixCheckoutService } from "./pix-checkout.service";

/**
 * What the Pix and boleto handlers share: the plugin's service (Vendure builds handlers before
 * Nest, and hands them the injector at `init`), the metadata every code of ours carries, and the
 * settle door's check.
 */
let service: PixCheckoutService | undefined;

/** A handler's `init`: the service from Nest's injector. */
export function bindService(injector: Injector): void {
  service = injector.get(PixCheckoutService);
}

export function serviceOf(): PixCheckoutService {
  if (!service) throw new Error("PixCheckoutPlugin is not in the Vendure config's plugins.");
  return service;
}

/**
 * A code's payment metadata: ours, written here on the server (the channel the code was made
 * in, so the webhook acts in that channel only), beside what the Shop API shows (`public`), with
 * the id the shopper's page (`<pix-checkout session-id>`) follows the code by.
 */
export function codeMetadata(
  ctx: RequestContext,
  chargeId: string,
  published: Record<string, unknown>,
  own: Record<string, unknown> = {},
) {
  return {
    channelToken: ctx.channel.token,
    ...own,
    public: { sessionId: serviceOf().sessionIdFor(chargeId), ...published },
  };
}

/**
 * A handler's `settlePayment`, the door an admin's "settle" takes too: the service is asked
 * again, and a code nobody paid (or whose money pays nothing of its order) is refused.
 */
export async function settleIfConfirmed(
  _ctx: RequestContext,
  order: Order,
  payment: Payment,
): Promise<{ success: true }> {
  const verdict = await serviceOf().verdictOf(order, payment);
  if (verdict.kind === "settle") return { success: true };
  throw new Error(verdict.why);
}
