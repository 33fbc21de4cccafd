import type { RenewTarget } from "../session.js";
import type { Lang } from "../localize/index.js";
import type { Backend } from "./backend.js";

/**
 * What the shopper reads when no new code came, beside the button that tries again: a busy
 * minute (429 `too_many_waiting_creates`: the store's line of codes to create is full), or any
 * other failure. Here, not in the element's strings: only a renewal can fail, and this chunk
 * loads only then.
 */
const SAY: Record<Lang, { busy: string; failed: string }> = {
  "pt-BR": {
    busy: "Muita procura agora. Nada foi cobrado: tente de novo em um minuto.",
    failed: "Não foi possível gerar um novo código. Tente de novo.",
  },
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

export async function renewSession(
  backend: Backend,
  target: RenewTarget,
  lang: Lang,
): Promise<string> {
  let res: Response;
  try {
    res = await backend.request(
      `/store/payment-collections/${encodeURIComponent(target.payment_collection_id)}/payment-sessions`,
      {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ provider_id: target.provider_id }),
      },
    );
  } catch (error) {
    // The backend maps every failure to a BackendError with its status.
    throw failure(SAY[lang][(error as { status?: number }).status === 429 ? "busy" : "failed"]);
  }
  const body = (await res.json().catch(() => null)) as {
    payment_collection?: { payment_sessions?: { id?: unknown; provider_id?: unknown }[] };
  } | null;
  const id = body?.payment_collection?.payment_sessions?.find(
    (session) => session.provider_id === target.provider_id,
  )?.id;
  if (typeof id !== "string" || !id) throw failure(SAY[lang].failed);
  return id;
}
