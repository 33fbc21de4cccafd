// The demo store's e-mails: each message the plugin sends (its template name and data, see the
// plugin's store API, "Notifications" and "Reminders") rendered the way a merchant's e-mail
// provider renders its templates: a subject, a Portuguese HTML body with the QR as an inline
// image, and a text part for mail clients that show no HTML.

import { dueWords } from "@pix-checkout/client/bank-days";

/** The template data the plugin sends (the fields these e-mails use). */
export interface MessageData {
  event?: string;
  method?: "pix" | "boleto";
  amount?: string;
  expires_at?: string | null;
  /** `payment`: Medusa's order is `paid`, `awaiting` payment, or `canceled`. */
  order?: { display_id?: number | null; payment?: "paid" | "awaiting" | "canceled" } | null;
  payment_page_url?: string | null;
  pix?: { copy_paste?: string; qr_png_base64?: string | null } | null;
  boleto?: { url?: string; digitable_line?: string; due_date?: string | null } | null;
  /** `reason`: why the money goes back (`paid_replaced`, `overpaid`, ..., `order_refund`). */
  refund?: { amount?: string; reason?: string } | null;
  reminder?: {
    step?: string;
    new_code_url?: string | null;
    opt_out_url?: string | null;
    checkout_url?: string | null;
    /** The boleto's due day in words at sending ("amanhã, terça-feira, 01/12"). */
    due_when?: string | null;
  } | null;
}

/** An inline image of the message (the QR), referred to by `cid:` from the HTML. */
export interface InlineImage {
  filename: string;
  content: string;
  encoding: "base64";
  cid: string;
  contentType: "image/png";
}

/** A message ready for SMTP. */
export interface Rendered {
  subject: string;
  html: string;
  text: string;
  attachments: InlineImage[];
}

/** The `cid:` of the QR in every message that carries one. */
export const QR_CID = "qr@pix-checkout";

const escape = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** `2026-11-27` as `27/11/2026`. */
const day = (iso: string | null | undefined) =>
  iso ? iso.slice(0, 10).split("-").reverse().join("/") : "";

/**
 * When a boleto falls due, as the shopper says it: "hoje", "amanhã", or the weekday and day
 * ("na segunda-feira, 30/11"). The plugin sends its "due tomorrow" reminder on the business day
 * before the due date, which after a Friday is a Monday: "amanhã" only when it is tomorrow. The
 * plugin's own words (`reminder.due_when`, written when it sent the message) come first; then the
 * same words from the due date, by the plugin's calendar (`@pix-checkout/client/bank-days`).
 * Without a due date, the template's own words: the reminder's day is a business day before.
 */
export function dueWhen(
  template: string,
  dueDate: string | null | undefined,
  now: Date,
  said?: string | null,
): string {
  if (said) return said;
  const iso = dueDate?.slice(0, 10);
  if (!iso || !/^\d{4}-\d{2}-\d{2}$/.test(iso)) {
    return template.endsWith("today") ? "hoje" : "no próximo dia útil";
  }
  return dueWords(iso, now);
}

/** One paragraph, or a line of the text part. */
type Block =
  | { p: string }
  | { code: string; label: string }
  | { link: string; label: string }
  | { qr: true }
  | { small: string };

/** A replaced code's money: the shopper paid a code the cart no longer used. */
const REPLACED_CODE = new Set(["paid_replaced", "paid_old_amount", "paid_twice"]);

/**
 * What became of the order, in Medusa's word on it (`order.payment`): "já está pago" only when
 * Medusa's order is paid. `pending` says what a replaced code's shopper still has to do.
 */
function orderState(d: MessageData, pending: boolean): string {
  const number = d.order?.display_id ? ` #${d.order.display_id}` : "";
  switch (d.order?.payment) {
    case "paid":
      return `Seu pedido${number} já está pago.`;
    case "canceled":
      return `Seu pedido${number} foi cancelado.`;
    case "awaiting":
      return pending
        ? `Seu pedido${number} aguarda o pagamento do código atual.`
        : `Seu pedido${number} ainda aguarda pagamento.`;
    default:
      return pending ? "O pedido é criado quando o código atual for pago." : "";
  }
}

/** What happened to money the store gives back, per reason: the first sentence of both mails. */
function whyBack(reason: string | undefined, amount: string, d: MessageData): string {
  const number = d.order?.display_id ? ` #${d.order.display_id}` : "";
  switch (reason) {
    case "paid_replaced":
    case "paid_old_amount":
      return `Recebemos ${amount} por um código que foi substituído; vamos devolver esse valor.`;
    case "paid_twice":
      return `Recebemos ${amount} por um segundo código do mesmo carrinho, que já tinha sido pago; vamos devolver esse valor.`;
    case "overpaid":
    case "amount_lowered":
      return `Você pagou ${amount} a mais do que o pedido custa; vamos devolver a diferença.`;
    case "order_canceled":
    case "paid_after_order_canceled":
      return `Recebemos ${amount}, mas seu pedido${number} foi cancelado; vamos devolver esse valor.`;
    case "paid_elsewhere":
      // Another way of paying closed the order (a card, payment on delivery): say that, not
      // "pago", which Medusa may not say yet.
      return `Recebemos ${amount} por este código, mas seu pedido${number} foi fechado com outra forma de pagamento; vamos devolver esse valor.`;
    case "collection_canceled":
      return `Recebemos ${amount} por um código cuja cobrança foi cancelada; vamos devolver esse valor.`;
    case "out_of_stock":
      return `Recebemos seu pagamento de ${amount}, mas um item acabou e não conseguimos concluir o pedido; vamos devolver esse valor.`;
    default:
      return `Recebemos seu pagamento de ${amount}, mas não conseguimos concluir o pedido; vamos devolver esse valor.`;
  }
}

/** What a refund the store made was about, after "Devolvemos R$ X". */
function refundedAbout(reason: string | undefined, d: MessageData): string {
  const number = d.order?.display_id ? ` #${d.order.display_id}` : "";
  if (reason && REPLACED_CODE.has(reason)) {
    return reason === "paid_twice"
      ? " que você pagou por um segundo código do mesmo carrinho"
      : " que você pagou por um código que foi substituído";
  }
  if (reason === "overpaid" || reason === "amount_lowered") return " pagos a mais";
  return number ? ` do seu pedido${number}` : "";
}

/** What each template says: the subject and its blocks, from the data. */
function compose(
  template: string,
  d: MessageData,
  now: Date,
): { subject: string; blocks: Block[] } {
  const amount = d.amount ?? "";
  const page = d.payment_page_url;
  const pixCode: Block[] = d.pix?.copy_paste
    ? [
        { code: d.pix.copy_paste, label: "Pix Copia e Cola" },
        ...(d.pix.qr_png_base64 ? [{ qr: true } as const] : []),
      ]
    : [];
  const boletoLine: Block[] = d.boleto?.digitable_line
    ? [
        { code: d.boleto.digitable_line, label: "Linha digitável" },
        ...(d.boleto.url ? [{ link: d.boleto.url, label: "Abrir o boleto (PDF)" }] : []),
      ]
    : [];
  const backToPage: Block[] = page ? [{ link: page, label: "Ver na página de pagamento" }] : [];
  const order = d.order?.display_id ? ` #${d.order.display_id}` : "";
  switch (template) {
    case "pix-checkout-code":
      return d.method === "boleto"
        ? {
            subject: `Seu boleto de ${amount}${d.boleto?.due_date ? `, vence em ${day(d.boleto.due_date)}` : ""}`,
            blocks: [
              {
                p: `Seu boleto de ${amount} está pronto. Pague no app do seu banco com a linha digitável:`,
              },
              ...boletoLine,
              ...backToPage,
            ],
          }
        : {
            subject: `Seu código Pix de ${amount}`,
            blocks: [
              {
                p: `Seu código Pix de ${amount} está pronto. Copie o código e pague no app do seu banco, ou escaneie o QR code de outro aparelho:`,
              },
              ...pixCode,
              ...backToPage,
            ],
          };
    case "pix-checkout-paid":
      return {
        subject: `Pagamento confirmado: pedido${order}`,
        blocks: [
          {
            // "Está pago" only when Medusa's order is: a part paid (an edit's difference still
            // open) is said as it is.
            p:
              !d.order?.payment || d.order.payment === "paid"
                ? `Recebemos o seu pagamento de ${amount}. Obrigado! Seu pedido${order} está pago.`
                : `Recebemos o seu pagamento de ${amount}. Obrigado! ${orderState(d, false)}`,
          },
          ...backToPage,
        ],
      };
    case "pix-checkout-expired":
      return {
        subject: d.method === "boleto" ? "Seu boleto venceu" : "Seu código Pix expirou",
        blocks: [
          {
            p: `O ${d.method === "boleto" ? "boleto" : "código Pix"} de ${amount} não vale mais. Volte à loja para gerar um novo.`,
          },
          ...backToPage,
        ],
      };
    case "pix-checkout-refund-due": {
      const back = d.refund?.amount ?? amount;
      const replaced = REPLACED_CODE.has(d.refund?.reason ?? "");
      // The order's state where the reason leaves it open; a canceled order or one paid
      // otherwise is said by the reason itself.
      const state = replaced
        ? orderState(d, true)
        : ["overpaid", "amount_lowered", "collection_canceled"].includes(d.refund?.reason ?? "")
          ? orderState(d, false)
          : "";
      return {
        subject: `Vamos devolver ${back}`,
        blocks: [
          { p: [whyBack(d.refund?.reason, back, d), state].filter(Boolean).join(" ") },
          // The replaced code's page points to the code that still pays the order.
          ...(replaced && d.order?.payment !== "paid" ? backToPage : []),
        ],
      };
    }
    case "pix-checkout-refunded": {
      const back = d.refund?.amount ?? amount;
      const replaced = REPLACED_CODE.has(d.refund?.reason ?? "");
      return {
        subject: `Devolvemos ${back}`,
        blocks: [
          {
            p: [
              `Devolvemos ${back}${refundedAbout(d.refund?.reason, d)}.`,
              replaced ? orderState(d, true) : "",
            ]
              .filter(Boolean)
              .join(" "),
          },
        ],
      };
    }
    case "pix-checkout-pix-expiring":
      return {
        subject: `Seu Pix de ${amount} vence em 10 minutos`,
        blocks: [
          {
            p: "Seu código Pix ainda está valendo, mas vence em 10 minutos. Copie o código e pague no app do seu banco:",
          },
          ...pixCode,
          ...backToPage,
        ],
      };
    case "pix-checkout-pix-expired-new-code":
      return {
        subject: "Seu código Pix expirou, mas seu carrinho continua aqui",
        blocks: [
          {
            p: `Seu código Pix de ${amount} expirou. Seu carrinho continua na loja: gere um novo código em um toque (o link vale por 7 dias).`,
          },
          ...(d.reminder?.new_code_url
            ? [{ link: d.reminder.new_code_url, label: "Gerar novo código" }]
            : []),
        ],
      };
    case "pix-checkout-boleto-due-tomorrow":
    case "pix-checkout-boleto-due-today": {
      const when = dueWhen(template, d.boleto?.due_date, now, d.reminder?.due_when);
      return {
        // The subject names the day only ("vence na segunda-feira"); the body adds the date.
        subject: `Seu boleto de ${amount} vence ${when.split(",")[0]}`,
        blocks: [
          {
            p: `Seu boleto de ${amount} vence ${when}. Pague no app do seu banco com a linha digitável:`,
          },
          ...boletoLine,
        ],
      };
    }
    case "pix-checkout-boleto-overdue":
      return {
        subject: "Seu boleto venceu: gere um novo ou pague com Pix",
        blocks: [
          {
            p: `O boleto de ${amount} venceu sem pagamento. Gere um novo boleto, ou pague com Pix na loja, com aprovação na hora.`,
          },
          ...(d.reminder?.new_code_url
            ? [{ link: d.reminder.new_code_url, label: "Gerar novo boleto" }]
            : []),
          ...(d.reminder?.checkout_url
            ? [{ link: d.reminder.checkout_url, label: "Pagar com Pix" }]
            : []),
        ],
      };
    default:
      return {
        subject: "Uma mensagem da Loja Pix Checkout",
        blocks: [{ p: `Uma mensagem sobre o seu pedido de ${amount}.` }, ...backToPage],
      };
  }
}

/**
 * The e-mail of one message the plugin sends, as the shopper reads it: subject, HTML body in
 * Portuguese (the QR an inline image, `cid:` {@link QR_CID}) and the same words as text.
 */
export function renderMessage(
  template: string,
  data: MessageData,
  store: string,
  now: Date = new Date(),
): Rendered {
  const { subject, blocks } = compose(template, data, now);
  const optOut = data.reminder?.opt_out_url;
  const footer: Block[] = [
    { small: `Você recebe este e-mail por causa de uma compra na ${store}.` },
    ...(optOut ? [{ link: optOut, label: "Não quero mais lembretes" }] : []),
  ];
  const all = [...blocks, ...footer];
  const html = `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><title>${escape(subject)}</title></head>
<body style="margin:0;padding:24px 12px;background:#f6f7f9;font:16px/1.5 system-ui,sans-serif;color:#1c2430">
<div style="max-width:32rem;margin:0 auto;background:#fff;border-radius:12px;padding:24px">
<h1 style="font-size:1.2rem;margin:0 0 16px">${escape(store)}</h1>
${all.map(blockHtml).join("\n")}
</div></body></html>`;
  const text = [store, "", ...all.map(blockText), ""].join("\n");
  const attachments: InlineImage[] = data.pix?.qr_png_base64
    ? [
        {
          filename: "qr-code-pix.png",
          content: data.pix.qr_png_base64,
          encoding: "base64",
          cid: QR_CID,
          contentType: "image/png",
        },
      ]
    : [];
  return { subject, html, text, attachments };
}

function blockHtml(block: Block): string {
  if ("p" in block) return `<p>${escape(block.p)}</p>`;
  if ("small" in block)
    return `<p style="font-size:.8rem;color:#5b6573">${escape(block.small)}</p>`;
  if ("qr" in block)
    return `<p style="text-align:center"><img src="cid:${QR_CID}" alt="QR code Pix" width="220" height="220"></p>`;
  if ("code" in block)
    return `<p><b>${escape(block.label)}</b><br><span style="font-family:monospace;word-break:break-all">${escape(block.code)}</span></p>`;
  return `<p><a href="${escape(block.link)}" style="display:inline-block;padding:12px 16px;border-radius:8px;background:#0f766e;color:#fff;text-decoration:none;font-weight:600">${escape(block.label)}</a></p>`;
}

function blockText(block: Block): string {
  if ("p" in block) return block.p;
  if ("small" in block) return block.small;
  if ("qr" in block) return "(O QR code está na versão HTML deste e-mail.)";
  if ("code" in block) return `${block.label}:\n${block.code}`;
  return `${block.label}: ${block.link}`;
}
