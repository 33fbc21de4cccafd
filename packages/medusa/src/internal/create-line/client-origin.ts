import { createHash } from "node:crypto";

/**
 * Who vouches that a create is a shopper's, beyond the address it comes from:
 *
 * - `storefront`: the store's own storefront server signed the shopper's address
 *   (storefront-signature.ts);
 * - `mailbox`: the cart's e-mail has an order paid at this store (medusa/buyers.ts
 *   `mailboxHasPaidOrder`, through the cart's customer), and that mailbox holds nothing else in
 *   the line now: no create waiting or on its way, no live unpaid code (queue.ts `admit` decides
 *   it under the mailbox's lock). Anyone may type a known customer's e-mail, so the vouch is a
 *   share, not a pass: one create at a time per mailbox, whatever the addresses. A flood that
 *   paid for one order here earns one place, and a shopper whose e-mail a flood borrowed is back
 *   where an address alone puts her, never behind it.
 *
 * A vouched create goes before every create nobody vouches for (holding-order.ts), so a flood
 * from more fresh addresses than the service's minute can serve, which addresses alone cannot
 * tell from shoppers, still leaves the storefront's shoppers and the store's returning
 * customers their codes.
 */
export type Vouch = "storefront" | "mailbox";

/** Who asked for a create: the client's address and the cart's e-mail, as line keys. */
export interface ClientOrigin {
  /** The client's key (client-address.ts: `127.0.0.2`, `2001:db8:1:2::/64`). */
  clientKey: string;
  /** `emailKey` of the cart's e-mail. */
  emailKey: string;
  /** Who vouches that a shopper asks (`Vouch`); null: only the network's word. */
  vouchedBy: Vouch | null;
  /** The place the session gate kept for this request in the waiting counts (queue.ts `admit`). */
  holdId?: string;
}

/**
 * One key per mailbox, not per spelling: case, a `+tag` and (at Gmail) dots reach the same
 * inbox, so they count as one address for every per-e-mail limit. Hashed: the key is compared,
 * never read back, and the tables that hold it keep no e-mail in clear.
 */
export function emailKey(email: string): string {
  const trimmed = email.trim().toLowerCase();
  const at = trimmed.lastIndexOf("@");
  let local = at === -1 ? trimmed : trimmed.slice(0, at);
  let domain = at === -1 ? "" : trimmed.slice(at + 1);
  local = local.split("+")[0] as string;
  if (domain === "googlemail.com") domain = "gmail.com";
  if (domain === "gmail.com") local = local.replace(/\./g, "");
  return createHash("sha256").update(`${local}@${domain}`).digest("hex").slice(0, 32);
}

/**
 * The key a payer document (CPF or CNPJ) is counted by: a SHA-256 of its digits, so the same
 * document however it was typed is one key, and the document itself is not kept. Pseudonymous,
 * not anonymous: a CPF has few enough values to be found from its hash, so rows holding it are
 * pruned like the rest of the line's. Null for no document.
 */
export function payerKey(document: string | undefined | null): string | null {
  const digits = (document ?? "").replace(/\D/g, "");
  if (!digits) return null;
  return createHash("sha256").update(`payer:${digits}`).digest("hex").slice(0, 32);
}

/**
 * The origin of the session request being served for a collection, in this process. The
 * session route serves one request per collection at a time (checkout/session-requests), and
 * the provider's create runs inside it, so the collection names the request.
 */
const origins = new Map<string, ClientOrigin>();

/** Holds `origin` for the collection's session request until `release` is called. */
export function holdOrigin(collectionId: string, origin: ClientOrigin): () => void {
  origins.set(collectionId, origin);
  return () => {
    if (origins.get(collectionId) === origin) origins.delete(collectionId);
  };
}

/** The origin of the collection's session request now being served here, if any. */
export function originOf(collectionId: string | null | undefined): ClientOrigin | undefined {
  return collectionId ? origins.get(collectionId) : undefined;
}
