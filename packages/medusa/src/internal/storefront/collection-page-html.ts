import { randomBytes } from "node:crypto";
import { brl } from "../platform/brl";
import type { CollectionPurpose } from "../medusa/order-collections";
import type { CollectionPage, PageOrder } from "./collection-page-model";

/*
 * The payment page's HTML (collection-page.ts), in Portuguese, for a 390 px phone first and a
 * desktop: every value escaped, the element's files and one inline script allowed by a nonce,
 * nothing from another origin.
 */

/** A fresh nonce for one answer's CSP and its scripts and style. */
export function pageNonce(): string {
  return randomBytes(16).toString("base64");
}

/**
 * The page's headers: never cached (each answer is about one collection now), no referrer (the
 * URL names the order), scripts only from this server or carrying the answer's nonce, requests
 * only to this server (Medusa's store routes), and never in a frame.
 */
export function collectionPageHeaders(nonce: string): Record<string, string> {
  return {
    "cache-control": "no-store",
    "referrer-policy": "no-referrer",
    "content-security-policy": [
      "default-src 'none'",
      `script-src 'self' 'nonce-${nonce}'`,
      `style-src 'nonce-${nonce}'`,
      "connect-src 'self'",
      "img-src 'self'",
      "base-uri 'none'",
      "form-action 'none'",
      "frame-ancestors 'none'",
    ].join("; "),
    "x-content-type-options": "nosniff",
    "x-robots-tag": "noindex",
  };
}

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** `#1042`, or the order's id when Medusa gave it no number. */
export function orderNumber(order: PageOrder): string {
  return order.displayId !== null ? `#${order.displayId}` : order.id;
}

/** What the amount is for, as the page's title says it. */
export function purposeTitle(purpose: CollectionPurpose, order: PageOrder): string {
  const number = orderNumber(order);
  switch (purpose) {
    case "order_edit":
      return `Diferença da edição do pedido ${number}`;
    case "exchange":
      return `Diferença da troca do pedido ${number}`;
    case "claim":
      return `Diferença da reclamação do pedido ${number}`;
    case "return":
      return `Diferença da devolução do pedido ${number}`;
    case "cart":
    case "order":
      return `Pedido ${number}`;
  }
}

const STYLE = `
*{box-sizing:border-box}
body{font:16px/1.5 system-ui,sans-serif;margin:0;padding:16px;color:#1a1a1a;background:#f4f5f4}
main{max-width:30rem;margin:0 auto;background:#fff;border-radius:12px;padding:20px 16px 24px}
.store{margin:0 0 4px;color:#555;font-size:.9rem}
h1{font-size:1.25rem;line-height:1.3;margin:0 0 8px}
.amount{font-size:2rem;font-weight:700;margin:0 0 16px;font-variant-numeric:tabular-nums}
.button{display:block;width:100%;min-height:48px;text-align:center;padding:12px;border-radius:8px;border:0;background:#0b6e63;color:#fff;font:inherit;font-weight:600;cursor:pointer}
.button[disabled]{opacity:.6;cursor:progress}
.secondary{background:#fff;color:#0b6e63;border:1px solid #0b6e63;margin-top:12px}
.toggle::after{content:" ▾"}
.toggle[aria-expanded="true"]::after{content:" ▴"}
.button:focus-visible,input:focus-visible{outline:3px solid #0b6e63;outline-offset:2px}
#pix-boleto{margin-top:12px;border-top:1px solid #ddd;padding-top:4px}
label{display:block;margin:12px 0 4px;font-weight:600}
input{display:block;width:100%;min-height:44px;padding:8px 10px;font:inherit;border:1px solid #888;border-radius:6px}
.row{display:flex;gap:12px}.row>div{flex:1}
.message{min-height:1.5em;margin:12px 0 0}
.message.error{color:#b3261e}
.muted{color:#555;font-size:.9rem}
pix-checkout{display:block;margin:0 auto;color-scheme:light}
.paid{font-size:3rem;line-height:1;margin:0 0 8px;color:#13703a}
@media (min-width:700px){body{padding:40px 16px}main{padding:32px}}
`;

function page(nonce: string, title: string, body: string, head = ""): string {
  return `<!doctype html>
<html lang="pt-BR"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex">
<title>${escape(title)}</title>
<style nonce="${nonce}">${STYLE}</style>${head}</head><body><main>${body}</main></body></html>`;
}

const storeLine = (store: string | null) => (store ? `<p class="store">${escape(store)}</p>` : "");

/** Minutes, said in Portuguese, rounded up. */
function minutes(ms: number): string {
  const n = Math.max(1, Math.ceil(ms / 60_000));
  return n === 1 ? "1 minuto" : `${n} minutos`;
}

/** What the page's script reads: ids and the key, never anything of the customer. */
interface PageData {
  collectionId: string;
  publishableKey: string;
  pix: string;
  boleto: string | null;
  sessionId: string | null;
  order: string;
}

/**
 * The page's own script: "Gerar código Pix" (and "Gerar boleto") call Medusa's store route
 * with the store's publishable key, then hand the new session to `<pix-checkout>`, which from
 * then on says the amount and, once paid, "Pagamento confirmado" (the page's title keeps naming
 * the order; nothing is said twice). Every refusal of the route is
 * said in Portuguese; a collection that can no longer be paid reloads the page, which says why.
 */
const SCRIPT = `
const data = JSON.parse(document.getElementById("pix-page-data").textContent);
const backend = new URL("../..", location.href).href.replace(/\\/$/, "");
const message = document.getElementById("pix-message");
const actions = document.getElementById("pix-actions");
const slot = document.getElementById("pix-slot");
const say = (text, error) => { message.textContent = text; message.className = error ? "message error" : "message"; };
const words = {
  too_many_waiting_creates: "Muita procura agora. Nada foi cobrado: tente de novo em alguns instantes.",
  missing_payer_data: "Faltam dados para o boleto. Confira o CPF ou CNPJ, o bairro e o número.",
  invalid_payer_data: "Confira os dados: o CPF ou CNPJ, o telefone e o CEP precisam ser válidos.",
  collection_busy: "Estamos gerando seu código. Tente de novo em alguns segundos.",
  payment_capture_pending: "Um pagamento anterior deste pedido ainda está sendo registrado pela loja. Nada foi cobrado agora: tente de novo em alguns minutos.",
};
// A Pix is refused missing_payer_data only by a store that needs the buyer's CPF or CNPJ on every
// order, when the order carries none: this page has no field for it, the store does.
const pixWords = {
  missing_payer_data: "A loja precisa do CPF ou CNPJ do comprador para gerar o Pix deste pedido. Fale com a loja.",
};
const closed = new Set(["collection_already_paid", "collection_canceled", "order_canceled", "nothing_owed"]);
function show(sessionId) {
  document.getElementById("pix-subtitle").hidden = true;
  slot.replaceChildren();
  const element = document.createElement("pix-checkout");
  element.setAttribute("lang", "pt-BR");
  element.setAttribute("backend-url", backend);
  element.setAttribute("publishable-key", data.publishableKey);
  element.setAttribute("session-id", sessionId);
  element.addEventListener("pix-status-change", (event) => {
    const status = event.detail && event.detail.session && event.detail.session.status;
    if (status === "paid") paid();
  });
  element.addEventListener("pix-paid", paid);
  slot.append(element);
}
// Once a code is on screen the element says its amount and, paid, "Pagamento confirmado": the
// page keeps its title (which names the order) and says neither a second time.
function paid() {
  document.title = "Pagamento confirmado";
  if (actions) actions.hidden = true;
  say("");
}
async function start(provider, payer, button) {
  const buttons = document.querySelectorAll("button[data-provider]");
  buttons.forEach((b) => { b.disabled = true; });
  say(provider === data.boleto ? "Gerando seu boleto…" : "Gerando seu código Pix…");
  let answer;
  try {
    const response = await fetch(backend + "/store/payment-collections/" + encodeURIComponent(data.collectionId) + "/payment-sessions", {
      method: "POST",
      headers: { "content-type": "application/json", "x-publishable-api-key": data.publishableKey },
      body: JSON.stringify(payer ? { provider_id: provider, data: payer } : { provider_id: provider }),
    });
    answer = { status: response.status, body: await response.json().catch(() => ({})) };
  } catch {
    answer = { status: 0, body: {} };
  }
  buttons.forEach((b) => { b.disabled = false; });
  const code = answer.body && answer.body.code;
  if (answer.status === 200) {
    const sessions = (answer.body.payment_collection && answer.body.payment_collection.payment_sessions) || [];
    const session = sessions.find((s) => s.provider_id === provider);
    if (session) {
      say("");
      if (actions) actions.hidden = true;
      show(session.id);
      return;
    }
  }
  if (closed.has(code)) { location.reload(); return; }
  say((provider !== data.boleto && pixWords[code]) || words[code] || (answer.status === 0 ? "Sem conexão. Confira a internet e tente de novo." : "Não foi possível gerar o código agora. Tente de novo."), true);
  if (button) button.focus();
}
const toggle = document.getElementById("pix-boleto-toggle");
if (toggle) {
  toggle.addEventListener("click", () => {
    const form = document.getElementById("pix-boleto");
    const open = form.hidden;
    form.hidden = !open;
    toggle.setAttribute("aria-expanded", String(open));
    if (open) form.querySelector("input").focus();
  });
}
document.querySelectorAll("button[data-provider]").forEach((button) => {
  button.addEventListener("click", (event) => {
    event.preventDefault();
    const provider = button.getAttribute("data-provider");
    if (provider !== data.boleto) { start(provider, null, button); return; }
    const form = document.getElementById("pix-boleto");
    if (!form.reportValidity()) return;
    const field = (name) => (form.elements.namedItem(name) || {}).value;
    const payer = { document: field("document"), neighborhood: field("neighborhood"), number: field("number") };
    if (field("phone")) payer.phone = field("phone");
    start(provider, payer, button);
  });
});
if (data.sessionId) show(data.sessionId);
`;

/** JSON inside a `<script>`: nothing in it can close the element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c");

/** The page for `found`, with its HTTP status. */
export function collectionPageHtml(
  found: CollectionPage | { kind: "too_many"; retryAfterMs: number } | { kind: "unavailable" },
  nonce: string,
): { status: number; html: string } {
  switch (found.kind) {
    case "unknown":
      return {
        status: 404,
        html: page(
          nonce,
          "Link não encontrado",
          "<h1>Este link de pagamento não vale</h1><p>Confira se copiou o link inteiro, ou peça à loja um novo link.</p>",
        ),
      };
    case "too_many":
      return {
        status: 429,
        html: page(
          nonce,
          "Muitas tentativas",
          `<h1>Muitas tentativas em pouco tempo</h1><p>Espere ${minutes(found.retryAfterMs)} e abra o link de novo.</p>`,
        ),
      };
    case "unavailable":
      return {
        status: 503,
        html: page(
          nonce,
          "Tente de novo",
          "<h1>Não conseguimos abrir este pagamento agora</h1><p>Nada foi cobrado. Tente de novo em alguns minutos.</p>",
        ),
      };
    case "paid":
      return {
        status: 200,
        html: page(
          nonce,
          "Pagamento confirmado",
          `${storeLine(found.store)}<p class="paid" aria-hidden="true">✓</p><h1>${
            found.byCode ? "Pagamento confirmado" : "Este valor já foi pago"
          }</h1><p>Pedido ${escape(orderNumber(found.order))}. Não é preciso pagar de novo.</p>`,
        ),
      };
    case "closed": {
      const why = {
        collection_already_paid: "Este valor já foi pago. Não é preciso pagar de novo.",
        collection_canceled:
          "Esta cobrança foi cancelada pela loja. Se ainda houver algo a pagar, peça à loja o link atual.",
        order_canceled: "Este pedido foi cancelado. Nada precisa ser pago.",
        nothing_owed: "Este pedido não tem valor a pagar agora. Nada precisa ser pago.",
        order_email_missing:
          "A loja ainda não pode receber este pagamento: falta o e-mail do pedido. Fale com a loja.",
      }[found.refusal.code];
      return {
        status: 409,
        html: page(
          nonce,
          "Pagamento indisponível",
          `${storeLine(found.store)}<h1>${
            found.order ? `Pedido ${escape(orderNumber(found.order))}` : "Cobrança cancelada"
          }</h1><p>${escape(why)}</p>`,
        ),
      };
    }
    case "not_offered": {
      const why = {
        no_key:
          "A loja ainda não configurou o pagamento por este link (falta uma chave publicável do canal de vendas do pedido). Fale com a loja.",
        no_pix: "A loja ainda não ativou o Pix para a região deste pedido. Fale com a loja.",
        no_element:
          "A página de pagamento não está instalada por completo nesta loja. Fale com a loja.",
        currency: "Este pedido não está em reais: não pode ser pago com Pix.",
      }[found.why];
      return {
        status: found.why === "currency" ? 409 : 503,
        html: page(
          nonce,
          "Pagamento indisponível",
          `${storeLine(found.store)}<h1>Pedido ${escape(orderNumber(found.order))}</h1><p>${escape(why)}</p>`,
        ),
      };
    }
    case "open":
      return { status: 200, html: openPage(found, nonce) };
  }
}

function openPage(found: Extract<CollectionPage, { kind: "open" }>, nonce: string): string {
  const data: PageData = {
    collectionId: found.collectionId,
    publishableKey: found.publishableKey,
    pix: found.pix.providerId,
    boleto: found.boleto?.providerId ?? null,
    sessionId: found.session?.id ?? null,
    order: orderNumber(found.order),
  };
  const title = purposeTitle(found.purpose, found.order);
  const boleto = found.boleto
    ? `<p><button class="button secondary toggle" type="button" id="pix-boleto-toggle" aria-expanded="false" aria-controls="pix-boleto">Prefiro pagar com boleto</button></p>
<form id="pix-boleto" novalidate hidden>
<p class="muted">Nome, e-mail e endereço vêm do pedido. Falta só:</p>
<label for="pix-document">CPF ou CNPJ</label>
<input id="pix-document" name="document" inputmode="numeric" autocomplete="off" required minlength="11" maxlength="18">
<div class="row"><div><label for="pix-neighborhood">Bairro</label>
<input id="pix-neighborhood" name="neighborhood" autocomplete="address-level3" required maxlength="80"></div>
<div><label for="pix-number">Número</label>
<input id="pix-number" name="number" inputmode="numeric" autocomplete="off" required maxlength="10"></div></div>
${
  found.boleto.askPhone
    ? `<label for="pix-phone">Celular com DDD</label>
<input id="pix-phone" name="phone" type="tel" inputmode="tel" autocomplete="tel-national" required maxlength="20">`
    : ""
}
<p><button class="button secondary" type="submit" data-provider="${escape(found.boleto.providerId)}">Gerar boleto</button></p>
</form>`
    : "";
  // A live code shows at once; the buttons stay for a shopper who wants the other method.
  const actions = found.session
    ? found.session.method === "boleto"
      ? `<div id="pix-actions"><p><button class="button secondary" type="button" data-provider="${escape(found.pix.providerId)}">Pagar com Pix</button></p></div>`
      : `<div id="pix-actions">${boleto}</div>`
    : `<div id="pix-actions"><p><button class="button" type="button" data-provider="${escape(found.pix.providerId)}">Gerar código Pix</button></p>${boleto}</div>`;
  const head = `\n<script type="module" src="../assets/${escape(found.elementEntry)}" nonce="${nonce}"></script>`;
  return page(
    nonce,
    title,
    `${storeLine(found.store)}<h1 id="pix-title">${escape(title)}</h1>
<p id="pix-subtitle" class="amount"${found.session ? " hidden" : ""}>${escape(brl(found.amountCents))}</p>
<div id="pix-slot"></div>
${actions}
<p id="pix-message" class="message" role="status" aria-live="polite"></p>
<noscript><p class="message error">Ative o JavaScript do navegador para gerar o código Pix.</p></noscript>
<script type="application/json" id="pix-page-data">${scriptJson(data)}</script>
<script type="module" nonce="${nonce}">${SCRIPT}</script>`,
    head,
  );
}
