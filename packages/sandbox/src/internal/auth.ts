import { createHash } from "node:crypto";
import { ApiError } from "./api-error.js";
import type { SandboxState } from "./state.js";

/** The key every sandbox accepts unless `keys` / `--key` replaces it. Public on purpose. */
export const DEFAULT_KEY = "sk_live_sandbox_default";

/** Which 401 code an absent `Authorization` header gets on a route (see README, "Auth"). */
export type MissingHeaderCode = "unauthorized" | "missing_authorization";

/** sha256 of a key, the only form in which the sandbox stores or indexes keys. */
export function hashKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

/**
 * Checks the `Authorization` header against the key table and returns the key's hash. Rows of
 * the spec's table, in order: absent header (401 `unauthorized` on the charge endpoints, whose
 * pages name it, 401 `missing_authorization` elsewhere), a header that is not `Bearer <token>`
 * (401 `invalid_authorization`), a publishable `pk_live_` key or any unknown key (401
 * `invalid_api_key`), a disabled key (403 `api_key_disabled`), a revoked key (403
 * `api_key_revoked`). Messages never repeat the key.
 */
export function authenticate(
  header: string | undefined,
  state: SandboxState,
  missingCode: MissingHeaderCode,
): string {
  if (header === undefined || header.trim() === "") {
    throw new ApiError(
      401,
      missingCode,
      "The Authorization header is missing. Send `Authorization: Bearer sk_live_...`.",
    );
  }
  const match = /^Bearer ([^\s]+)$/.exec(header.trim());
  if (!match) {
    throw new ApiError(
      401,
      "invalid_authorization",
      "The Authorization header must be `Bearer <secret key>`, with one space and no other text.",
    );
  }
  const token = match[1] as string;
  if (token.startsWith("pk_live_")) {
    throw new ApiError(
      401,
      "invalid_api_key",
      "A publishable key (pk_live_...) cannot authenticate API requests. Use a secret key (sk_live_...) from your backend.",
    );
  }
  const hash = hashKey(token);
  const keyState = token.startsWith("sk_live_") ? state.keys.get(hash) : undefined;
  if (keyState === undefined) {
    throw new ApiError(
      401,
      "invalid_api_key",
      "The API key was not found. Check that you copied the whole secret key (sk_live_...).",
    );
  }
  if (keyState === "disabled") {
    throw new ApiError(
      403,
      "api_key_disabled",
      "This API key is disabled. Enable it or use another key.",
    );
  }
  if (keyState === "revoked") {
    throw new ApiError(
      403,
      "api_key_revoked",
      "This API key was revoked. Create a new key and use it instead.",
    );
  }
  return hash;
}

/** A key shown to humans: prefix and last four characters only. */
export function maskKey(key: string): string {
  return key.length <= 12 ? "sk_live_…" : `${key.slice(0, 8)}…${key.slice(-4)}`;
}
