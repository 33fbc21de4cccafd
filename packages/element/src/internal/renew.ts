import type { RenewTarget } from "../session.js";
import type { Lang } from "../localize/index.js";
import { developerText, shopperMessage } from "../messages.js";
import type { Backend } from "./backend.js";

/**
 * What a shopper of another language reads when no new code came, beside the button that tries
 * again: a busy minute (429 `too_many_waiting_creates`), or any other failure. Brazilian
 * Portuguese comes from the shopper messages (`@pix-checkout/element/messages`), which every
 * storefront shares. Here, not in the element's strings: only a renewal can fail, and this
 * chunk loads only then.
 */
const SAY: Record<Exclude<Lang, "pt-BR">, { busy: string; failed: string }> = {
  en: {
    busy: "Many shoppers right now. Nothing was charged: try again in a minute.",
    failed: "Could not generate a new code. Try again.",
  },
  es: {
    busy: "Mucha demanda ahora. No se cobró nada: inténtalo de nuevo en un minuto.",
    failed: "No se pudo generar un código nuevo. Inténtalo de nuevo.",
  },
};

/** A failure whose words for the shopper are `say`. */
const failure = (say: string) => Object.assign(new Error(say), { say });

/** A session as the store holds it now, or undefined when the store cannot say. */
const read = (backend: Backend, id?: string) =>
  (id
    ? backend
        .request(`/store/pix-checkout/sessions/${encodeURIComponent(id)}`, {})
        .then((res) => backend.session(res))
    : backend.get(AbortSignal.timeout(20_000))
  ).catch(() => undefined);

/**
 * What the session is now: another tab, or the link of an e-mail, may have paid the cart or
 * given it a newer code since this code expired. `undefined` (still expired, and so is any code
 * made since) lets the renewal go on; a session id is the code to show instead; `null` means
 * the session is no longer what the element shows (paid, say): the element reads it again.
 */
async function truth(
  backend: Backend,
  now?: Awaited<ReturnType<typeof read>>,
): Promise<string | null | undefined> {
  now ??= await read(backend);
  if (!now) return undefined;
  const next = now.replaced_by;
  if (next && typeof next == "string") {
    // The newer code may have expired too: then a new one, as for this one.
    const newer = await read(backend, next);
    return newer?.status === "expired" && !newer.replaced_by ? undefined : next;
  }
  return now.status === "expired" ? undefined : null;
}

/**
 * "Gerar novo código" on `host`: the cart's new session (or its current one) is shown instead,
 * as its `session-id`, and the page is told (`pix-renewed`); when the cart was paid meanwhile
 * (another tab, the e-mail's link), `readAgain` reads the session again. Throws as
 * `renewSession` does.
 */
export async function renew(
  backend: Backend,
  target: RenewTarget,
  lang: Lang,
  host: HTMLElement & { sessionId: string },
  readAgain: () => void,
): Promise<void> {
  const next = await renewSession(backend, target, lang, host);
  if (!next) return readAgain();
  const previous = host.sessionId;
  host.sessionId = next;
  host.dispatchEvent(
    new CustomEvent("pix-renewed", {
      detail: { previous, sessionId: next },
      bubbles: true,
      composed: true,
    }),
  );
}

/**
 * "Gerar novo código", after reading the session's current state: answers the session the
 * element shows next (the cart's current code, or a new one), or null when the session is no
 * longer expired (the cart was paid meanwhile), which the element then reads again and shows.
 * The request names the expired code's session (`data.renews`): the store fills the new code
 * from that one only for a request that can name it, never for whoever knows the order's id.
 * A refusal goes to `host` as `pix-error` with the store's own text (for developers) and is
 * thrown with the shopper's words (`say`).
 */
export async function renewSession(
  backend: Backend,
  target: RenewTarget,
  lang: Lang,
  host: HTMLElement,
): Promise<string | null> {
  // The session the element follows, as the store holds it now: the expired code it renews.
  const shown = await read(backend);
  const before = await truth(backend, shown);
  if (before !== undefined) return before;
  const renews = shown?.session_id;
  let res: Response | undefined;
  try {
    res = await backend.request(
      `/store/payment-collections/${encodeURIComponent(target.payment_collection_id)}/payment-sessions`,
      {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ provider_id: target.provider_id, data: { renews } }),
      },
      true,
    );
  } catch {
    // Unreachable: the connection is the likely cause, which the element's own words say.
  }
  const body = (await res?.json().catch(() => null)) as {
    code?: string;
    message?: string;
    payment_collection?: { payment_sessions?: { id?: unknown; provider_id?: unknown }[] };
  } | null;
  const id = body?.payment_collection?.payment_sessions?.find(
    (session) => session.provider_id === target.provider_id,
  )?.id;
  if (res?.ok && typeof id == "string" && id) return id;
  const refusal = { code: body?.code, message: body?.message, status: res?.status };
  host.dispatchEvent(
    new CustomEvent("pix-error", {
      detail: {
        code: res?.status === 429 ? "rate_limited" : res ? "server_error" : "network",
        message: developerText(refusal),
        status: res?.status,
      },
      bubbles: true,
      composed: true,
    }),
  );
  // Refused because the cart was paid or replaced its code meanwhile: show that instead.
  const after = await truth(backend);
  if (after !== undefined) return after;
  throw failure(
    lang === "pt-BR" ? shopperMessage(refusal) : SAY[lang][res?.status === 429 ? "busy" : "failed"],
  );
}
