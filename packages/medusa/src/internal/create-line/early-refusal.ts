import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http";
import { ContainerRegistrationKeys } from "@medusajs/framework/utils";
import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import { createPluginLogger } from "../platform/logger";
import { clientKeyOfRequest } from "./client-of-request";
import { fairOptions } from "./fair-options";
import { createLineOf } from "./line";
import { CREATE_WINDOW_MS } from "./queue";
import { sendWaitingRefusal } from "./refusal-answer";
import { OWN_PROVIDER } from "./session-gate";
import { capReached, retryAfterMs } from "./waiting-caps";

/**
 * The first middleware of `POST /store/payment-collections/:id/payment-sessions` with a Pix or
 * boleto provider: a client the create line would refuse anyway is answered 429
 * `too_many_waiting_creates` at once, from one indexed query (`CreateQueue.standing`), before
 * the collection's lock, the cart's read and Medusa's session workflow cost anything. A flood
 * retrying at once is then a few milliseconds a request instead of a whole session request each.
 *
 * It refuses only what `CreateQueue.admit` would: a refusal of this client still standing
 * (its `Retry-After` not yet passed), its own cap reached, or a line with no place it may take
 * (the reserve, waiting-caps.ts). Anything else goes on to the session gate, whose admission
 * under locks stays the authority: a request let through here may still be refused there. A
 * refusal decided here (not an earlier one repeated) is recorded as the admission's would be.
 */
export async function refuseWaitingClientsEarly(
  req: MedusaRequest,
  res: MedusaResponse,
  next: MedusaNextFunction,
): Promise<void> {
  const body = req.body as { provider_id?: unknown } | undefined;
  if (typeof body?.provider_id !== "string" || !OWN_PROVIDER.test(body.provider_id)) {
    return next();
  }
  try {
    const config = req.scope.resolve(ContainerRegistrationKeys.CONFIG_MODULE);
    const options = fairOptions(config);
    const clientKey = clientKeyOfRequest(
      req,
      options,
      createPluginLogger(req.scope.resolve(ContainerRegistrationKeys.LOGGER)),
    );
    const queue = createLineOf(
      req.scope.resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION),
      config,
    ).requests;
    const standing = await queue.standing(clientKey);
    if (standing.refusal) {
      return sendWaitingRefusal(res, {
        ...standing.refusal,
        waiting: standing.counts.client,
        earlier: true,
      });
    }
    const over = capReached(standing.counts, options);
    if (over) {
      const retryMs = retryAfterMs(over, standing.clientSlotFreesInMs, CREATE_WINDOW_MS);
      await queue.refuse(clientKey, over, retryMs);
      return sendWaitingRefusal(res, {
        over,
        waiting: over === "client" ? standing.counts.client : (standing.counts.store ?? 0),
        retryAfterMs: retryMs,
        earlier: false,
      });
    }
  } catch (error) {
    return next(error);
  }
  next();
}
