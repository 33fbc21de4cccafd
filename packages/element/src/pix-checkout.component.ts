import { LitElement, html, nothing, type PropertyValues, type TemplateResult } from "lit";
import type { PixCheckoutEventMap } from "./events.js";
import { Backend } from "./internal/backend.js";
import type { BackendError } from "./internal/backend-error.js";
import { copyText } from "./internal/copy.js";
import { CountdownController } from "./internal/countdown-controller.js";
import type { BoletoKit, boletoView } from "./internal/boleto-view.js";
import type * as NoticeChunk from "./internal/notice-view.js";
import type { NoticeKit } from "./internal/notice-view.js";
import { formatMoney, formatRemaining } from "./internal/format.js";
import { StatusController } from "./internal/status-controller.js";
import {
  countdownTo,
  eventOf,
  isNotice,
  offersRenewal,
  titleOf,
  viewOf,
  wantsNotices,
  type PixCheckoutView,
} from "./internal/status-mapping.js";
import { loadStrings, resolveLang, stringsFor, type Strings } from "./localize/index.js";
import { ptBR } from "./localize/pt-br.js";
import type { CheckoutSession, PixData } from "./session.js";
import { styles } from "./pix-checkout.styles.js";

export type { PixCheckoutView } from "./internal/status-mapping.js";

interface UiState {
  session: CheckoutSession | null;
  error?: BackendError | null;
  /** The skew-corrected countdown reached zero before the backend said so. */
  clockExpired?: boolean;
  /** The QR as inline SVG (no `blob:` or `data:` source, for strict CSPs), once drawn. */
  qr?: SVGSVGElement | null;
  /** Neither the backend's SVG nor the encoder gave a QR: the view says so. */
  qrFailed?: boolean;
  /** The shopper asked for the QR in the copy-first order. */
  qrShown?: boolean;
  /** The element's own box is narrower than a desktop card (a phone, a narrow column). */
  narrow?: boolean;
  /**
   * What the countdown last announced: its minutes at the start (above 5, heard only), then 5
   * and 1 (minutes left, also shown); 0 before any.
   */
  warned?: number;
  renewing?: boolean;
  copied?: "pix" | "boleto" | null;
  refreshing?: boolean;
  /**
   * The text of the aria-live region, in whatever language is current when it renders. It is
   * only announced, except in the pending view, or when the function takes a second parameter
   * (`shown`): a failed renewal's words, which sit beside the button that tries again.
   */
  announcement: (t: Strings, shown?: 1) => string;
}

/**
 * `<pix-checkout>`: pays one checkout session by Pix (QR and copy-and-paste) or boleto,
 * and follows its status live from the store backend until it is final.
 *
 * @event pix-paid - The backend reports the session paid: its money pays the cart. The one event to complete a cart on. Detail: `PixPaidDetail`.
 * @event pix-refund-due - The session's payment pays for no order (a replaced code paid anyway, a payment after the order was canceled): the store returns it. Never complete a cart on it. Detail: `PixRefundDueDetail`.
 * @event pix-expired - The session expired, by the backend or the skew-corrected clock (once). Cancelable: `preventDefault()` keeps the element from offering its own "Gerar novo código". Detail: `PixExpiredDetail`.
 * @event pix-status-change - The status changed, including the first load. Detail: `PixStatusChangeDetail`.
 * @event pix-copy - A code was copied (only after success). Detail: `PixCopyDetail`.
 * @event pix-error - A backend call failed. Detail: `PixErrorDetail`.
 * @event pix-renewed - The element now shows another session of the cart: a new code after expiry, or the current one. Detail: `PixRenewedDetail`.
 *
 * @csspart base - The card around everything; carries the view name as a class.
 * @csspart header - Method and amount.
 * @csspart amount - The formatted amount.
 * @csspart discount - What the store's Pix discount saves, under the amount.
 * @csspart returned - Money the store received for an older code of the cart and returns, beside the code the shopper sees (pending or paid).
 * @csspart countdown - Time left to pay (Pix).
 * @csspart qr - The QR code box (an inline SVG inside).
 * @csspart show-qr-button - "Pagar com outro aparelho? Mostrar QR code", in the copy-first order.
 * @csspart after-copy - The one line under the copy button in the copy-first order.
 * @csspart warning - The countdown's polite live region: the minutes to pay at the start (heard, not shown), then the expiry warning at 5 and at 1 minute left (shown). The timer itself is not a live region.
 * @csspart renew-button - "Gerar novo código", in the expired view.
 * @csspart instructions - The pay-in-your-bank-app steps.
 * @csspart code - The read-only field with the Pix code or digitable line.
 * @csspart button - Every button and button-like link.
 * @csspart copy-button - The copy button.
 * @csspart share-button - The Web Share button (only where the browser offers it).
 * @csspart refresh-button - "I already paid".
 * @csspart retry-button - Retry after an error.
 * @csspart current-code-button - "Show the current code", in the superseded view when the cart has one.
 * @csspart barcode - The boleto's ITF barcode.
 * @csspart due-date - The boleto's due date.
 * @csspart boleto-link - The link to the boleto document (a PDF or a printable page).
 * @csspart order - The order's number and whether it is paid, in the refund and replaced-code views.
 * @csspart message - The message of every view but loading and pending (paid, expired, superseded, refund due, error...).
 * @csspart status - The live region that announces changes.
 *
 * @cssproperty --pix-checkout-accent - Buttons, focus ring, spinner. Default `#0b6e63` (dark scheme `#5fd4c4`).
 * @cssproperty --pix-checkout-accent-text - Text on accent buttons.
 * @cssproperty --pix-checkout-background - Card background.
 * @cssproperty --pix-checkout-text - Main text.
 * @cssproperty --pix-checkout-muted - Secondary text.
 * @cssproperty --pix-checkout-border - Borders.
 * @cssproperty --pix-checkout-success - Paid icon.
 * @cssproperty --pix-checkout-danger - Expired, failed and error icon.
 * @cssproperty --pix-checkout-radius - Card corner radius. Default `12px`.
 * @cssproperty --pix-checkout-font - Font family.
 * @cssproperty --pix-checkout-max-width - Card width limit. Default `420px`.
 * @cssproperty --pix-checkout-qr-size - QR box side. Default `232px`.
 */
export class PixCheckout extends LitElement {
  static override styles = styles;

  // Plain `static properties` rather than decorators: the same Lit, a few hundred bytes lighter.
  static override properties = {
    backendUrl: { attribute: "backend-url" },
    publishableKey: { attribute: "publishable-key" },
    sessionId: { attribute: "session-id" },
    lang: {},
    layout: {},
  };

  /** Base URL of the store backend (the Medusa server), e.g. `https://shop.example.com`. */
  declare backendUrl: string;

  /** Medusa publishable API key, sent as `x-publishable-api-key`. */
  declare publishableKey: string;

  /** The payment session to pay. Changing it starts over. */
  declare sessionId: string;

  /** `pt-BR` (default), `en` or `es`; other tags fall back by their primary language, then to pt-BR. */
  declare lang: string;

  /**
   * `auto` (default): copy first on a touch screen (`pointer: coarse`) or when the element is
   * under 400 px wide, QR first otherwise. `copy-first` or `qr-first` forces an order.
   */
  declare layout: "auto" | "copy-first" | "qr-first";

  constructor() {
    super();
    this.backendUrl = this.publishableKey = this.sessionId = this.lang = "";
    this.layout = "auto";
  }

  /** The session as last received from the backend, or null before the first answer. */
  get session(): CheckoutSession | null {
    return this.#ui.session;
  }

  /** What the element currently shows. */
  get view(): PixCheckoutView {
    return viewOf(this.#ui);
  }

  // Everything the views read besides the public properties; `#set` re-renders.
  // What is not given is false, none or zero: fewer bytes for every shopper.
  #ui: UiState = { session: null, announcement: () => "" };
  #backend: Backend | null = null;
  #expiredSent = false;
  /** The host took the expiry on itself (`preventDefault()` on `pix-expired`). */
  #renewByHost = false;
  #resize: ResizeObserver | undefined;
  #coarse: MediaQueryList | undefined;
  #qrKey = "";
  #copiedTimer: ReturnType<typeof setTimeout> | undefined;
  #boletoView: typeof boletoView | undefined;
  /** The notice chunk (internal/notice-view.ts), once loaded. */
  #notices: typeof NoticeChunk | undefined;
  #strings: Strings | undefined;
  #focusInside = false;

  #set(patch: Partial<UiState>) {
    Object.assign(this.#ui, patch);
    this.requestUpdate();
  }

  #status = new StatusController(this, {
    onSession: (session, receivedAt) => this.#onSession(session, receivedAt),
    onError: (error) => this.#onError(error),
  });

  #countdown = new CountdownController(this, () => {
    const { session, clockExpired } = this.#ui;
    // Once per session: a backend that still says pending after the expiry resyncs the
    // countdown to zero on every answer, and asking again each time would never stop.
    if (session?.status !== "pending" || session.method !== "pix" || clockExpired) return;
    this.#set({ clockExpired: true, announcement: (t) => t.expired });
    this.#loadNotices();
    this.#sendExpired("clock");
    // The last seconds may have carried a payment: ask now rather than at the next poll.
    this.#status.retry();
  });

  get #lang() {
    return resolveLang(this.lang);
  }

  get #t(): Strings {
    return this.#strings ?? ptBR;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // The element's own width, not the user agent: the same phone may show a wide card, and a
    // desktop a narrow column.
    this.#resize ??= new ResizeObserver(([entry]) => {
      const narrow = !!entry && entry.contentRect.width < 400;
      // Next frame: the other order changes the card's height, which would notify again
      // within this one.
      if (narrow !== this.#ui.narrow) requestAnimationFrame(() => this.#set({ narrow }));
    });
    this.#resize.observe(this);
    this.#coarse ??= matchMedia("(pointer: coarse)");
    this.#coarse.onchange = () => this.requestUpdate();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#resize?.disconnect();
    this.#dropQr();
  }

  /** Copy first: a phone cannot scan its own screen. */
  get #copyFirst() {
    const { layout } = this;
    return (
      layout === "copy-first" ||
      (layout !== "qr-first" && (this.#ui.narrow || !!this.#coarse?.matches))
    );
  }

  #dropQr() {
    Object.assign(this.#ui, { qr: null, qrFailed: false });
    this.#qrKey = "";
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    this.#focusInside = !!this.shadowRoot?.activeElement;
    if (changed.has("lang")) {
      const lang = this.#lang;
      this.#strings = stringsFor(lang);
      // Until en/es arrive the element shows nothing rather than the wrong language; if
      // their chunk cannot load (offline), Portuguese beats a blank.
      const use = (strings: Strings) => {
        if (this.#lang !== lang) return;
        this.#strings = strings;
        this.requestUpdate();
      };
      if (!this.#strings) loadStrings(lang).then(use, () => use(ptBR));
    }
    if (changed.has("backendUrl") || changed.has("publishableKey") || changed.has("sessionId")) {
      // Another session: nothing of the previous one may stay on screen, its QR least of all.
      Object.assign(this.#ui, {
        session: null,
        error: null,
        clockExpired: false,
        qrShown: false,
        warned: 0,
      });
      this.#dropQr();
      this.#expiredSent = this.#renewByHost = false;
      const { backendUrl, publishableKey, sessionId } = this;
      this.#backend =
        backendUrl && publishableKey && sessionId
          ? new Backend({ backendUrl, publishableKey, sessionId })
          : null;
      this.#status.watch(this.#backend);
    }
    const { session } = this.#ui;
    if (this.view !== "pending" || !session?.pix) return;
    // On a phone the QR (and its chunk) waits for the shopper's tap.
    if (!this.#copyFirst || this.#ui.qrShown) void this.#loadQr(session.pix);
    // What the countdown's live region says: the minutes to pay at the start, then 5 and 1
    // minute left. The start waits for the region to exist (a tick later): text that arrives
    // with its live region is not reliably announced.
    const left = this.#countdown.remaining;
    this.#ui.warned =
      left <= 60_000
        ? 1
        : left <= 300_000
          ? 5
          : this.#ui.warned ||
            (this.renderRoot.querySelector(".warning") ? Math.ceil(left / 60_000) : 0);
  }

  protected override updated(): void {
    // A keyboard user whose button vanished with the view (paid after "Já paguei") would
    // be dropped to the top of the page; keep their place on the new message instead, or
    // on the card when there is none ("Ver o código atual" shows the spinner, then a code).
    if (this.#focusInside && !this.shadowRoot?.activeElement) {
      const root = this.renderRoot;
      (
        root.querySelector<HTMLElement>("[part=message]") ??
        root.querySelector<HTMLElement>(".base")
      )?.focus();
    }
  }

  /** Fires one of the element's events; false when a cancelable one was canceled. */
  #emit<K extends keyof PixCheckoutEventMap>(
    name: K,
    detail: PixCheckoutEventMap[K]["detail"],
    cancelable = false,
  ) {
    return this.dispatchEvent(
      new CustomEvent(name, { detail, bubbles: true, composed: true, cancelable }),
    );
  }

  #onSession(session: CheckoutSession, receivedAt: number) {
    const previous = this.#ui.session?.status ?? null;
    this.#set({ session, error: null });
    // While the code is prepared, the countdown aims at when it should exist (the view shows
    // it as an estimate, never as an expiry); a pending Pix at its expiry.
    const to = countdownTo(session);
    if (to) this.#countdown.sync(to, session.server_time, receivedAt);
    else this.#countdown.stop();
    // Only a pending code is shown: a superseded one must never be scanned again.
    if (session.status !== "pending") this.#dropQr();
    if (session.boleto && !this.#boletoView) {
      void import("./internal/boleto-view.js").then((m) => {
        this.#boletoView = m.boletoView;
        this.requestUpdate();
      });
    }
    if (wantsNotices(session)) this.#loadNotices();
    if (previous === session.status) return;
    const title = titleOf(session);
    // The rarer views' titles come with their words (the notice chunk), once it is here.
    this.#ui.announcement = (t) =>
      (t as unknown as Record<string, string>)[title] ??
      (this.#notices?.noticeTitle(title, this.#lang) as string);
    this.#emit("pix-status-change", { status: session.status, previous, session });
    const event = eventOf(session.status);
    if (event) this.#emit(event, { session });
    if (session.status === "expired") this.#sendExpired("server");
  }

  #onError(error: BackendError) {
    const repeated = this.#ui.error?.code === error.code;
    this.#set({ error });
    if (this.view == "error") this.#ui.announcement = (t) => t.errorTitle;
    if (!repeated) {
      this.#emit("pix-error", { code: error.code, message: error.message, status: error.status });
    }
  }

  /** Few shoppers see the views past the code but `paid`: their words are a chunk of their own. */
  #loadNotices() {
    if (this.#notices) return;
    void import("./internal/notice-view.js").then((m) => {
      this.#notices = m;
      this.requestUpdate();
    });
  }

  #sendExpired(source: "server" | "clock") {
    const { session } = this.#ui;
    if (this.#expiredSent || !session) return;
    this.#expiredSent = true;
    this.#renewByHost = !this.#emit("pix-expired", { session, source }, true);
  }

  /** Draws the QR as inline SVG (the backend's, else the encoder's); see internal/qr.ts. */
  async #loadQr(pix: PixData) {
    const key = `${pix.qr_image_url}|${pix.copy_paste}`;
    if (key === this.#qrKey) return;
    // The previous code's picture must never stand for this one while it loads.
    this.#dropQr();
    this.#qrKey = key;
    const qr = await import("./internal/qr.js")
      .then((m) => m.qrElement(pix, this.#backend))
      .catch(() => null);
    if (key === this.#qrKey) this.#set({ qr, qrFailed: !qr });
  }

  /** "Gerar novo código": a new session for the cart, shown in place of the expired one. */
  async #renew() {
    const target = this.#ui.session?.renew;
    if (!target || !this.#backend || this.#ui.renewing) return;
    this.#set({ renewing: true, announcement: (t) => t.renewing });
    try {
      const backend = this.#backend;
      await (
        await import("./internal/renew.js")
      ).renew(backend, target, this.#lang, this, () => this.#status.watch(backend));
    } catch (e) {
      // Shown, not only announced, beside the button that tries again (the words come with
      // the renewal's chunk; without it, the connection is the likely cause). An announcement
      // that takes a second parameter is shown (`shown`); the next one is quiet again.
      this.#ui.announcement = (t, _shown?: 1) => (e as { say?: string }).say ?? t.errorBody;
    }
    this.#set({ renewing: false });
  }

  async #copy(kind: "pix" | "boleto", text: string, event: Event) {
    const field = (event.currentTarget as HTMLElement).parentElement?.querySelector<HTMLElement>(
      "[part=code]",
    );
    if (!field) return;
    const via = await copyText(text, field);
    clearTimeout(this.#copiedTimer);
    // Both routes failed: the code is selected, and the status line (shown with a code) says
    // to copy it by hand.
    const manual = via === "manual";
    this.#set({
      copied: manual ? null : kind,
      announcement: (t) => (manual ? t.copyManual : t.copied),
    });
    if (manual) return;
    this.#emit("pix-copy", { kind, text, via });
    // The button says it for 3 s, and so does the status line: then both are quiet again.
    this.#copiedTimer = setTimeout(() => this.#set({ copied: null, announcement: () => "" }), 3000);
  }

  /** "Já paguei": the re-check and its words load on the first tap (internal/recheck.ts). */
  #refresh() {
    import("./internal/recheck.js").then(
      (m) =>
        m.recheck({
          lang: this.#lang,
          ui: this.#ui,
          set: (patch) => this.#set(patch),
          status: this.#status,
          fail: (error) => this.#onError(error),
        }),
      // Offline: the chunk could not load, and neither could the store be asked.
      () => this.#set({ announcement: (t) => t.reconnecting }),
    );
  }

  override render(): TemplateResult {
    // Until the chosen language has loaded, show nothing rather than the wrong language.
    if (!this.#strings) return html``;
    const view = this.view;
    return html`<div part="base" class="base ${view}" lang=${this.#lang} tabindex="-1">
      ${this.#body(view)}
      <p
        part="status"
        class="status ${view === "pending" || this.#ui.announcement.length > 1 ? "" : "sr"}"
        role="status"
        aria-live="polite"
      >
        ${this.#ui.announcement(this.#t)}
      </p>
    </div>`;
  }

  #body(view: PixCheckoutView) {
    const t = this.#t;
    const { session: s, error } = this.#ui;
    const lang = this.#lang;
    const spinner = (text = t.loading) =>
      html`<p class="muted"><span class="spinner" aria-hidden="true"></span>${text}</p>`;
    // While the store asks for patience, the spinner says so.
    if (view === "loading") return spinner(error ? t.reconnecting : t.loading);
    if (view === "error" || !s) {
      return this.#message(
        "!",
        t.errorTitle,
        error?.say?.[lang] ?? (error?.code === "not_found" ? t.notFound : t.errorBody),
        html`<button part="button retry-button" class="button" @click=${() => this.#status.retry()}>
          ${t.retry}
        </button>`,
      );
    }
    const amount = formatMoney(s.amount, s.currency, lang);
    // What the lazily loaded views borrow from the element (see BoletoKit, NoticeKit).
    const kit: BoletoKit & NoticeKit = {
      html,
      nothing,
      field: this.#field.bind(this),
      money: formatMoney,
      host: this,
      left: this.#countdown.remaining,
      renew: offersRenewal(s, this.#renewByHost) && (() => this.#renew()),
      renewing: this.#ui.renewing && t.renewing,
    };
    if (isNotice(view)) {
      // The title shows at once (the code is already gone, or not there yet); the rest
      // comes with its chunk.
      const notice = this.#notices?.noticeView(view, s, lang, kit);
      // Preparing is a longer loading: its spinner, and when the code should be ready.
      return view === "preparing"
        ? [spinner(notice?.title ?? t.loading), notice?.extra]
        : notice
          ? this.#message("!", notice.title!, notice.body!, notice.extra)
          : spinner();
    }
    // Money the store received for an older code of the cart, once its words loaded.
    const back = this.#notices?.back(s, lang, kit);
    if (view === "paid") return this.#message("✓", t.paid, t.paidBody, [amount, back]);
    if (view !== "pending") {
      // The rarer endings' lines (and an expired Pix's new code) come with their chunk.
      const notice = this.#notices?.noticeView(view, s, lang, kit);
      return this.#message("!", t[view], notice?.body ?? "", notice?.extra);
    }
    // A boleto waits for its chunk (template, ITF, strings) before showing anything of it.
    const boleto = s.boleto && this.#boletoView?.(s.boleto, lang, kit);
    if (!s.pix && !boleto) return spinner();
    return html`<div part="header" class="header">
        <span>${boleto ? boleto.title : t.payWithPix}</span>
        <span part="amount" class="amount">${amount}</span>
      </div>
      ${
        // In the accent colour, as the secondary buttons are.
        !boleto && s.pix_discount
          ? html`<p part="discount" class="secondary">
              ${t.saved(formatMoney(s.pix_discount.saved, s.currency, lang))}
            </p>`
          : nothing
      }
      ${back} ${boleto ? boleto.body : this.#pix(s.pix!, amount)}
      ${
        // Said under the code, which stays: the connection is down, or the store answers but
        // fails (a 5xx, a 503 asking for patience) and is asked again.
        error ? html`<p class="muted">${t.reconnecting}</p>` : nothing
      }`;
  }

  #message(icon: string, title: string, body: string, extra: unknown = nothing) {
    return html`<div part="message" class="message" tabindex="-1">
      <span class="icon" aria-hidden="true">${icon}</span>
      <p class="title">${title}</p>
      <p class="muted">${body}</p>
      ${extra}
    </div>`;
  }

  /** A read-only field showing `shown` with a button that copies `copied`. */
  #field(kind: "pix" | "boleto", label: string, shown: string, copied: string, copyLabel: string) {
    const t = this.#t;
    // The boleto line is text in its bank groups, so a phone wraps it between groups and
    // shows it whole; the Pix code is one long token, shown in a one-line field.
    const boleto = kind === "boleto";
    return html`<div>
      ${boleto ? html`<b>${label}</b>` : html`<label for=${kind}>${label}</label>`}
      <div class="field">
        ${
          boleto
            ? html`<p part="code" class="line">
                ${shown.split(" ").map((group) => html`<span>${group}</span> `)}
              </p>`
            : html`<input id=${kind} part="code" readonly .value=${shown} />`
        }
        <button
          part="button copy-button"
          class="button"
          @click=${(e: Event) => this.#copy(kind, copied, e)}
        >
          ${this.#ui.copied === kind ? t.copied : copyLabel}
        </button>
      </div>
    </div>`;
  }

  #pix(pix: PixData, amount: string) {
    const t = this.#t;
    const { refreshing, qr, qrFailed, qrShown, warned } = this.#ui;
    const copyFirst = this.#copyFirst;
    const qrBox =
      copyFirst && !qrShown
        ? nothing
        : qrFailed
          ? html`<p part="qr" class="muted">${t.qrUnavailable}</p>`
          : html`<div part="qr" class="qr" role="img" aria-label=${t.qrLabel(amount)}>
              ${qr ?? nothing}
            </div>`;
    const actions = html`<div class="actions">
      <button
        part="button refresh-button"
        class="button secondary"
        aria-disabled=${!!refreshing}
        @click=${() => this.#refresh()}
      >
        ${refreshing ? t.checking : t.alreadyPaid}
      </button>
      ${
        "share" in navigator
          ? html`<button
              part="button share-button"
              class="button secondary"
              @click=${() =>
                navigator
                  .share({
                    title: t.payWithPix,
                    text: pix.copy_paste,
                    url: pix.payment_link ?? undefined,
                  })
                  // The shopper closed the sheet; nothing to say.
                  .catch(() => 0)}
            >
              ${t.share}
            </button>`
          : nothing
      }
    </div>`;
    const countdown = html`<p part="countdown" class="countdown">
      ${t.expiresIn} <b role="timer">${formatRemaining(this.#countdown.remaining)}</b>
      <span
        part="warning"
        class="warning ${
          // Nothing announced yet (undefined) is no number above 5.
          warned! > 5 ? "sr" : ""
        }"
        role="status"
      >
        ${warned ? t.expiresSoon(warned) : nothing}
      </span>
    </p>`;
    if (!copyFirst) {
      return html`${countdown} ${qrBox}
        <ol part="instructions" class="steps">
          ${t.steps.map((step) => html`<li>${step}</li>`)}
        </ol>
        ${this.#field("pix", t.pixCode, pix.copy_paste, pix.copy_paste, t.copyCode)} ${actions}`;
    }
    return html`${countdown}
      <div class="copy-first">
        ${this.#field("pix", t.pixCode, pix.copy_paste, pix.copy_paste, t.copyPixCode)}
        <p part="after-copy">${t.afterCopy}</p>
      </div>
      ${actions}
      <button
        part="button show-qr-button"
        class="button secondary"
        aria-expanded=${!!qrShown}
        @click=${() => this.#set({ qrShown: !qrShown })}
      >
        ${qrShown ? t.hideQr : t.showQr}
      </button>
      ${qrBox}`;
  }
}
