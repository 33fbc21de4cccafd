import { createHash } from "node:crypto";
import type { IncomingMessage } from "node:http";

/** Who asked for a create: the client's address and the cart's e-mail, as line keys. */
export interface ClientOrigin {
  /** The client's address (`127.0.0.2`, `2001:db8::1`). */
  clientKey: string;
  /** `emailKey` of the cart's e-mail. */
  emailKey: string;
  /** The place the session gate kept for this request in the waiting counts (queue.ts `admit`). */
  holdId?: string;
}

/**
 * The client's address behind `trustProxyHops` proxies: the socket's peer with none, else the
 * entry of `X-Forwarded-For` that many hops from its right end (the entries a client adds
 * itself are further left, and never read). Medusa's own `req.ip` trusts one hop.
 */
export function clientAddressOf(req: IncomingMessage, trustProxyHops: number): string {
  const peer = normalizeAddress(req.socket?.remoteAddress ?? "unknown");
  if (trustProxyHops === 0) return peer;
  const header = req.headers["x-forwarded-for"];
  const forwarded = (Array.isArray(header) ? header.join(",") : (header ?? ""))
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  // Right to left: the peer, then each proxy's view of who called it.
  const chain = [peer, ...forwarded.reverse()];
  return normalizeAddress(chain[Math.min(trustProxyHops, chain.length - 1)] as string);
}

function normalizeAddress(address: string): string {
  return address.startsWith("::ffff:") ? address.slice(7) : address.toLowerCase();
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
