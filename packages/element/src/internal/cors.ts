import type { Lang } from "../localize/index.js";
import type { BackendError } from "./backend-error.js";

/** What a shopper reads when the store refused this page (she cannot fix it; the store can). */
const REFUSED: Record<Lang, string> = {
  "pt-BR": "A loja não autorizou esta página a mostrar o pagamento. Avise a loja.",
  en: "The store has not allowed this page to show the payment. Please let the store know.",
  es: "La tienda no autorizó esta página a mostrar el pago. Avisa a la tienda.",
};

/** Whether the console has said it: once a page is enough, the element asks again and again. */
let told = false;

const answers = (url: string, mode: RequestMode) =>
  fetch(url, { mode, cache: "no-store", credentials: "omit" }).then(
    () => true,
    () => false,
  );

/**
 * Why a call to the store behind `backend` failed with no answer the page could read. A browser hides
 * both a lost connection and a store whose CORS does not list this page's origin behind the
 * same error, and only the first is the shopper's to fix. Two plain GETs (no key header, so no
 * preflight) tell them apart: one the CORS rules govern, which the store answers readably when
 * it allows this page (the first failure was a blip), and one in `no-cors` mode, which arrives
 * whenever the store is reachable, allowed or not (its answer is opaque). Only a store that
 * answers the second and not the first has refused this page: `blocked`, with the shopper's
 * words (`say`) and, in the console, the fix for the storefront's developer. Loaded only after
 * a failure: most pages never need it, and offline it cannot load, which says `network` too.
 */
export async function whyUnanswered(
  // The element's backend (backend.ts), of which only the session's URL is asked here.
  backend: { url(): string },
  // The element's own class, handed in: importing it here would split it into a shared chunk
  // that the element's first file then loads too.
  Failure: typeof BackendError,
): Promise<BackendError> {
  // The session's status route: a GET, which changes nothing.
  const url = backend.url();
  if ((await answers(url, "cors")) || !(await answers(url, "no-cors"))) {
    return new Failure("network", "backend unreachable");
  }
  const page = location.origin;
  const store = new URL(url).origin;
  if (!told) {
    // The one line the element writes to the console: the browser's own CORS error names no
    // fix, and the shopper's words cannot carry one.
    // eslint-disable-next-line no-console
    console.error(
      `<pix-checkout>: the store backend at ${store} answered, but its CORS rules do not allow this page's origin, ${page}, so the browser hid the answer. Add ${page} to the store's STORE_CORS (Medusa: projectConfig.http.storeCors) and restart it.`,
    );
    told = true;
  }
  return Object.assign(
    new Failure("blocked", `${store} does not allow ${page} (CORS): add it to STORE_CORS`),
    {
      say: REFUSED,
    },
  );
}
