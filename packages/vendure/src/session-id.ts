import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * The id the shopper's page follows a code by: the charge's id and a MAC of it under the
 * plugin's webhook secret. Vendure's payment and order ids are counters a stranger can guess;
 * this one is only ever given to the shopper the code was made for (the payment's
 * `metadata.public`), and the store's status route answers nothing for an id whose MAC does
 * not match, before it reads anything. Changing `webhookSecret` ends the ids given before.
 */
const LABEL = "pix-checkout:vendure-session:";

export function sessionIdOf(secret: string, chargeId: string): string {
  return `${chargeId}.${macOf(secret, chargeId)}`;
}

/** The charge a session id names, or undefined when its MAC is not this store's. */
export function chargeIdOf(secret: string, sessionId: string): string | undefined {
  const dot = sessionId.lastIndexOf(".");
  if (dot <= 0 || sessionId.length > 200) return undefined;
  const chargeId = sessionId.slice(0, dot);
  const given = Buffer.from(sessionId.slice(dot + 1));
  const wanted = Buffer.from(macOf(secret, chargeId));
  return given.length === wanted.length && timingSafeEqual(given, wanted) ? chargeId : undefined;
}

function macOf(secret: string, chargeId: string): string {
  return createHmac("sha256", secret)
    .update(LABEL + chargeId)
    .digest("base64url")
    .slice(0, 22);
}
