/**
 * The sandbox page of the charge behind the session the element shows: `/pay/<id>` for a Pix
 * code, `/boleto/<id>` for a boleto (both in Portuguese, each with the charge's own buttons),
 * read from the code's `pix.payment_link` or `boleto.url` (Variant B's API sends a Pix code's
 * link; Variant A's does not), else from the charge's id (`chargeId`, the session's `data` in
 * Medusa), and put on the demo's sandbox address (the store may reach the sandbox by another
 * host than the browser). The sandbox's home, the list of every charge, when neither says.
 */
export function sandboxPageOf(
  sandboxUrl: string,
  session:
    | { pix?: { payment_link?: string | null } | null; boleto?: { url?: string | null } | null }
    | null
    | undefined,
  chargeId: string | null = null,
): string {
  const root = sandboxUrl.replace(/\/+$/, "");
  const link = session?.pix?.payment_link ?? session?.boleto?.url;
  if (!link) {
    // The sandbox's pay page answers a boleto's id too, with a link to its boleto.
    return chargeId && /^[A-Za-z0-9_-]+$/.test(chargeId) ? `${root}/pay/${chargeId}` : sandboxUrl;
  }
  let path: string;
  try {
    path = new URL(link).pathname;
  } catch {
    return sandboxUrl;
  }
  return /^\/(pay|boleto)\/[A-Za-z0-9_-]+$/.test(path) ? `${root}${path}` : sandboxUrl;
}
