import type { html as litHtml, nothing as litNothing } from "lit";
import type { Lang } from "../localize/index.js";
import { noticeStrings } from "../localize/notices.js";
import type { NoticeStrings } from "../localize/strings.js";
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
  /** Preparing: milliseconds until the code should exist, by the backend's clock (NaN: unknown). */
  left: number;
  /**
   * Expired: "Gerar novo código" asks the element for a new code, when the view offers one
   * (status-mapping.ts `offersRenewal`); false when it does not.
   */
  renew: false | (() => void);
  /** While a new code is being made, the button's word for it ("Gerando novo código…"). */
  renewing?: false | string;
}

/**
 * What the preparing, superseded and refund views show under their title: `body` in the
 * message's line, `extra` below it. The preparing view has everything in `extra`.
 */
export interface NoticeView {
  /** A superseded, held or refund view's title. */
  title?: string;
  body?: string;
  extra: unknown;
}

/**
 * Money the store received for an older code of the cart and returns (`earlier_payment`), as
 * a line beside the code the shopper sees (pending or paid): "Recebemos R$ 35,00 por um código
 * anterior...". Nothing when there is none, or its amount is no integer of cents.
 */
export function back(session: CheckoutSession, lang: Lang, kit: NoticeKit): unknown {
  const { html, nothing, money } = kit;
  const t = noticeStrings[lang];
  const shown = (cents: unknown) =>
    Number.isSafeInteger(cents) && (cents as number) > 0
      ? money(cents as number, session.currency, lang)
      : "";
  const earlier = session.earlier_payment;
  const returned = shown(earlier?.amount);
  return html`${
    returned
      ? html`<p part="returned" class="secondary">
          ${t.earlierPayment(returned, earlier!.order_paid === true)}
        </p>`
      : nothing
  }
  ${session.status === "paid" ? paidLines(session, t, kit, shown) : nothing}`;
}

/**
 * Beside a paid code: the part of its money the store returns (an order that costs less now, a
 * code paid with more than it asked), and the order it pays as Medusa's order says it: paid,
 * canceled, still owing what an edit added, or being confirmed with this code's money; with no
 * order yet (the cart is being completed), that the store is confirming it.
 */
function paidLines(
  session: CheckoutSession,
  t: NoticeStrings,
  { html, nothing }: NoticeKit,
  shown: (cents: unknown) => string,
): unknown {
  const refund = shown(session.refund?.amount);
  const order = session.order;
  const payment =
    order?.payment === "paid" || order?.payment === "canceled" ? order.payment : "awaiting";
  return html`${refund ? html`<p part="returned" class="secondary">${t.paidRefund(refund)}</p>` : nothing}
  ${
    order && Number.isSafeInteger(order.display_id)
      ? html`<p part="order" class="secondary">
          ${t.paidOrder(order.display_id, payment, shown(order.owes))}
        </p>`
      : order
        ? nothing
        : html`<p part="order" class="secondary">${t.paidConfirming}</p>`
  }`;
}

/**
 * The title of a preparing (`preparingBoleto` for a boleto), superseded, held or refund view,
 * which ships here with its words; undefined for any other status (its title is the
 * element's own, `Strings`).
 */
export const noticeTitle = (status: string, lang: Lang): string | undefined =>
  noticeStrings[lang].titles[status as keyof NoticeStrings["titles"]];

/**
 * The preparing, superseded, held, refund, expired, failed and canceled views, under their titles.
 * A chunk of its own, loaded when a session reaches one of those statuses: few shoppers ever
 * see them. `view` is the element's view, which is `expired` by the device's clock before the
 * backend says so.
 */
export function noticeView(
  view: string,
  session: CheckoutSession,
  lang: Lang,
  kit: NoticeKit,
): NoticeView {
  const { html, nothing, money, left } = kit;
  const t = noticeStrings[lang];
  if (view === "failed") return { body: t.closed.failed, extra: nothing };
  // A new code only where the element offers one: the button is the element's, its word ours.
  if (view === "expired") return { body: t.closed.expired, extra: renewButton(t, kit) };
  // The store ends a canceled order's codes: its number says why ("Seu pedido #12 foi cancelado").
  if (view === "canceled") return { body: t.closed.canceled, extra: orderLine(session, t, kit) };
  if (session.status === "preparing") {
    // No expiry, QR or button yet: when the code should be ready, and that it shows here.
    return {
      title: t.titles[session.method === "boleto" ? "preparingBoleto" : "preparing"],
      extra: html`<p class="muted">${t.readyIn(estimate(left, t))}</p>
        <p class="muted">${t.willShow[session.method]}</p>`,
    };
  }
  if (session.status === "held") {
    // Short of the code: what arrived, of what was asked, and that the store decides. No order
    // line ("pague o código atual" would ask for a second payment the store may not want).
    // Without a whole amount of what arrived, the line says "less than" rather than guess.
    const arrived = session.received?.amount;
    const asked = money(session.amount, session.currency, lang);
    return {
      title: t.titles.held,
      body: Number.isSafeInteger(arrived)
        ? t.heldBody(money(arrived!, session.currency, lang), asked)
        : t.heldBody("", asked),
      extra: html`<p class="muted">${t.heldNext}</p>`,
    };
  }
  if (session.status === "confirming") {
    // The cart's money, with no order yet: no order line, no current code (paying again would
    // be money for the same cart), only that the store tries and what happens if it cannot.
    const arrived = session.received?.amount;
    return {
      title: t.titles.confirming,
      body: t.confirmingBody(
        money(Number.isSafeInteger(arrived) ? arrived! : session.amount, session.currency, lang),
      ),
      extra: html`<p class="muted">${t.confirmingNext}</p>`,
    };
  }
  const current = currentCodeButton(session, t, kit);
  if (session.status === "refund_due") {
    // The guard checked the amount; a reason this version does not know reads as "other".
    const { amount, reason } = session.refund!;
    const known = Object.hasOwn(t.refundReasons, reason) ? reason : "other";
    const shown = money(amount, session.currency, lang);
    return {
      title: t.titles.refund_due,
      // A code the cart no longer asks for is not "an order we could not complete", nor is one
      // whose order changed and asks for a new payment.
      body: OLDER_CODE.has(known)
        ? t.refundReplacedBody(shown)
        : known === "collection_canceled"
          ? t.refundOrderChangedBody(shown)
          : t.refundBody(shown),
      extra: html`<p class="muted">${t.refundReasons[known]}</p>
        ${orderLine(session, t, kit)} ${current}`,
    };
  }
  // Superseded: the replaced code is never shown again; the cart's current one is a tap away.
  // Paid anyway: the store says what the money became as soon as it has decided.
  const received = session.received;
  return {
    title: t.titles.superseded,
    body:
      received && Number.isSafeInteger(received.amount) && received.amount > 0
        ? t.receivedReplaced(money(received.amount, session.currency, lang))
        : t.supersededBody,
    extra: html`${received ? orderLine(session, t, kit) : nothing} ${current}`,
  };
}

/** Reasons that mean the money came for a code that no longer pays the cart. */
const OLDER_CODE = new Set(["paid_twice", "paid_old_amount", "paid_replaced"]);

/**
 * The order's state as the store says it ("Seu pedido #12 aguarda pagamento..."), or, with no
 * order yet and a current code, that the current code still pays the cart. "Está pago" only
 * when the store's order is paid.
 */
function orderLine(
  session: CheckoutSession,
  t: NoticeStrings,
  { html, nothing }: NoticeKit,
): unknown {
  const order = session.order;
  if (order && Number.isSafeInteger(order.display_id)) {
    const payment =
      order.payment === "paid" || order.payment === "canceled" ? order.payment : "awaiting";
    return html`<p part="order" class="secondary">${t.orderState(order.display_id, payment)}</p>`;
  }
  return session.replaced_by ? html`<p class="muted">${t.payCurrent}</p>` : nothing;
}

/** "Gerar novo código", disabled and saying so while the element makes the new code. */
function renewButton(t: NoticeStrings, { html, nothing, renew, renewing }: NoticeKit): unknown {
  return renew
    ? html`<button
        part="button renew-button"
        class="button"
        aria-disabled=${!!renewing}
        @click=${renew}
      >
        ${renewing || t.renew}
      </button>`
    : nothing;
}

/** "Ver o código atual": switches the element to the cart's current session, when it has one. */
function currentCodeButton(
  session: CheckoutSession,
  t: NoticeStrings,
  { html, nothing, host }: NoticeKit,
): unknown {
  const next = session.replaced_by;
  if (!next || typeof next != "string") return nothing;
  return html`<button
    part="button current-code-button"
    class="button"
    @click=${() => {
      // As after a new code: the page learns which session the element shows now, so a reload
      // comes back to the current code, not to this one.
      const previous = (host as HTMLElement & { sessionId: string }).sessionId;
      host.setAttribute("session-id", next);
      host.dispatchEvent(
        new CustomEvent("pix-renewed", {
          detail: { previous, sessionId: next },
          bubbles: true,
          composed: true,
        }),
      );
    }}
  >
    ${t.showCurrent}
  </button>`;
}

/**
 * When the code should be ready, in words: to the nearest 5 s ("cerca de 40 s"), in minutes
 * from a minute up, and "alguns segundos" from 5 s down, so it never says 0 or a time already
 * past, nor claims a precision the create line does not have.
 */
export function estimate(ms: number, t: NoticeStrings): string {
  const seconds = Math.round(ms / 5000) * 5;
  if (!(seconds > 5)) return t.soon;
  return seconds < 60 ? t.about(seconds) : t.aboutMinutes(Math.round(ms / 60_000));
}
