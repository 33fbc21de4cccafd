import { createHmac } from "node:crypto"

/**
 * The shopper's address as the proxies in front of this server wrote it: each appends to
 * `X-Forwarded-For` the address that called it, so the entry `hops` from the right is the one
 * the outermost of your `hops` proxies saw, and a shopper's own entries sit to its left, never
 * read. Fewer entries than `hops` means a proxy did not append (it passed the shopper's header
 * on, or is not there): any entry could be the shopper's own, so there is no address (Medusa
 * then counts the request as this server, which a shopper cannot choose). With `hops` 0 no
 * proxy stands in front and the header is all the shopper's: the address is the socket's peer,
 * if the server can see it (`req.socket.remoteAddress`; Next.js does not show it to app code).
 */
export function shopperAddress(
  forwardedFor: string | null | undefined,
  hops: number,
  socketAddress?: string
): string | undefined {
  if (!Number.isSafeInteger(hops) || hops < 0) return undefined
  if (hops === 0) return socketAddress || undefined
  const entries = (forwardedFor ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean)
  if (entries.length < hops) return undefined
  return entries[entries.length - hops]
}

/**
 * The `x-pix-client` header Medusa's payment plugin believes: `address` at `nowMs`, signed with
 * the secret its `fairness.storefrontSecret` also holds (HMAC-SHA256 of `<t>.<address>`).
 */
export function signShopperAddress(
  secret: string,
  address: string,
  nowMs = Date.now()
): string {
  const t = Math.floor(nowMs / 1000)
  const signature = createHmac("sha256", secret)
    .update(`${t}.${address}`)
    .digest("base64url")
  return `t=${t},a=${address},s=${signature}`
}
