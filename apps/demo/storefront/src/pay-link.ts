/**
 * The session id of a "come back and pay" link (`/pagar/<session_id>`, the plugin's
 * notification `paymentPageUrl` in the demo), if this path is one.
 */
export function payLinkSession(pathname: string): string | null {
  const match = /^\/pagar\/(payses_[A-Za-z0-9]+)\/?$/.exec(pathname);
  return match ? match[1]! : null;
}

/** The address of a session's "come back and pay" page. */
export function payLinkPath(sessionId: string): string {
  return `/pagar/${encodeURIComponent(sessionId)}`;
}
