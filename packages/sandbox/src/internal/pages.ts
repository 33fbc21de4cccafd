import type { IncomingMessage, ServerResponse } from "node:http";
import { ApiError, toApiError } from "./api-error.js";
import { findCharge, qrCodeOf } from "./charges.js";
import type { SandboxContext } from "./context.js";
import { escapeHtml, page } from "./html.js";
import { sendError, sendHtml } from "./http.js";
import { centsToDecimalString } from "./money.js";
import type { ChargeRecord } from "./records.js";
import { boletoUrl } from "./views.js";

/** Cents as a Brazilian shopper reads them, `R$ 1.234,56`, without float arithmetic. */
function brl(cents: number): string {
  const [whole = "0", fraction = "00"] = centsToDecimalString(cents).split(".");
  return `R$ ${whole.replace(/\B(?=(\d{3})+$)/g, ".")},${fraction}`;
}
const iso = (ms: number): string => new Date(ms).toISOString();

// The only script on the pages: POST to a control route, then reload to show the new state.
const ACTION_SCRIPT = `<script>
document.addEventListener("click", async (event) => {
  const button = event.target.closest("button[data-action]");
  if (!button) return;
  button.disabled = true;
  const response = await fetch(button.dataset.action, { method: "POST" });
  if (!response.ok) alert((await response.json()).error.message);
  location.reload();
});
</script>`;

function publicId(ctx: SandboxContext, charge: ChargeRecord): string {
  return ctx.variant === "a" ? charge.uuid : charge.id;
}

const ACTIONS = ["pay", "expire", "fail"] as const;

/** The control buttons' labels: the developer's page in English, the shopper's in Portuguese. */
const ACTION_LABELS = {
  en: { pay: "Pay", expire: "Expire", fail: "Fail" },
  "pt-BR": { pay: "Simular pagamento", expire: "Simular vencimento", fail: "Simular falha" },
} as const;

function actions(
  ctx: SandboxContext,
  charge: ChargeRecord,
  lang: keyof typeof ACTION_LABELS = "en",
): string {
  if (charge.status !== "pending") return "";
  const id = encodeURIComponent(publicId(ctx, charge));
  return ACTIONS.map(
    (action) =>
      `<button type="button" data-action="/__sandbox/charges/${id}/${action}">${ACTION_LABELS[lang][action]}</button>`,
  ).join("");
}

/** A charge's status as the shopper's pages say it. */
function statusWords(charge: ChargeRecord): string {
  switch (charge.status) {
    case "pending":
      return "aguardando pagamento";
    case "paid":
      return "pago";
    case "expired":
      return charge.method === "boleto" ? "vencido" : "expirado";
    case "failed":
      return "falhou";
  }
}

const saoPaulo = (options: Intl.DateTimeFormatOptions) =>
  new Intl.DateTimeFormat("pt-BR", { timeZone: "America/Sao_Paulo", ...options });
/** A boleto's due date, the São Paulo calendar day its barcode's factor encodes. */
const dueDay = saoPaulo({ day: "2-digit", month: "2-digit", year: "numeric" });
/** When a Pix expires, to the minute, in São Paulo. */
const expiresAt = saoPaulo({ dateStyle: "short", timeStyle: "short" });

function homePage(ctx: SandboxContext): string {
  const rows = ctx.state
    .chargesNewestFirst()
    .map((charge) => {
      const id = publicId(ctx, charge);
      const link =
        charge.method === "boleto" ? boletoUrl(ctx, charge) : `/pay/${encodeURIComponent(id)}`;
      return `<tr>
<td data-label="Id" class="mono"><a href="${escapeHtml(link)}">${escapeHtml(id)}</a></td>
<td data-label="Description">${escapeHtml(charge.description ?? "—")}</td>
<td data-label="Amount" class="amount">${escapeHtml(brl(charge.amount))} <small class="note">${escapeHtml(charge.method)}</small></td>
<td data-label="Status" class="status-${escapeHtml(charge.status)}">${escapeHtml(charge.status)}</td>
<td data-label="Created" class="mono">${escapeHtml(iso(charge.createdAt))}</td>
<td data-label="Expires" class="mono">${escapeHtml(iso(charge.expiresAt))}</td>
<td class="actions">${actions(ctx, charge)}</td>
</tr>`;
    })
    .join("\n");
  const withdrawals = ctx.state
    .withdrawalsNewestFirst()
    .map((withdrawal) => {
      const id = ctx.variant === "a" ? withdrawal.uuid : withdrawal.id;
      const buttons =
        withdrawal.status === "processing"
          ? ["complete", "fail"]
              .map(
                (action) =>
                  `<button type="button" data-action="/__sandbox/withdrawals/${encodeURIComponent(id)}/${action}">${action[0]?.toUpperCase()}${action.slice(1)}</button>`,
              )
              .join("")
          : "";
      return `<tr>
<td data-label="Id" class="mono">${escapeHtml(id)}</td>
<td data-label="Amount">${escapeHtml(brl(withdrawal.amount))}</td>
<td data-label="Status">${escapeHtml(withdrawal.status)}</td>
<td data-label="Pix key">${escapeHtml(withdrawal.pixKey ?? "")}</td>
<td data-label="Created" class="mono">${escapeHtml(iso(withdrawal.createdAt))}</td>
<td class="actions">${buttons}</td>
</tr>`;
    })
    .join("\n");
  const deliveries = [...ctx.webhooks.log]
    .reverse()
    .slice(0, 100)
    .map(
      (entry) => `<tr>
<td data-label="At" class="mono">${escapeHtml(entry.delivered_at)}</td>
<td data-label="Event">${escapeHtml(entry.event)}</td>
<td data-label="URL" class="mono">${escapeHtml(maskToken(entry.url))}</td>
<td data-label="Attempt">${escapeHtml(entry.attempt)}</td>
<td data-label="Status">${escapeHtml(entry.status_code ?? "—")}</td>
<td data-label="Result">${escapeHtml(entry.error ?? "ok")}</td>
</tr>`,
    )
    .join("\n");
  return page(
    "Pix sandbox",
    `<h1>Pix sandbox <small class="note">variant ${escapeHtml(ctx.variant.toUpperCase())}</small></h1>
<p class="note">API base URL <code>${escapeHtml(ctx.origin)}/v1</code>. Sandbox time ${escapeHtml(iso(ctx.clock.now()))}. Webhook targets: ${
      ctx.webhooks.urls.length === 0
        ? "none"
        : ctx.webhooks.urls.map((url) => `<code>${escapeHtml(maskToken(url))}</code>`).join(", ")
    }.</p>
<h2>Charges</h2>
<table class="cards"><thead><tr><th>Id</th><th>Description</th><th>Amount</th><th>Status</th><th>Created</th><th>Expires</th><th></th></tr></thead>
<tbody>
${rows || '<tr><td colspan="7" class="note">No charges yet.</td></tr>'}
</tbody></table>
<h2>Withdrawals</h2>
<table class="cards"><thead><tr><th>Id</th><th>Amount</th><th>Status</th><th>Pix key</th><th>Created</th><th></th></tr></thead>
<tbody>
${withdrawals || '<tr><td colspan="6" class="note">No withdrawals yet.</td></tr>'}
</tbody></table>
<h2>Webhook deliveries <small class="note">(newest first, last 100)</small></h2>
<table class="cards"><thead><tr><th>At</th><th>Event</th><th>URL</th><th>Attempt</th><th>Status</th><th>Result</th></tr></thead>
<tbody>
${deliveries || '<tr><td colspan="6" class="note">No deliveries yet.</td></tr>'}
</tbody></table>
${ACTION_SCRIPT}`,
  );
}

async function payPage(ctx: SandboxContext, charge: ChargeRecord): Promise<string> {
  if (charge.method !== "pix") {
    return page(
      "Boleto",
      `<p>Esta cobrança é um boleto: <a href="${escapeHtml(boletoUrl(ctx, charge))}">abrir o boleto</a>.</p>`,
      "pt-BR",
    );
  }
  const qr = await qrCodeOf(ctx, charge);
  return page(
    `Pagar ${brl(charge.amount)}`,
    `<h1>Pagar ${escapeHtml(brl(charge.amount))} com Pix <small class="note">(sandbox)</small></h1>
<p>${escapeHtml(charge.description ?? "")}</p>
<p>Situação: <strong class="status-${escapeHtml(charge.status)}">${escapeHtml(statusWords(charge))}</strong> · expira em ${escapeHtml(expiresAt.format(new Date(charge.expiresAt)))}</p>
<img alt="QR code do Pix" width="240" height="240" src="data:image/png;base64,${escapeHtml(qr)}">
<p>Pix Copia e Cola:</p>
<p class="mono">${escapeHtml(charge.pixCopyPaste ?? "")}</p>
<p class="no-print">${actions(ctx, charge, "pt-BR") || "Esta cobrança já terminou."}</p>
${ACTION_SCRIPT}`,
    "pt-BR",
  );
}

/** A digitable line in its printed groups: `00190.00009 01234.567890 …`. */
function groupedLine(line: string): string {
  return `${line.slice(0, 5)}.${line.slice(5, 10)} ${line.slice(10, 15)}.${line.slice(15, 21)} ${line.slice(21, 26)}.${line.slice(26, 32)} ${line.slice(32, 33)} ${line.slice(33)}`;
}

/**
 * A CPF or CNPJ as a bank prints it (`529.982.247-25`, `12.ABC.345/01DE-35`), whatever the
 * payer sent (the plugin sends digits); anything else as it came.
 */
function printedDocument(document: string): string {
  const bare = document.replace(/[.\-/\s]/g, "").toUpperCase();
  if (/^\d{11}$/.test(bare)) {
    return `${bare.slice(0, 3)}.${bare.slice(3, 6)}.${bare.slice(6, 9)}-${bare.slice(9)}`;
  }
  if (/^[0-9A-Z]{12}\d{2}$/.test(bare)) {
    return `${bare.slice(0, 2)}.${bare.slice(2, 5)}.${bare.slice(5, 8)}/${bare.slice(8, 12)}-${bare.slice(12)}`;
  }
  return document;
}

/** A CEP as it is written, `01310-100`; anything else as it came. */
function printedCep(cep: string): string {
  const digits = cep.replace(/\D/g, "");
  return digits.length === 8 ? `${digits.slice(0, 5)}-${digits.slice(5)}` : cep;
}

// The page behind the checkout's "Ver boleto": a shopper opens it, often on a phone, so it is in
// Portuguese and as wide as the screen (the barcode scales down; the line wraps between groups).
function boletoPage(ctx: SandboxContext, charge: ChargeRecord): string {
  if (charge.method !== "boleto")
    throw new ApiError(404, "charge_not_found", "No boleto has this id.");
  const customer = charge.customer ?? {};
  const address = charge.billingAddress;
  const payer = [customer.name, customer.document && printedDocument(customer.document)]
    .filter(Boolean)
    .join(" · ");
  return page(
    `Boleto ${brl(charge.amount)}`,
    `<h1>Boleto <small class="note">(sandbox: não pode ser pago em banco)</small></h1>
<p class="note">Linha digitável</p>
<p class="mono line">${escapeHtml(groupedLine(charge.digitableLine ?? ""))}</p>
<table>
<tr><th>Valor</th><td>${escapeHtml(brl(charge.amount))}</td></tr>
<tr><th>Vencimento</th><td>${escapeHtml(dueDay.format(new Date(charge.expiresAt)))}</td></tr>
<tr><th>Situação</th><td class="status-${escapeHtml(charge.status)}">${escapeHtml(statusWords(charge))}</td></tr>
<tr><th>Beneficiário</th><td>PIX CHECKOUT SANDBOX</td></tr>
<tr><th>Pagador</th><td>${escapeHtml(payer)}</td></tr>
<tr><th>Endereço</th><td>${address ? escapeHtml(`${address.street}, ${address.number}${address.complement ? ` ${address.complement}` : ""} · ${address.neighborhood} · ${address.city}/${address.state} · CEP ${printedCep(address.zip)}`) : ""}</td></tr>
<tr><th>Código de barras</th><td class="mono">${escapeHtml(charge.barcode ?? "")}</td></tr>
</table>
${itfSvg(charge.barcode ?? "")}
<p class="no-print"><button type="button" onclick="print()">Imprimir</button> ${actions(ctx, charge, "pt-BR")}</p>
${ACTION_SCRIPT}`,
    "pt-BR",
  );
}

/** The barcode drawn as Interleaved 2 of 5, the symbology FEBRABAN uses for boletos. */
function itfSvg(digits: string): string {
  if (!/^\d+$/.test(digits) || digits.length % 2 !== 0) return "";
  const patterns = [
    "nnwwn",
    "wnnnw",
    "nwnnw",
    "wwnnn",
    "nnwnw",
    "wnwnn",
    "nwwnn",
    "nnnww",
    "wnnwn",
    "nwnwn",
  ];
  const narrow = 1;
  const wide = 3;
  const widths: number[] = [narrow, narrow, narrow, narrow];
  for (let i = 0; i < digits.length; i += 2) {
    const bars = patterns[Number(digits[i])] as string;
    const spaces = patterns[Number(digits[i + 1])] as string;
    for (let j = 0; j < 5; j++)
      widths.push(bars[j] === "w" ? wide : narrow, spaces[j] === "w" ? wide : narrow);
  }
  widths.push(wide, narrow, narrow);
  let x = 10;
  let rects = "";
  widths.forEach((width, index) => {
    if (index % 2 === 0) rects += `<rect x="${x}" y="0" width="${width}" height="50"/>`;
    x += width;
  });
  return `<svg class="barcode" role="img" aria-label="Código de barras do boleto" xmlns="http://www.w3.org/2000/svg" width="${(x + 10) * 1.5}" height="75" viewBox="0 0 ${x + 10} 50">${rects}</svg>`;
}

/**
 * A webhook URL as the page shows it: a `token` query parameter (the store's webhook secret)
 * keeps only its last four characters, since the page is for anyone on the machine.
 */
export function maskToken(url: string): string {
  return url.replace(/([?&]token=)([^&#]*)/gi, (_m, key: string, value: string) =>
    value.length <= 4 ? `${key}••••` : `${key}••••${value.slice(-4)}`,
  );
}

/** Human pages: `/` (charges and webhook log), `/pay/:id`, `/boleto/:id`. */
export async function handlePage(
  ctx: SandboxContext,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
): Promise<void> {
  const rate = ctx.limiter.peek(undefined, "createCharge");
  try {
    if (req.method !== "GET") {
      throw new ApiError(405, "method_not_allowed", "Pages answer only GET.", {
        headers: { allow: "GET" },
      });
    }
    if (path === "/") return sendHtml(res, 200, homePage(ctx), rate);
    const [, kind, rawId, extra] = path.split("/");
    if (rawId && extra === undefined && (kind === "pay" || kind === "boleto")) {
      let id: string;
      try {
        id = decodeURIComponent(rawId);
      } catch {
        throw new ApiError(404, "charge_not_found", "No charge has this id.");
      }
      const charge = findCharge(ctx, id);
      return sendHtml(
        res,
        200,
        kind === "pay" ? await payPage(ctx, charge) : boletoPage(ctx, charge),
        rate,
      );
    }
    throw new ApiError(404, "not_found", `There is no page ${path}. The API lives under /v1.`);
  } catch (error) {
    sendError(res, toApiError(error), rate);
  }
}
