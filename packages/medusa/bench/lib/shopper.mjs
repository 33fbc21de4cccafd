// One shopper's Pix checkout through the store API, as the benches that play shoppers run it.
import { openStream, postFrom } from "./http-tools.mjs";

/**
 * One shopper from `from` (a loopback address of its own, so the store sees one client): the
 * cart's payment collection, a Pix session, then the session's stream until the code is there.
 * Resolves with `{ sessionMs, codeMs, queued }` (times from the shopper's start) or
 * `{ error, sessionMs? }`; a code not there after `giveUpMs` is an error. `headers` go on its
 * POSTs (a storefront server's signed `x-pix-client`, say).
 */
export async function checkout(base, key, cartId, from, giveUpMs = 6 * 60_000, headers = {}) {
  const started = performance.now();
  const post = (path, body) =>
    postFrom(from, `${base}${path}`, body, { ...headers, "x-publishable-api-key": key });
  const collection = await post("/store/payment-collections", { cart_id: cartId });
  if (collection.status !== 200) return { error: `collection ${collection.status}` };
  const { payment_collection } = await collection.json();
  const created = await post(
    `/store/payment-collections/${payment_collection.id}/payment-sessions`,
    { provider_id: "pp_pix_a" },
  );
  const sessionMs = performance.now() - started;
  if (created.status !== 200) {
    return {
      error: `session ${created.status}: ${(await created.text()).slice(0, 200)}`,
      sessionMs,
    };
  }
  const sessions = (await created.json()).payment_collection.payment_sessions;
  const session = sessions[sessions.length - 1];
  if (session.data.pix) return { sessionMs, codeMs: sessionMs, queued: false };
  const code = await new Promise((resolve) => {
    let req;
    const timer = setTimeout(() => {
      req?.destroy();
      resolve({ error: "no code in time" });
    }, giveUpMs);
    const url = `${base}/store/pix-checkout/sessions/${session.id}/stream`;
    openStream(
      url,
      key,
      (event) => {
        if (event.pix) {
          clearTimeout(timer);
          req?.destroy();
          resolve({ codeMs: performance.now() - started });
        } else if (event.status !== "preparing") {
          clearTimeout(timer);
          req?.destroy();
          resolve({ error: `stream said ${event.status}` });
        }
      },
      from,
    ).then(
      (r) => (req = r),
      (error) => {
        clearTimeout(timer);
        resolve({ error: String(error.message) });
      },
    );
  });
  return { sessionMs, queued: true, ...code };
}
