import type { html as litHtml, nothing as litNothing } from "lit";
import type { Lang } from "../localize/index.js";
import { noticeStrings } from "../localize/notices.js";
import type { CheckoutSession } from "../session.js";

/**
 * What the element lends the notice view. Lit and the money format come in as
 * arguments, never as imports: an import would make esbuild move them into a chunk
 * shared with the main file, a second request before the first paint.
 */
export interface NoticeKit {
  html: typeof litHtml;
  nothing: typeof litNothing;
  /** The element's money format (`formatMoney`): integer cents, currency, locale. */
  money(cents: number, currency: string, locale: string): string;
  /** The element: the superseded view's button sets its `session-id`, as a page would. */
  host: HTMLElement;
}

/** What the superseded and refund views show under their title. */
export interface NoticeView {
  body: string;
  extra: unknown;
}

/**
 * The superseded and refund views, under their titles. A chunk of its own, loaded when
 * a session reaches either status: few shoppers ever see them.
 */
export function noticeView(
  session: CheckoutSession,
  lang: Lang,
  { html, nothing, money, host }: NoticeKit,
): NoticeView {
  const t = noticeStrings[lang];
  if (session.status === "refund_due") {
    // The guard checked the amount; a reason this version does not know reads as "other".
    const { amount, reason } = session.refund!;
    const known = Object.hasOwn(t.refundReasons, reason) ? reason : "other";
    return {
      body: t.refundBody(money(amount, session.currency, lang)),
      extra: html`<p class="muted">${t.refundReasons[known]}</p>`,
    };
  }
  // Superseded: the replaced code is never shown again; the cart's current one is a tap away.
  const next = session.replaced_by;
  return {
    body: t.supersededBody,
    extra:
      next && typeof next == "string"
        ? html`<button
            part="button current-code-button"
            class="button"
            @click=${() => host.setAttribute("session-id", next)}
          >
            ${t.showCurrent}
          </button>`
        : nothing,
  };
}
