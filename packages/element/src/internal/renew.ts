import type { RenewTarget } from "../session.js";
import type { Backend } from "./backend.js";

/**
 * Asks the store for a new payment session of the expired one's provider, through Medusa's
 * own store route, and answers its id. The plugin hands out a new code only when no payable
 * one exists for the cart, so this never puts two payable codes in the shopper's hands.
 * A chunk of its own: only an expired code needs it.
 */
export async function renewSession(backend: Backend, target: RenewTarget): Promise<string> {
  const res = await backend.request(
    `/store/payment-collections/${encodeURIComponent(target.payment_collection_id)}/payment-sessions`,
    {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ provider_id: target.provider_id }),
    },
  );
  const body = (await res.json().catch(() => null)) as {
    payment_collection?: { payment_sessions?: { id?: unknown; provider_id?: unknown }[] };
  } | null;
  const id = body?.payment_collection?.payment_sessions?.find(
    (session) => session.provider_id === target.provider_id,
  )?.id;
  if (typeof id !== "string" || !id) {
    throw new Error(`the store answered ${res.status} without a payment session`);
  }
  return id;
}
