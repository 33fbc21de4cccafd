import { brl } from "@pix-checkout/client/books";
import { NEW_CODE_LINK_DAYS, OPT_OUT_LINK_DAYS } from "./links";
import type { NewCodeRequest, OptOutLink, SecondChance } from "./second-chance";

/**
 * The small pages a reminder's links open on the Medusa server, in Portuguese, for a phone:
 * no script, no outside resource, every value escaped.
 */

/**
 * The pages' headers: never cached (each answer is about one cart now), no referrer (the URL
 * holds the message's token), and nothing but the page's own inline style and form. The form
 * posts to the page itself; its answer may redirect to the storefront's payment page, and
 * browsers hold a form's redirect to `form-action` too, so the storefront's origins are named.
 */
export function pageHeaders(
  formTargets: readonly (string | null | undefined)[] = [],
  nonce?: string,
): Record<string, string> {
  const origins = new Set<string>();
  for (const target of formTargets) {
    if (!target) continue;
    try {
      origins.add(new URL(target.replace("{session_id}", "x")).origin);
    } catch {
      // Not a URL: the options check refuses those at start-up; nothing to allow.
    }
  }
  return {
    "cache-control": "no-store",
    "referrer-policy": "no-referrer",
    // Only the page that makes a new code (`newCodePage`) runs a script: its own, by nonce,
    // calling this server's store route.
    "content-security-policy": `default-src 'none'; style-src 'unsafe-inline'; ${
      nonce ? `script-src 'nonce-${nonce}'; connect-src 'self'; ` : ""
    }form-action ${["'self'", ...origins].join(" ")}; frame-ancestors 'none'`,
    "x-content-type-options": "nosniff",
  };
}

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Whose pages these are: the store's name as Medusa holds it (Settings → Store) and its
 * storefront's home, so a shopper who tapped a link in an e-mail knows where they landed.
 */
export interface StorePlace {
  name: string | null;
  /** The storefront's address (the origin of `checkoutUrl`, else of `paymentPageUrl`). */
  home: string | null;
}

/** The header every page with a known store carries: its name, a link home when there is one. */
function storeHeader(store: StorePlace | null | undefined): string {
  if (!store?.name) return "";
  const name = escape(store.name);
  return `<header>${store.home ? `<a href="${escape(store.home)}">${name}</a>` : `<span>${name}</span>`}</header>`;
}

function pageOf(
  title: string,
  body: string,
  store?: StorePlace | null,
  script?: { nonce: string; code: string; data: unknown },
): string {
  return `<!doctype html>
<html lang="pt-BR"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex">
<title>${escape(store?.name ? `${title} · ${store.name}` : title)}</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;margin:0;padding:0 16px 24px;color:#1a1a1a;background:#f6f6f6}
header{max-width:28rem;margin:0 auto;padding:16px 0;font-weight:700;font-size:1.1rem}
header a{color:inherit;text-decoration:none;display:inline-flex;align-items:center;min-height:44px}
main{max-width:28rem;margin:0 auto;background:#fff;border-radius:12px;padding:24px}
body>main:first-child{margin-top:24px}
h1{font-size:1.25rem;margin:0 0 12px}
.button{display:block;box-sizing:border-box;width:100%;text-align:center;padding:14px;border-radius:8px;border:0;background:#0a7c55;color:#fff;font:inherit;font-weight:600;text-decoration:none;cursor:pointer}
.button[disabled]{opacity:.6;cursor:progress}
a:focus-visible,button:focus-visible{outline:3px solid #075e40;outline-offset:2px}
.link{display:inline-flex;align-items:center;min-height:44px}
.error{color:#b3261e}
ul{padding-left:20px}
</style></head><body>${storeHeader(store)}<main>${body}</main>${
    script
      ? `<script type="application/json" id="pix-new-code">${JSON.stringify(script.data).replace(/</g, "\\u003c")}</script>
<script nonce="${script.nonce}">${script.code}</script>`
      : ""
  }</body></html>`;
}

const link = (href: string | null, label: string) =>
  href ? `<p><a class="button" href="${escape(href)}">${escape(label)}</a></p>` : "";

/**
 * A button that posts to the page's own address (a form without `action`): the page never
 * writes its token, and only a tap, not a mail scanner's visit, acts.
 */
const button = (label: string) =>
  `<form method="post"><button class="button" type="submit">${escape(label)}</button></form>`;

/** Minutes, said in Portuguese, rounded up (a `Retry-After` of 61 s is "2 minutos"). */
function minutes(ms: number): string {
  const n = Math.max(1, Math.ceil(ms / 60_000));
  return n === 1 ? "1 minuto" : `${n} minutos`;
}

/** A link opened too often (per message or per address): when to try again. */
export function tooManyPage(retryAfterMs: number): { status: number; html: string } {
  return {
    status: 429,
    html: pageOf(
      "Muitas tentativas",
      `<h1>Muitas tentativas em pouco tempo</h1><p>Este link foi aberto muitas vezes seguidas. Espere ${minutes(retryAfterMs)} e abra o link de novo.</p>`,
    ),
  };
}

/** The store could not read what the link needs (its database is away): nothing was done. */
export function unavailablePage(): { status: number; html: string } {
  return {
    status: 503,
    html: pageOf(
      "Tente de novo",
      "<h1>Não conseguimos abrir este link agora</h1><p>Nada foi alterado no seu carrinho. Tente de novo em alguns minutos.</p>",
    ),
  };
}

/**
 * Any of the plugin's pages (the payment link, a reminder's links) while the store's database
 * is away. It does not reload itself on a timer (a `<meta http-equiv="refresh">` would cut a
 * screen reader off mid-sentence every few seconds, and WCAG 2.2.1 forbids it): its own script
 * asks the same address again every `retryAfterSeconds` (a GET, which changes nothing) and
 * reloads once when the answer is no longer a 503, so a shopper who waits sees the page come back
 * without doing anything; "Tentar agora" asks at once (route-failures.ts).
 */
export function storeUnavailablePage(
  retryAfterSeconds: number,
  nonce: string,
): { status: number; html: string; nonce: string } {
  const waitMs = Math.max(1, retryAfterSeconds) * 1000;
  return {
    status: 503,
    nonce,
    html: pageOf(
      "Loja indisponível",
      `<h1>A loja está indisponível por um instante…</h1><p>Nada foi cobrado nem alterado. Esta página volta sozinha assim que a loja responder.</p><p role="status" id="pix-wait">Tentando de novo a cada ${retryAfterSeconds} segundos.</p><p><a class="link" href="">Tentar agora</a></p>`,
      null,
      {
        nonce,
        data: { waitMs },
        code: `(function(){var d=JSON.parse(document.getElementById("pix-new-code").textContent);function ask(){fetch(location.href,{cache:"no-store",credentials:"same-origin"}).then(function(r){if(r.status!==503)location.reload();else setTimeout(ask,d.waitMs)},function(){setTimeout(ask,d.waitMs)})}setTimeout(ask,d.waitMs)})();`,
      },
    ),
  };
}

/** A page's address that cannot be read (a broken percent-escape): the link was cut or altered. */
export function brokenLinkPage(): { status: number; html: string } {
  return {
    status: 400,
    html: pageOf(
      "Link incompleto",
      "<h1>Este link está incompleto</h1><p>O endereço foi cortado ou alterado. Abra de novo o link da mensagem que você recebeu, sem mudar nada nele.</p>",
    ),
  };
}

/**
 * What the new-code link shows: on opening (GET), where the cart stands and a button; after
 * the button (POST), what changed, unless it went straight to the payment page.
 */
export function secondChancePage(
  found: SecondChance,
  store: StorePlace | null = null,
): { status: number; html: string } {
  const page = (title: string, body: string) => pageOf(title, body, store);
  switch (found.kind) {
    case "expired":
      return {
        status: 410,
        html: page(
          "Link expirado",
          `<h1>Este link expirou</h1><p>Por segurança, o link de um lembrete vale por ${NEW_CODE_LINK_DAYS} dias depois que o código vence. Seu carrinho pode continuar na loja: volte a ela para finalizar a compra e gerar um novo código.</p>${link(found.checkoutUrl, "Voltar à loja")}`,
        ),
      };
    case "open":
      return {
        status: 200,
        html: page(
          found.method === "pix" ? "Gerar novo código" : "Gerar novo boleto",
          `<h1>Seu carrinho continua aqui</h1><p>${
            found.method === "pix"
              ? "Toque no botão para conferirmos os preços de agora e gerar um novo código Pix."
              : "Toque no botão para conferirmos os preços de agora e gerar um novo boleto, ou pague com Pix na finalização da compra."
          }</p>${button(found.method === "pix" ? "Gerar novo código" : "Gerar novo boleto")}${link(found.checkoutUrl, "Pagar com Pix")}`,
        ),
      };
    case "unknown":
      return {
        status: 404,
        html: page(
          "Link não encontrado",
          "<h1>Este link não vale mais</h1><p>Volte à loja e finalize a compra por lá.</p>",
        ),
      };
    case "paid":
      return {
        status: 200,
        html: page(
          "Pedido pago",
          `<h1>Este pedido já está pago</h1><p>Recebemos o pagamento; não é preciso pagar de novo.</p>${link(found.paymentPageUrl, "Ver o pagamento")}`,
        ),
      };
    case "ordered":
      return {
        status: 409,
        html: page(
          "Carrinho encerrado",
          `<h1>Este carrinho foi encerrado</h1><p>O pedido foi concluído ou cancelado. Para comprar de novo, faça um novo pedido: com Pix, a confirmação é na hora.</p>${link(found.checkoutUrl, "Comprar de novo")}`,
        ),
      };
    case "changed": {
      // What changed is the total; the lines are named without prices, so nothing on the page
      // is a sum that does not add up (the storefront's cart shows every price line).
      const items = found.lines
        .map((line) => `<li>${line.quantity} × ${escape(line.title)}</li>`)
        .join("");
      const difference =
        found.nowCents === null
          ? ""
          : ` Agora ele custa <strong>${brl(found.nowCents)}</strong> (${
              found.nowCents > found.wasCents
                ? `${brl(found.nowCents - found.wasCents)} a mais`
                : `${brl(found.wasCents - found.nowCents)} a menos`
            }).`;
      return {
        status: 409,
        html: page(
          "O valor mudou",
          `<h1>O valor do carrinho mudou</h1><p>O código era de <strong>${brl(found.wasCents)}</strong>.${difference}</p><p>No carrinho agora:</p><ul>${items}</ul><p>Confira os itens e o frete antes de gerar um novo código.</p>${link(found.paymentPageUrl, "Gerar novo código com o valor atual")}`,
        ),
      };
    }
    case "ready":
      return {
        status: 200,
        html: page(
          "Gerar novo código",
          `<h1>Seu carrinho continua aqui</h1><p>O preço é o mesmo. ${
            found.method === "pix"
              ? "Volte à página de pagamento para gerar um novo código Pix."
              : found.paymentPageUrl !== null && found.paymentPageUrl === found.checkoutUrl
                ? "Na finalização da compra, escolha boleto e confirme seu CPF para gerar um novo boleto, ou pague com Pix, que é confirmado na hora."
                : "Gere um novo boleto, ou pague com Pix na finalização da compra."
          }</p>${link(found.paymentPageUrl, found.method === "pix" ? "Ir para o pagamento" : "Gerar novo boleto")}${
            // The same checkout twice would be one door under two names.
            found.checkoutUrl === found.paymentPageUrl
              ? ""
              : link(found.checkoutUrl, "Pagar com Pix")
          }`,
        ),
      };
  }
}

/**
 * The opt-out link's page. Opened (GET): a button, so a mail scanner that opens links opts
 * nobody out. After the button or a mail client's one-click POST: done. Either way, a link
 * that is not one of the store's messages, or is past its days, says so.
 */
export function optOutPage(
  found: OptOutLink,
  done: boolean,
  store: StorePlace | null = null,
): { status: number; html: string } {
  const page = (title: string, body: string) => pageOf(title, body, store);
  switch (found) {
    case "unknown":
      return {
        status: 404,
        html: page("Link não encontrado", "<h1>Este link não vale mais</h1>"),
      };
    case "expired":
      return {
        status: 410,
        html: page(
          "Link expirado",
          `<h1>Este link expirou</h1><p>Por segurança, o link para parar os lembretes vale por ${OPT_OUT_LINK_DAYS} dias depois que o código vence. Se ainda receber lembretes desta loja, use o link do e-mail mais recente.</p>`,
        ),
      };
    default: {
      // The mailbox, masked, and the store: the shopper knows which list this is.
      const who = found.mailbox ? `<strong>${escape(found.mailbox)}</strong>` : "Este e-mail";
      const store = found.store ? `da loja <strong>${escape(found.store)}</strong>` : "desta loja";
      if (found.alreadyOff && !done) {
        return {
          status: 200,
          html: page(
            "Lembretes já desligados",
            `<h1>Os lembretes já estão desligados</h1><p>${who} não recebe lembretes de pagamento ${store}. Não é preciso fazer mais nada. Mensagens do seu pedido continuam chegando.</p>`,
          ),
        };
      }
      return done
        ? {
            status: 200,
            html: page(
              "Lembretes desligados",
              `<h1>Pronto, lembretes desligados</h1><p>${who} não receberá mais lembretes de pagamento ${store}.</p>`,
            ),
          }
        : {
            status: 200,
            html: page(
              "Parar lembretes",
              `<h1>Parar os lembretes de pagamento?</h1><p>${who} não receberá mais lembretes sobre códigos Pix e boletos não pagos ${store}. Mensagens do seu pedido continuam chegando.</p>${button("Parar lembretes")}`,
            ),
          };
    }
  }
}

/**
 * What the new-code button's page does: asks Medusa's store route for the cart's new Pix code
 * (`POST /store/payment-collections/:id/payment-sessions` with the store's publishable key, the
 * request the element's "Gerar novo código" sends, naming the code it renews, so the create line
 * and every other rule of that route apply and the shopper's own address is the one counted),
 * then opens the payment
 * page on the new session. Any refusal is said in Portuguese beside a button that tries again,
 * with the old code's payment page as the way out. It runs only in the answer to the button's
 * POST, never on opening the link: a mail scanner's GET makes nothing.
 */
const NEW_CODE_SCRIPT = `
const data = JSON.parse(document.getElementById("pix-new-code").textContent);
const message = document.getElementById("pix-message");
const again = document.getElementById("pix-again");
const words = {
  too_many_waiting_creates: "Muita procura agora. Nada foi cobrado: tente de novo em alguns instantes.",
  collection_busy: "Estamos gerando seu código. Tente de novo em alguns segundos.",
};
async function make() {
  again.hidden = true;
  message.className = "";
  message.textContent = "Gerando seu novo código Pix…";
  let status = 0;
  let body = {};
  try {
    const response = await fetch(new URL("../../store/payment-collections/" + encodeURIComponent(data.collectionId) + "/payment-sessions", location.href), {
      method: "POST",
      headers: { "content-type": "application/json", "x-publishable-api-key": data.publishableKey },
      body: JSON.stringify({ provider_id: data.providerId, data: { renews: data.renews } }),
    });
    status = response.status;
    body = await response.json().catch(() => ({}));
  } catch {}
  const sessions = (status === 200 && body.payment_collection && body.payment_collection.payment_sessions) || [];
  const session = sessions.find((s) => s.provider_id === data.providerId);
  if (session) {
    location.replace(data.pageTemplate.replace("{session_id}", encodeURIComponent(session.id)));
    return;
  }
  message.className = "error";
  message.textContent = words[body && body.code] || (status === 0 ? "Sem conexão. Confira a internet e tente de novo." : "Não foi possível gerar o código agora. Tente de novo.");
  again.hidden = false;
  again.focus();
}
again.addEventListener("click", make);
make();
`;

/** The answer to the new-code button when the cart's Pix code is over: the new code is made here. */
export function newCodePage(
  request: NewCodeRequest,
  nonce: string,
  store: StorePlace | null = null,
): { status: number; html: string } {
  return {
    status: 200,
    html: pageOf(
      "Gerando novo código",
      `<h1>Seu carrinho continua aqui</h1><p id="pix-message" role="status" aria-live="polite">Gerando seu novo código Pix…</p><p><button class="button" type="button" id="pix-again" hidden>Tentar de novo</button></p><noscript><p>Ative o JavaScript do navegador, ou gere o código na página de pagamento.</p></noscript><p><a class="link" href="${escape(request.fallbackUrl)}">Ir para a página de pagamento</a></p>`,
      store,
      {
        nonce,
        code: NEW_CODE_SCRIPT,
        data: {
          collectionId: request.collectionId,
          providerId: request.providerId,
          publishableKey: request.publishableKey,
          pageTemplate: request.pageTemplate,
          renews: request.renews,
        },
      },
    ),
  };
}
