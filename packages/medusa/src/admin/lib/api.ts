/// <reference lib="dom" />
// Admin extensions run in the merchant's browser (the server code is built without DOM types).
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
