import { brl } from "../platform/brl";
import type { SecondChance } from "./second-chance";

/**
 * The small pages a reminder's links open on the Medusa server, in Portuguese, for a phone:
 * no script, no outside resource, every value escaped.
 */

/**
 * The pages' headers: never cached (each answer is about one cart now), no referrer (the URL
 * holds the message's token), and nothing but the page's own inline style and form.
 */
export const PAGE_HEADERS: Record<string, string> = {
  "cache-control": "no-store",
  "referrer-policy": "no-referrer",
  "content-security-policy":
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
};

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="pt-BR"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex">
<title>${escape(title)}</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;margin:0;padding:24px 16px;color:#1a1a1a;background:#f6f6f6}
main{max-width:28rem;margin:0 auto;background:#fff;border-radius:12px;padding:24px}
h1{font-size:1.25rem;margin:0 0 12px}
.button{display:block;box-sizing:border-box;width:100%;text-align:center;padding:14px;border-radius:8px;border:0;background:#0a7c55;color:#fff;font:inherit;font-weight:600;text-decoration:none;cursor:pointer}
ul{padding-left:20px}
</style></head><body><main>${body}</main></body></html>`;
}

const link = (href: string | null, label: string) =>
  href ? `<p><a class="button" href="${escape(href)}">${escape(label)}</a></p>` : "";

/** What the new-code link shows when it does not go straight to the payment page. */
export function secondChancePage(found: SecondChance): { status: number; html: string } {
  switch (found.kind) {
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
              : "Gere um novo boleto, ou pague com Pix na finalização da compra."
          }</p>${link(found.paymentPageUrl, found.method === "pix" ? "Ir para o pagamento" : "Gerar novo boleto")}${link(found.checkoutUrl, "Pagar com Pix")}`,
        ),
      };
  }
}

/** The opt-out link's page: a button, so a mail scanner that opens links opts nobody out. */
export function optOutPage(action: string): string {
  return page(
    "Parar lembretes",
    `<h1>Parar os lembretes de pagamento?</h1><p>Você não receberá mais lembretes sobre códigos Pix e boletos não pagos desta loja neste e-mail. Mensagens do seu pedido continuam chegando.</p><form method="post" action="${escape(action)}"><button class="button" type="submit">Parar lembretes</button></form>`,
  );
}

/** After the opt-out: done, or the link was not one of the store's. */
export function optedOutPage(recorded: boolean): { status: number; html: string } {
  return recorded
    ? {
        status: 200,
        html: page(
          "Lembretes desligados",
          "<h1>Pronto, lembretes desligados</h1><p>Este e-mail não receberá mais lembretes de pagamento desta loja.</p>",
        ),
      }
    : {
        status: 404,
        html: page("Link não encontrado", "<h1>Este link não vale mais</h1>"),
      };
}
