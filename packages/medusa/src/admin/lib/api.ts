/// <reference lib="dom" />
// Admin extensions run in the merchant's browser (the server code is built without DOM types).
import { toast } from "@medusajs/ui";
import type { PixT } from "./i18n";

/** An error answer of the plugin's admin routes, `{ code, message }`. */
export class AdminApiError extends Error {
  /** The route's stable code (or `http_<status>` when the body had none). */
  readonly code: string;

  constructor(code: string, message: string) {
    super(message);
    this.name = "AdminApiError";
    this.code = code;
  }
}

/**
 * Calls one of the plugin's `/admin/pix-checkout/*` routes with the admin's session cookie.
 * The dashboard is served by the same Medusa server, so a relative URL reaches it.
 */
export async function adminFetch<T>(path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(path, {
    credentials: "include",
    ...init,
    headers: { accept: "application/json", ...(init.headers ?? {}) },
  });
  const body = (await response.json().catch(() => ({}))) as {
    code?: string;
    message?: string;
  };
  if (!response.ok) {
    throw new AdminApiError(
      body.code ?? `http_${response.status}`,
      body.message ?? `The request failed with HTTP ${response.status}.`,
    );
  }
  return body as T;
}

/**
 * Asks the plugin to re-check a charge with the payment API (through the state machine) and
 * tells the merchant what it found, in their language. Resolves to whether the re-check ran.
 */
export async function recheckCharge(chargeId: string, t: PixT): Promise<boolean> {
  try {
    const result = await adminFetch<{ outcome: string; charge: { status: string } | null }>(
      `/admin/pix-checkout/charges/${encodeURIComponent(chargeId)}/refresh`,
      { method: "POST" },
    );
    const status = result.charge?.status ?? "unknown";
    toast.success(
      t("recheck.done", {
        status: t(`status.${status}`, { defaultValue: status }),
        outcome: t(`status.${result.outcome}`, { defaultValue: result.outcome }),
      }),
    );
    return true;
  } catch (error) {
    toast.error((error as Error).message);
    return false;
  }
}
