import type { Lang, Strings } from "../localize/index.js";
import type { CheckoutSession } from "../session.js";
import type { BackendError } from "./backend-error.js";
import type { StatusController } from "./status-controller.js";

/**
 * "Já paguei" (the shopper asks the store to re-check the charge) and its words. A chunk of its
 * own, loaded on the first tap: few shoppers tap it, and its answer needs the network anyway.
 * It imports nothing but types, so that no chunk is shared with the main file.
 */
const WORDS: Record<Lang, { notYet: string; retryIn: (seconds: number) => string }> = {
  // About this code: money an older code brought is said on the card (`returned`).
  "pt-BR": {
    notYet: "Ainda não recebemos o pagamento deste código.",
    retryIn: (s) => `Aguarde ${s} s para verificar de novo.`,
  },
  en: {
    notYet: "We have not received the payment for this code yet.",
    retryIn: (s) => `Wait ${s} s to check again.`,
  },
  es: {
    notYet: "Todavía no recibimos el pago de este código.",
    retryIn: (s) => `Espera ${s} s para verificar de nuevo.`,
  },
};

/** The element's state the re-check reads and changes. */
export interface RecheckUi {
  session: CheckoutSession | null;
  refreshing?: boolean;
  /** The status line's words (see the element's `UiState`). */
  announcement: (t: Strings) => string;
}

/** What the element lends the re-check. */
export interface RecheckKit {
  lang: Lang;
  ui: RecheckUi;
  /** Changes `ui` and re-renders. */
  set(patch: Partial<RecheckUi>): void;
  /** Its `refresh()` re-checks: the answer reaches the element; it throws a BackendError. */
  status: Pick<StatusController, "refresh">;
  /** A failure the element reports (`pix-error`, the line under the code). */
  fail(error: BackendError): void;
}

/** Until when (local clock) the store asked each element (by its state) not to re-check. */
const blockedUntil = new WeakMap<RecheckUi, number>();

/**
 * Asks the store to re-check the charge, unless it asked for a pause (a 429, or a 503 with
 * Retry-After), in which case the shopper reads how long to wait and nothing is sent.
 */
export async function recheck({ lang, ui, set, status, fail }: RecheckKit): Promise<void> {
  const say = WORDS[lang];
  const wait = Math.ceil(((blockedUntil.get(ui) ?? 0) - Date.now()) / 1000);
  if (wait > 0) return set({ announcement: () => say.retryIn(wait) });
  if (ui.refreshing) return;
  set({ refreshing: true, announcement: (t) => t.checking });
  try {
    await status.refresh();
    // A code the cart replaced meanwhile shows its notice, with the current code one tap away.
    if (ui.session?.status === "pending") ui.announcement = () => say.notYet;
  } catch (error) {
    const failure = error as BackendError;
    const seconds = failure.retryAfter;
    if (seconds) {
      blockedUntil.set(ui, Date.now() + seconds * 1000);
      ui.announcement = () => say.retryIn(seconds);
    } else {
      fail(failure);
      ui.announcement = (t) => t.reconnecting;
    }
  }
  set({ refreshing: false });
}
