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
  /** Set once the charge is paid (Medusa's order may not say so yet). */
  paid_at?: string | null;
  /**
   * `payment`: Medusa's order is `paid`, `awaiting` payment, or `canceled`. `lines` and `total`:
   * what was ordered, in cents (the plugin's store API, "Notifications").
   */
  order?: {
    id?: string;
    display_id?: number | null;
    payment?: "paid" | "awaiting" | "canceled";
    lines?: OrderLines | null;
    total?: { cents?: number } | null;
  } | null;
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

/** What was ordered, as the plugin sends it (the fields these e-mails use), in cents. */
export interface OrderLines {
  items?: {
    name?: string;
    variant?: string | null;
    quantity?: number;
    unit_price_cents?: number;
    total_cents?: number;
  }[];
  shipping?: { option?: string; amount_cents?: number }[];
  shipping_address?: {
    name?: string | null;
    address_1?: string | null;
    address_2?: string | null;
    city?: string | null;
    province?: string | null;
    postal_code?: string | null;
  } | null;
  pix_discount?: { cents?: number } | null;
  other_discounts?: { cents?: number } | null;
  taxes?: { cents?: number } | null;
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

/**
 * Integer cents as `R$ 1.234,56`, on the digits (no float touches money); a negative amount
 * (a discount) as `-R$ 8,99`.
 */
export function reais(cents: number): string {
  const digits = String(Math.abs(Math.trunc(cents))).padStart(3, "0");
  const whole = digits.slice(0, -2).replace(/\B(?=(\d{3})+$)/g, ".");
  return `${cents < 0 ? "-" : ""}R$ ${whole},${digits.slice(-2)}`;
}

/** One row of an order's list: what it is and what it costs. */
interface Row {
  label: string;
  amount: string;
  strong?: boolean;
}

/**
 * What was ordered, as rows that add up to the total: each item (quantity × unit price), each
 * delivery option, the Pix discount and any other, taxes on top, and the total. Empty without
 * the lines (the plugin sends none when Medusa's order does not add up).
 */
function orderRows(d: MessageData): Row[] {
  const lines = d.order?.lines;
  const total = d.order?.total?.cents;
  if (!lines || total === undefined) return [];
  const rows: Row[] = (lines.items ?? []).map((item) => ({
    label: `${item.quantity ?? 1} × ${item.name ?? "Item"}${item.variant ? ` (${item.variant})` : ""}, ${reais(item.unit_price_cents ?? 0)} cada`,
    amount: reais(item.total_cents ?? 0),
  }));
  for (const line of lines.shipping ?? []) {
    rows.push({ label: `Entrega: ${line.option ?? ""}`, amount: reais(line.amount_cents ?? 0) });
  }
  const minus = (label: string, cents: number | undefined) =>
    cents ? rows.push({ label, amount: reais(-cents) }) : undefined;
  minus("Desconto no Pix", lines.pix_discount?.cents);
  minus("Outros descontos", lines.other_discounts?.cents);
  if (lines.taxes?.cents) rows.push({ label: "Impostos", amount: reais(lines.taxes.cents) });
  rows.push({ label: "Total", amount: reais(total), strong: true });
  return rows;
}

/** Where the order goes, in one line: name, street, city - UF, CEP. */
function addressLine(d: MessageData): string | undefined {
  const a = d.order?.lines?.shipping_address;
  if (!a?.address_1) return undefined;
  const city = [a.city, a.province].filter(Boolean).join(" - ");
  return [a.name, a.address_1, a.address_2, city, a.postal_code ? `CEP ${a.postal_code}` : ""]
    .filter(Boolean)
    .join(", ");
}

/** The order's list and its address, for every e-mail about an order. */
function orderSummary(d: MessageData): Block[] {
  const rows = orderRows(d);
  const address = addressLine(d);
  return [
    ...(rows.length ? [{ rows } as const] : []),
    ...(address ? [{ p: `Entrega em: ${address}` }] : []),
  ];
}

/** One paragraph, or a line of the text part. */
type Block =
  | { p: string }
  | { rows: Row[] }
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

/**
 * What an order just received says of its payment, from Medusa's order: "Pago" only when
 * Medusa's order is paid; a charge paid that Medusa has not recorded yet is "recebido"; an
 * awaiting Pix or boleto says how to pay, with its code.
 */
function receivedPayment(d: MessageData, pixCode: Block[], boletoLine: Block[]): Block[] {
  const payment = d.order?.payment;
  if (payment === "paid") return [{ p: "Pagamento: Pago." }];
  if (payment === "canceled") return [{ p: "Este pedido foi cancelado." }];
  if (d.paid_at) {
    return [
      {
        p: "Pagamento: recebido, em confirmação. Você recebe outro e-mail assim que o pedido estiver pago.",
      },
    ];
  }
  if (d.method === "boleto" && boletoLine.length) {
    const due = d.boleto?.due_date ? `, com vencimento em ${day(d.boleto.due_date)}` : "";
    return [
      {
        p: `Pagamento: aguardando o boleto de ${d.amount ?? ""}${due}. Pague no app do seu banco com a linha digitável:`,
      },
      ...boletoLine,
    ];
  }
  if (d.method === "pix" && pixCode.length) {
    return [
      {
        p: `Pagamento: aguardando o Pix de ${d.amount ?? ""}. Copie o código e pague no app do seu banco, ou escaneie o QR code de outro aparelho:`,
      },
      ...pixCode,
    ];
  }
  return [{ p: "Pagamento: aguardando." }];
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

/**
 * The order money coming back belongs to, after "Vamos devolver R$ X" and "Devolvemos R$ X":
 * " do seu pedido #4", so a refund e-mail is never about no order in particular; empty when the
 * money's cart never became an order (`noOrder` says that instead).
 */
function ofOrder(d: MessageData): string {
  if (!d.order) return "";
  return d.order.display_id ? ` do seu pedido #${d.order.display_id}` : " do seu pedido";
}

/** Reasons whose "Vamos devolver" words already say no order came of the money. */
const SAYS_NO_ORDER = new Set(["out_of_stock", "cart_not_completed"]);

/**
 * Money of a cart that never became an order, said plainly rather than left out, unless the
 * message's words said it already (`said`: a replaced code's say when the order is made, a cart
 * that could not be completed says so).
 */
function noOrder(d: MessageData, said: boolean): string {
  return d.order || said ? "" : "Este pagamento não faz parte de nenhum pedido.";
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
              ...orderSummary(d),
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
              ...orderSummary(d),
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
          // Part of it comes back: said beside what arrived, so the figures add up to the total.
          ...(d.refund?.amount ? [{ p: whyBack(d.refund.reason, d.refund.amount, d) }] : []),
          ...orderSummary(d),
          ...backToPage,
        ],
      };
    case "pix-checkout-order-received":
      return {
        subject: `Recebemos seu pedido${order}`,
        blocks: [
          { p: `Obrigado pela compra! Recebemos seu pedido${order}.` },
          ...orderSummary(d),
          ...receivedPayment(d, pixCode, boletoLine),
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
        subject: `Vamos devolver ${back}${ofOrder(d)}`,
        blocks: [
          {
            p: [
              whyBack(d.refund?.reason, back, d),
              state,
              noOrder(d, replaced || !d.refund?.reason || SAYS_NO_ORDER.has(d.refund.reason)),
            ]
              .filter(Boolean)
              .join(" "),
          },
          // The replaced code's page points to the code that still pays the order.
          ...(replaced && d.order?.payment !== "paid" ? backToPage : []),
        ],
      };
    }
    case "pix-checkout-refunded": {
      const back = d.refund?.amount ?? amount;
      const replaced = REPLACED_CODE.has(d.refund?.reason ?? "");
      return {
        subject: `Devolvemos ${back}${ofOrder(d)}`,
        blocks: [
          {
            p: [
              `Devolvemos ${back}${refundedAbout(d.refund?.reason, d)}.`,
              replaced ? orderState(d, true) : "",
              noOrder(d, replaced),
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
  if ("rows" in block)
    return `<table role="presentation" style="width:100%;border-collapse:collapse;margin:0 0 16px">${block.rows
      .map(
        (row) =>
          `<tr${row.strong ? ' style="font-weight:700;border-top:1px solid #d5dae1"' : ""}><td style="padding:4px 8px 4px 0">${escape(row.label)}</td><td style="padding:4px 0;text-align:right;white-space:nowrap">${escape(row.amount)}</td></tr>`,
      )
      .join("")}</table>`;
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
  if ("rows" in block) return block.rows.map((row) => `${row.label}: ${row.amount}`).join("\n");
  if ("small" in block) return block.small;
  if ("qr" in block) return "(O QR code está na versão HTML deste e-mail.)";
  if ("code" in block) return `${block.label}:\n${block.code}`;
  return `${block.label}: ${block.link}`;
}
