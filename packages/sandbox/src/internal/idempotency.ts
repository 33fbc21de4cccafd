import { createHash } from "node:crypto";
import { ApiError } from "./api-error.js";

/** Longest accepted `Idempotency-Key`. */
export const IDEMPOTENCY_KEY_MAX = 255;

/** JSON with sorted object keys, so `{a,b}` and `{b,a}` count as the same body. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** sha256 of the canonical body: what "the same body" means for a replayed key. */
export function fingerprint(body: unknown): string {
  return createHash("sha256").update(canonical(body)).digest("hex");
}

/** Reads `Idempotency-Key` (or `X-Idempotency-Key`, which the spec's CORS list names). */
export function idempotencyKeyOf(
  headers: Record<string, string | string[] | undefined>,
): string | undefined {
  const raw = headers["idempotency-key"] ?? headers["x-idempotency-key"];
  if (raw === undefined) return undefined;
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (key === undefined || key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX) {
    throw new ApiError(
      400,
      "invalid_idempotency_key",
      `\`Idempotency-Key\` must be 1 to ${IDEMPOTENCY_KEY_MAX} characters, e.g. a UUID per checkout attempt.`,
    );
  }
  return key;
}
