/**
 * The one redaction function. Every log line and every error message passes through it, so a
 * secret can only leak if it reaches the caller through a path that bypasses both, and there is
 * none: `PixError` redacts its own message and the logger wrapper redacts every line and field.
 */

// Stripe-style key shapes: the prefix tells the reader what kind of key was there, the rest goes.
const KEY_PATTERN = /\b(sk|pk|rk)_(live|test)_[A-Za-z0-9_-]*/g;
const BEARER_PATTERN = /\b(Bearer|Basic)\s+[^\s"',;]+/gi;
const SENSITIVE_HEADERS = new Set(["authorization", "proxy-authorization", "cookie", "set-cookie"]);

/** Replaces API keys and Authorization credentials in a string with placeholders. */
export function redact(text: string): string {
  return text.replace(KEY_PATTERN, "$1_$2_[redacted]").replace(BEARER_PATTERN, "$1 [redacted]");
}

/**
 * Deep-redacts a value meant for a log line: strings are scrubbed, header-like keys such as
 * `authorization` are blanked whatever their value, and cycles are cut.
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
    out[key] = SENSITIVE_HEADERS.has(key.toLowerCase()) ? "[redacted]" : redactValue(item, seen);
  }
  return out;
}
