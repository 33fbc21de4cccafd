/**
 * Every charge's `description` carries the Medusa payment session it was created for, as
 * `<text> (ref <session id>)`, e.g. `Pagamento Pix (ref payses_01JX3...)`. The API echoes the
 * description in its transaction list and in `charge.paid`, so:
 *
 * - after a create whose response was lost, the charge is found by that reference alone,
 *   never by "same amount, same minute", which would hand one shopper another's charge;
 * - a merchant reading the payment service's dashboard can search Medusa for the session.
 */

/** Room kept for the storefront's own text, so the reference always fits. */
const MAX_TEXT = 200;

/**
 * The token that identifies a charge's session inside its description, parentheses included,
 * so a search for it matches this session's token exactly and never a longer id containing it.
 */
export function chargeReference(sessionId: string): string {
  return `(ref ${sessionId})`;
}

/** The description sent with a new charge. `text` is the storefront's, when it sent one. */
export function chargeDescription(
  sessionId: string,
  method: "pix" | "boleto",
  text?: string,
): string {
  // A storefront's text never carries a reference of its own: a lost create's charge is found
  // by its reference, and a planted one would name another session.
  const own = text
    ?.replace(/\(\s*ref\b[^)]*\)?/gi, " ")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, MAX_TEXT);
  const base = own || (method === "pix" ? "Pagamento Pix" : "Pagamento boleto");
  return `${base} ${chargeReference(sessionId)}`;
}
