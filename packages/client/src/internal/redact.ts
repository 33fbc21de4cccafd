/**
 * The one redaction module of the project: the client and the Medusa plugin
 * pass every log line, error message and stored display value through it. `PixError`
 * redacts its own message, the client's logger wrapper redacts every line and field, and
 * the plugin imports these functions instead of keeping patterns of its own.
 */

// Stripe-style key shapes: the prefix tells the reader what kind of key was there, the rest goes.
const KEY_PATTERN = /\b(sk|pk|rk)_(live|test)_[A-Za-z0-9_-]*/g;
const BEARER_PATTERN = /\b(Bearer|Basic)\s+[^\s"',;]+/gi;
// A webhook URL carries its token as `?token=`; a URL in a message must not carry it on.
const URL_TOKEN_PATTERN = /([?&](?:token|access_token)=)[^&#\s"']+/gi;
// A reminder's link names its message by a token in the path (`/pix-checkout/recovery/<token>`,
// the Medusa plugin's recovery pages): the segment is the credential, the rest of the path is
// kept. Case-insensitive, as Express routes it.
const RECOVERY_TOKEN_PATTERN = /(\/pix-checkout\/recovery\/)[^/?#\s"']+/gi;
// A URL's user info (`https://user:pass@host/`) is a credential wherever the URL is printed,
// up to the last `@` before the host: a password with an unescaped `@` is hidden whole.
const URL_USERINFO_PATTERN = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#"']+@/gi;

// Field names whose value is a credential, whatever it looks like (compared lowercased).
const SECRET_FIELDS = new Set([
  "authorization",
  "proxy-authorization",
  "cookie",
  "set-cookie",
  "apikey",
  "api_key",
  "webhooksecret",
  "webhook_secret",
  "token",
]);
// Field names whose value is a payer's CPF or CNPJ: personal data, masked rather than blanked
// so a merchant can still tell two payers apart.
const DOCUMENT_FIELDS = new Set(["document", "cpf", "cnpj", "tax_id"]);

/**
 * Replaces API keys, Authorization credentials, URL tokens (`?token=` and a recovery link's
 * path segment) and URL user info in a string with placeholders.
 */
export function redact(text: string): string {
  return text
    .replace(KEY_PATTERN, "$1_$2_[redacted]")
    .replace(BEARER_PATTERN, "$1 [redacted]")
    .replace(URL_TOKEN_PATTERN, "$1[redacted]")
    .replace(RECOVERY_TOKEN_PATTERN, "$1[redacted]")
    .replace(URL_USERINFO_PATTERN, "$1[redacted]@");
}

/**
 * Masks a CPF or CNPJ for display: keeps the last 2 characters, the rest become `*`
 * (punctuation is dropped). `123.456.789-09` → `*********09`.
 */
export function maskDocument(document: string): string {
  const bare = document.replace(/[^0-9A-Za-z]/g, "");
  if (bare.length <= 2) return "*".repeat(bare.length);
  return "*".repeat(bare.length - 2) + bare.slice(-2);
}

/**
 * Deep-redacts a value meant for a log line or a display record, returning a copy: strings
 * are scrubbed, credential fields (`authorization`, `apiKey`, `webhookSecret`, `token`...)
 * are blanked whatever their value, payer documents are masked, an error keeps only its
 * name and redacted message, and cycles are cut.
 */
export function redactValue(value: unknown, seen = new WeakSet<object>()): unknown {
  if (typeof value === "string") return redact(value);
  if (value === null || typeof value !== "object") return value;
  if (seen.has(value)) return "[circular]";
  seen.add(value);
  if (value instanceof Error) {
    return { name: value.name, message: redact(value.message) };
  }
  if (Array.isArray(value)) return value.map((item) => redactValue(item, seen));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const lower = key.toLowerCase();
    if (SECRET_FIELDS.has(lower)) out[key] = "[redacted]";
    else if (DOCUMENT_FIELDS.has(lower) && typeof item === "string") out[key] = maskDocument(item);
    else out[key] = redactValue(item, seen);
  }
  return out;
}
