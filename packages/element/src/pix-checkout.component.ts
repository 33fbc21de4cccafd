import { LitElement, html, nothing, type PropertyValues, type TemplateResult } from "lit";
import type { PixCheckoutEventMap } from "./events.js";
import { Backend } from "./internal/backend.js";
import type { BackendError } from "./internal/backend-error.js";
import { copyText } from "./internal/copy.js";
import { CountdownController } from "./internal/countdown-controller.js";
import type { BoletoKit, boletoView } from "./internal/boleto-view.js";
import type { NoticeKit, noticeView } from "./internal/notice-view.js";
import { formatMoney, formatRemaining } from "./internal/format.js";
import { qrDataUrl } from "./internal/qr.js";
import { StatusController } from "./internal/status-controller.js";
import { loadStrings, resolveLang, stringsFor, type Strings } from "./localize/index.js";
import { ptBR } from "./localize/pt-br.js";
import type { CheckoutSession, PixData, SessionStatus } from "./session.js";
import { styles } from "./pix-checkout.styles.js";

/**
 * What the element shows: the session's status, or `loading` / `error` before one
 * arrives. The `base` part carries it as a class.
 */
export type PixCheckoutView = "loading" | "error" | SessionStatus;

/** The views whose words (under the title) come in the notice chunk: few shoppers see them. */
const isNotice = (status: string): status is "preparing" | "superseded" | "refund_due" =>
  status === "preparing" || status === "superseded" || status === "refund_due";

/** The words for `session`'s status (announced, and its view's title): a boleto being prepared has its own. */
const titleOf = (session: CheckoutSession) =>
  session.status === "preparing" && session.method === "boleto"
    ? "preparingBoleto"
    : session.status;

interface UiState {
  session: CheckoutSession | null;
  error: BackendError | null;
  /** The skew-corrected countdown reached zero before the backend said so. */
  clockExpired: boolean;
  qrSrc: string;
  copied: "pix" | "boleto" | null;
  /** Both copy routes failed and the code is selected for a manual copy. */
  manual: boolean;
  refreshing: boolean;
  /** The text of the aria-live region, in whatever language is current when it renders. */
  announcement: (t: Strings) => string;
}

/**
 * `<pix-checkout>`: pays one checkout session by Pix (QR and copy-and-paste) or boleto,
 * and follows its status live from the store backend until it is final.
 *
 * @event pix-paid - The backend reports the session paid. Detail: `PixPaidDetail`.
 * @event pix-expired - The session expired, by the backend or the skew-corrected clock (once). Detail: `PixExpiredDetail`.
 * @event pix-status-change - The status changed, including the first load. Detail: `PixStatusChangeDetail`.
 * @event pix-copy - A code was copied (only after success). Detail: `PixCopyDetail`.
 * @event pix-error - A backend call failed. Detail: `PixErrorDetail`.
 *
 * @csspart base - The card around everything; carries the view name as a class.
 * @csspart header - Method and amount.
 * @csspart amount - The formatted amount.
 * @csspart countdown - Time left to pay (Pix).
 * @csspart qr - The QR code box.
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
  };

  /** Base URL of the store backend (the Medusa server), e.g. `https://shop.example.com`. */
  declare backendUrl: string;

  /** Medusa publishable API key, sent as `x-publishable-api-key`. */
  declare publishableKey: string;

  /** The payment session to pay. Changing it starts over. */
  declare sessionId: string;

  /** `pt-BR` (default), `en` or `es`; other tags fall back by their primary language, then to pt-BR. */
  declare lang: string;

  constructor() {
    super();
    this.backendUrl = this.publishableKey = this.sessionId = this.lang = "";
  }

  /** The session as last received from the backend, or null before the first answer. */
  get session(): CheckoutSession | null {
    return this.#ui.session;
  }

  /** What the element currently shows. */
  get view(): PixCheckoutView {
    const { session, error, clockExpired } = this.#ui;
    if (!session) return error ? "error" : "loading";
    return session.status === "pending" && clockExpired ? "expired" : session.status;
  }

  // Everything the views read besides the public properties; `#set` re-renders.
  #ui: UiState = {
    session: null,
    error: null,
    clockExpired: false,
    qrSrc: "",
    copied: null,
    manual: false,
    refreshing: false,
    announcement: () => "",
  };
  #backend: Backend | null = null;
  #expiredSent = false;
  #qrKey = "";
  #refreshBlockedUntil = 0;
  #copiedTimer: ReturnType<typeof setTimeout> | undefined;
  #boletoView: typeof boletoView | undefined;
  #noticeView: typeof noticeView | undefined;
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

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#dropQr();
  }

  #dropQr() {
    if (this.#ui.qrSrc.startsWith("blob:")) URL.revokeObjectURL(this.#ui.qrSrc);
    this.#ui.qrSrc = this.#qrKey = "";
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
      Object.assign(this.#ui, { session: null, error: null, clockExpired: false });
      this.#dropQr();
      this.#expiredSent = false;
      const { backendUrl, publishableKey, sessionId } = this;
      this.#backend =
        backendUrl && publishableKey && sessionId
          ? new Backend({ backendUrl, publishableKey, sessionId })
          : null;
      this.#status.watch(this.#backend);
    }
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

  #emit<K extends keyof PixCheckoutEventMap>(name: K, detail: PixCheckoutEventMap[K]["detail"]) {
    this.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true }));
  }

  #onSession(session: CheckoutSession, receivedAt: number) {
    const previous = this.#ui.session?.status ?? null;
    this.#set({ session, error: null });
    const preparing = session.status === "preparing";
    if (preparing || (session.status === "pending" && session.method === "pix")) {
      // While the code is prepared, the countdown aims at when it should exist (the view
      // shows it as an estimate, never as an expiry); without an estimate, at once.
      this.#countdown.sync(
        (preparing ? session.ready_at : session.expires_at) ?? session.server_time,
        session.server_time,
        receivedAt,
      );
    } else {
      this.#countdown.stop();
    }
    // Only a pending code is shown: a superseded one must never be scanned again.
    if (session.status === "pending" && session.pix) void this.#loadQr(session.pix);
    else this.#dropQr();
    if (session.boleto && !this.#boletoView) {
      void import("./internal/boleto-view.js").then((m) => {
        this.#boletoView = m.boletoView;
        this.requestUpdate();
      });
    }
    // Few shoppers see these three views: their words are a chunk of their own.
    if (isNotice(session.status) && !this.#noticeView) {
      void import("./internal/notice-view.js").then((m) => {
        this.#noticeView = m.noticeView;
        this.requestUpdate();
      });
    }
    if (previous === session.status) return;
    const title = titleOf(session);
    this.#ui.announcement = (t) => t[title];
    this.#emit("pix-status-change", { status: session.status, previous, session });
    if (session.status === "paid") this.#emit("pix-paid", { session });
    if (session.status === "expired") this.#sendExpired("server");
  }

  #onError(error: BackendError) {
    const repeated = this.#ui.error?.code === error.code;
    this.#set({ error });
    if (!this.#ui.session) this.#ui.announcement = (t) => t.errorTitle;
    if (!repeated) {
      this.#emit("pix-error", { code: error.code, message: error.message, status: error.status });
    }
  }

  #sendExpired(source: "server" | "clock") {
    const { session } = this.#ui;
    if (this.#expiredSent || !session) return;
    this.#expiredSent = true;
    this.#emit("pix-expired", { session, source });
  }

  /** QR source, best first: the backend's image, the payment service's PNG, our own encoder. */
  async #loadQr(pix: PixData) {
    const key = `${pix.qr_image_url}|${pix.qr_code}|${pix.copy_paste}`;
    if (key === this.#qrKey) return;
    // The previous code's picture must never stand for this one while it loads.
    this.#dropQr();
    this.#qrKey = key;
    let src = "";
    try {
      if (pix.qr_image_url && this.#backend) {
        const blob = await this.#backend.image(pix.qr_image_url, AbortSignal.timeout(10_000));
        src = URL.createObjectURL(blob);
      }
    } catch {
      // No image: fall through to the next source rather than show no QR.
    }
    if (!src && pix.qr_code) {
      src = pix.qr_code.startsWith("data:") ? pix.qr_code : `data:image/png;base64,${pix.qr_code}`;
    }
    if (!src) src = await qrDataUrl(pix.copy_paste).catch(() => "");
    if (key !== this.#qrKey) {
      if (src.startsWith("blob:")) URL.revokeObjectURL(src);
      return;
    }
    this.#set({ qrSrc: src });
  }

  async #copy(kind: "pix" | "boleto", text: string, event: Event) {
    const field = (event.currentTarget as HTMLElement).parentElement?.querySelector<HTMLElement>(
      "[part=code]",
    );
    if (!field) return;
    const via = await copyText(text, field);
    clearTimeout(this.#copiedTimer);
    const manual = via === "manual";
    this.#set({
      manual,
      copied: manual ? null : kind,
      announcement: (t) => (manual ? t.copyManual : t.copied),
    });
    if (via === "manual") return;
    this.#emit("pix-copy", { kind, text, via });
    this.#copiedTimer = setTimeout(() => this.#set({ copied: null }), 3000);
  }

  async #refresh() {
    const wait = Math.ceil((this.#refreshBlockedUntil - Date.now()) / 1000);
    if (wait > 0) return this.#set({ announcement: (t) => t.retryIn(wait) });
    if (this.#ui.refreshing) return;
    this.#set({ refreshing: true, announcement: (t) => t.checking });
    try {
      await this.#status.refresh();
      if (this.#ui.session?.status === "pending") this.#ui.announcement = (t) => t.notYet;
    } catch (error) {
      const failure = error as BackendError;
      if (failure.code === "rate_limited") {
        const seconds = failure.retryAfter ?? 10;
        this.#refreshBlockedUntil = Date.now() + seconds * 1000;
        this.#ui.announcement = (t) => t.retryIn(seconds);
      } else {
        this.#onError(failure);
        this.#ui.announcement = (t) => t.reconnecting;
      }
    }
    this.#set({ refreshing: false });
  }

  #share(pix: PixData) {
    navigator
      .share({
        title: this.#t.payWithPix,
        text: pix.copy_paste,
        url: pix.payment_link ?? undefined,
      })
      .catch(() => {
        // The shopper closed the sheet; nothing to say.
      });
  }

  override render(): TemplateResult {
    // Until the chosen language has loaded, show nothing rather than the wrong language.
    if (!this.#strings) return html``;
    const view = this.view;
    return html`<div part="base" class="base ${view}" lang=${this.#lang} tabindex="-1">
      ${this.#body(view)}
      <p
        part="status"
        class="status ${view === "pending" ? "" : "sr"}"
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
    const spinner = (text = t.loading) =>
      html`<p class="muted"><span class="spinner" aria-hidden="true"></span>${text}</p>`;
    if (view === "loading") return spinner();
    if (view === "error" || !s) {
      return this.#message(
        "!",
        t.errorTitle,
        error?.code === "not_found" ? t.notFound : t.errorBody,
        html`<button part="button retry-button" class="button" @click=${() => this.#status.retry()}>
          ${t.retry}
        </button>`,
      );
    }
    const lang = this.#lang;
    const amount = formatMoney(s.amount, s.currency, lang);
    // What the lazily loaded views borrow from the element (see BoletoKit, NoticeKit).
    const kit: BoletoKit & NoticeKit = {
      html,
      nothing,
      field: this.#field.bind(this),
      money: formatMoney,
      host: this,
      left: this.#countdown.remaining,
    };
    if (isNotice(view)) {
      // The title shows at once (the code is already gone, or not there yet); the rest
      // comes with its chunk.
      const notice = this.#noticeView?.(s, lang, kit);
      // Preparing is a longer loading: its spinner, and when the code should be ready.
      return view === "preparing"
        ? [spinner(t[titleOf(s)]), notice?.extra]
        : this.#message("!", t[view], notice?.body ?? "", notice?.extra);
    }
    if (view !== "pending") {
      const paid = view === "paid";
      return this.#message(paid ? "✓" : "!", t[view], t[`${view}Body`], paid ? amount : nothing);
    }
    // A boleto waits for its chunk (template, ITF, strings) before showing anything of it.
    const boleto = s.boleto && this.#boletoView?.(s.boleto, lang, kit);
    if (!s.pix && !boleto) return spinner();
    return html`<div part="header" class="header">
        <span>${boleto ? boleto.title : t.payWithPix}</span>
        <span part="amount" class="amount">${amount}</span>
      </div>
      ${boleto ? boleto.body : this.#pix(s.pix!, amount)}
      ${error ? html`<p class="muted">${t.reconnecting}</p>` : nothing}`;
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
      ${this.#ui.manual ? html`<p class="muted">${t.copyManual}</p>` : nothing}
    </div>`;
  }

  #pix(pix: PixData, amount: string) {
    const t = this.#t;
    const { refreshing, qrSrc } = this.#ui;
    return html`<p part="countdown" class="countdown">
        ${t.expiresIn} <b role="timer">${formatRemaining(this.#countdown.remaining)}</b>
      </p>
      <div part="qr" class="qr" role="img" aria-label=${t.qrLabel(amount)}>
        ${qrSrc ? html`<img src=${qrSrc} alt="" />` : nothing}
      </div>
      <ol part="instructions" class="steps">
        ${t.steps.map((step) => html`<li>${step}</li>`)}
      </ol>
      ${this.#field("pix", t.pixCode, pix.copy_paste, pix.copy_paste, t.copyCode)}
      <div class="actions">
        <button
          part="button refresh-button"
          class="button secondary"
          aria-disabled=${refreshing}
          @click=${() => this.#refresh()}
        >
          ${refreshing ? t.checking : t.alreadyPaid}
        </button>
        ${
          "share" in navigator
            ? html`<button
                part="button share-button"
                class="button secondary"
                @click=${() => this.#share(pix)}
              >
                ${t.share}
              </button>`
            : nothing
        }
      </div>`;
  }
}
