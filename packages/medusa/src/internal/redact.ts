const SECRET_KEY = /\b(sk|pk)_live_[A-Za-z0-9_-]+/g;

/**
 * Masks a CPF or CNPJ for display: keeps the last 2 characters, the rest become `*`
 * (punctuation is dropped). `123.456.789-09` → `*********09`.
 */
export function maskDocument(document: string): string {
  const bare = document.replace(/[^0-9A-Za-z]/g, "");
  if (bare.length <= 2) return "*".repeat(bare.length);
  return "*".repeat(bare.length - 2) + bare.slice(-2);
}

/** Replaces every API key in a string with its prefix, e.g. `sk_live_[redacted]`. */
export function redactString(text: string): string {
  return text.replace(SECRET_KEY, (_match, kind: string) => `${kind}_live_[redacted]`);
}

const SENSITIVE_KEYS = new Set(["apikey", "api_key", "authorization", "webhooksecret", "token"]);
const DOCUMENT_KEYS = new Set(["document", "cpf", "cnpj", "tax_id"]);

/**
 * The one redaction function for everything this plugin logs or stores for display: API
 * keys anywhere in strings, secret-bearing fields, and payer documents (masked). Returns a
 * copy; handles cycles and errors.
 */
export function redact(value: unknown, seen = new WeakSet<object>()): unknown {
  if (typeof value === "string") return redactString(value);
  if (value === null || typeof value !== "object") return value;
  if (seen.has(value)) return "[circular]";
  seen.add(value);
  if (value instanceof Error) {
    return { name: value.name, message: redactString(value.message) };
  }
  if (Array.isArray(value)) return value.map((item) => redact(item, seen));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const lower = key.toLowerCase();
    if (SENSITIVE_KEYS.has(lower)) out[key] = "[redacted]";
    else if (DOCUMENT_KEYS.has(lower) && typeof item === "string") out[key] = maskDocument(item);
    else out[key] = redact(item, seen);
  }
  return out;
}
