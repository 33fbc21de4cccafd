import { brl } from "../platform/brl";
import { SAO_PAULO } from "../platform/sao-paulo-time";
import type { HealthAction, HealthLine, HealthState } from "./health";

/** The languages an alert is written in (the merchant's `alerts.locale`). */
export type AlertLocale = "pt-BR" | "en";

/** Why an alert is sent: the line changed state, or it is still bad a day later. */
export type AlertKind = "changed" | "reminder";

/** What an alert says about one line. */
export interface AlertFacts {
  line: HealthLine;
  /** The state the merchant was last told of (null: never told). */
  previousState: HealthState | null;
  kind: AlertKind;
  /** When the line took its current state (database clock). */
  since: Date;
}

/** The rendered alert, for providers that take content and for the event. */
export interface AlertMessage {
  subject: string;
  text: string;
  html: string;
  /** The line's name, the reason and what to do, each one sentence in the merchant's language. */
  title: string;
  reason: string | null;
  todo: string | null;
}

interface Texts {
  state: Record<HealthState, string>;
  line: Record<string, string>;
  reason: Record<string, string>;
  action: Record<HealthAction, string>;
  subject: { changed: string; reminder: string; recovered: string };
  since: string;
  recoveredSince: string;
  was: string;
  todo: string;
  open: string;
  footer: string;
  zone: string;
  /** What a charge's line is about: its order, else the charge. */
  order: string;
  charge: string;
}

// The same words the admin's health card uses (src/admin/i18n), so the e-mail and the card agree.
const TEXTS: Record<AlertLocale, Texts> = {
  "pt-BR": {
    state: { ok: "OK", warning: "Atenção", broken: "Com problema" },
    line: {
      service: "Serviço de pagamento ({provider})",
      variant: "Variante da API ({provider})",
      webhooks: "Avisos de pagamento (webhooks)",
      checks: "Cobranças esperando verificação",
      captures: "Cobranças pagas esperando captura",
      carts: "Carrinhos pagos esperando virar pedido",
      attention: "Precisa de atenção",
      med: "Pix contestados (MED)",
      create_budget: "Limite de criação ({provider})",
      region: "Ativo numa região em BRL ({provider})",
      refund_deadline: "Prazo de devolução do Pix",
      redis: "Redis da loja",
    },
    reason: {
      key_refused: "O serviço recusou a chave ({code}).",
      unreachable: "O serviço não respondeu ({code}).",
      service_error: "O serviço falhou ({code}).",
      busy: "O serviço está limitando as requisições ({code}).",
      variant_mismatch: "O serviço responde no formato da outra variante.",
      found_by_reconciliation:
        "Os pagamentos estão sendo encontrados pela conciliação, e não por webhooks ({reconciled} contra {webhook}).",
      no_deliveries: "Houve cobranças pagas hoje e nenhum webhook chegou.",
      slow: "Os webhooks estão chegando devagar.",
      checks_overdue: "A conciliação está atrasada.",
      capture_handed_to_merchant: "Uma captura falhou repetidas vezes e espera por você.",
      capture_late: "Uma cobrança paga ainda não foi capturada.",
      cart_not_completed: "Um carrinho pago ainda não virou pedido.",
      needs_attention:
        "Há dinheiro ou pedidos esperando uma decisão sua ({total}): {held} retido(s), {refund_due} devolução(ões) devida(s), {no_order} sem pedido, {not_captured} sem captura, {note} aviso(s), {no_code} pedido(s) sem código de pagamento.",
      budget_spent: "As criações do minuto acabaram; novos compradores esperam pelo código.",
      line_stuck: "Há criações esperando na fila há minutos.",
      not_on_brl_region:
        "{provider_id} não está ativo em nenhuma região em BRL ({brl_regions}): o checkout não consegue criar a sessão de pagamento.",
      no_brl_region: "A loja não tem nenhuma região com a moeda BRL.",
      med_deadline_near:
        "O prazo de {near} MED(s) em bloqueio cautelar termina em até 2 dias úteis (o mais próximo: {nearest_deadline}, protocolo {nearest_protocol}).",
      med_deadline_past:
        "O prazo de {past} MED(s) em bloqueio cautelar já passou (o mais antigo: {nearest_deadline}, protocolo {nearest_protocol}).",
      refund_deadline_near:
        "{total} devolução(ões) do Pix com 15 dias ou menos do prazo de 90 dias; a mais próxima: {amount} até {deadline}.",
      refund_deadline_critical:
        "{critical} devolução(ões) do Pix com 5 dias ou menos do prazo de 90 dias; a mais próxima: {amount} até {deadline}.",
      refund_deadline_past:
        "O prazo de 90 dias do Pix acabou para {past} devolução(ões): elas não podem mais ser feitas pelo Pix.",
      refund_deadline_charge:
        "{amount} a devolver ao cliente ({order}): faltam {days} dia(s) do prazo do Pix (até {deadline}).",
      refund_deadline_charge_past:
        "{amount} a devolver ao cliente ({order}): o prazo do Pix acabou em {deadline}.",
      redis_unreachable:
        "O Redis da loja não respondeu: eventos, travas e fluxos do Medusa esperam por ele.",
      redis_failover: "A conexão com o Redis caiu e voltou (failover ou reinício) em {at}.",
    },
    action: {
      check_api_key:
        "Verifique a apiKey do provedor no medusa-config: uma chave secreta ativa (sk_live_…) desta conta.",
      check_base_url: "Verifique a baseUrl do provedor no medusa-config e se o serviço está no ar.",
      check_variant: "Ajuste a variant do provedor no medusa-config para a que o serviço usa.",
      wait_for_service: "Costuma passar sozinho; se continuar, fale com o serviço de pagamento.",
      check_webhook_url:
        "Cadastre de novo a URL de webhook no painel do serviço (/hooks/pix-checkout/<id>?token=…) e confira se ela chega a esta loja.",
      check_worker:
        "Confira se uma instância worker roda o job de conciliação (workerMode do Medusa: worker ou shared).",
      check_redis:
        "Confira se o Redis da loja está no ar e se o redisUrl dos módulos do Medusa aponta para ele; depois de um failover, confira se os pedidos e pagamentos da hora seguiram normalmente.",
      see_needs_attention:
        "Veja “Precisa de atenção” no admin: verifique de novo, registre a devolução, resolva, ou envie ao cliente o link de pagamento do pedido.",
      wait_for_cart_retries:
        "O job tenta cada carrinho 5 vezes; depois disso vira devolução devida em “Precisa de atenção”.",
      busy_minute:
        "Nada a fazer num minuto movimentado; se continuar, outro sistema pode usar a mesma conta (diminua createsPerMinute).",
      enable_on_region:
        "No admin, em Configurações → Regiões, edite a região em BRL e adicione o provedor às formas de pagamento (desde o Medusa 2.20, sem isso a sessão falha).",
      add_brl_region:
        "No admin, em Configurações → Regiões, crie uma região com a moeda BRL e adicione nela os provedores do Pix Checkout.",
      record_med_outcome:
        "Pergunte ao serviço de pagamento como terminou a notificação de infração e registre no pedido: Devolvido pelo MED, ou Mantido.",
      refund_before_deadline:
        "Devolva o valor pelo painel do serviço de pagamento (devolução do Pix) antes do prazo e registre a devolução em “Precisa de atenção”.",
      refund_by_transfer:
        "Passado o prazo, o Pix não aceita mais a devolução: peça ao cliente os dados de uma conta, devolva por transferência e registre a devolução em “Precisa de atenção”.",
    },
    subject: {
      changed: "[Pix Checkout] {state}: {line}",
      reminder: "[Pix Checkout] Lembrete: {line} segue “{state}” desde {since}",
      recovered: "[Pix Checkout] Normalizado: {line}",
    },
    since: "Desde {since}.",
    recoveredSince: "Voltou ao normal em {since}.",
    was: "Estava: {state}.",
    todo: "O que fazer",
    open: "Abrir a saúde dos pagamentos no admin",
    footer:
      "Você recebe este aviso porque está nos destinatários de alerts nas opções do plugin Pix Checkout. Um novo aviso chega quando a situação mudar; enquanto continuar, no máximo um lembrete por dia.",
    zone: "horário de Brasília",
    order: "pedido #{number}",
    charge: "cobrança {id}",
  },
  en: {
    state: { ok: "OK", warning: "Warning", broken: "Broken" },
    line: {
      service: "Payment service ({provider})",
      variant: "API variant ({provider})",
      webhooks: "Webhooks received",
      checks: "Charges waiting to be checked",
      captures: "Paid charges waiting to be captured",
      carts: "Paid carts waiting to become orders",
      attention: "Needs attention",
      med: "Contested Pix (MED)",
      create_budget: "Create budget ({provider})",
      region: "Enabled on a BRL region ({provider})",
      refund_deadline: "Pix refund deadline",
      redis: "Store's Redis",
    },
    reason: {
      key_refused: "The service refused the key ({code}).",
      unreachable: "No answer from the service ({code}).",
      service_error: "The service failed ({code}).",
      busy: "The service is limiting requests ({code}).",
      variant_mismatch: "The service answers in the other variant's shape.",
      found_by_reconciliation:
        "Payments are being found by reconciliation instead of webhooks ({reconciled} against {webhook}).",
      no_deliveries: "Charges were paid today and no webhook arrived.",
      slow: "Webhooks arrive slowly.",
      checks_overdue: "Reconciliation is behind.",
      capture_handed_to_merchant: "A capture kept failing and waits for you.",
      capture_late: "A paid charge is not captured yet.",
      cart_not_completed: "A paid cart could not become an order yet.",
      needs_attention:
        "Money or orders wait for your decision ({total}): {held} held, {refund_due} refund(s) due, {no_order} without an order, {not_captured} not captured, {note} note(s), {no_code} order(s) without a payment code.",
      budget_spent: "The minute's creates are spent; new shoppers wait for their code.",
      line_stuck: "Creates have waited in line for minutes.",
      not_on_brl_region:
        "{provider_id} is enabled on no BRL region ({brl_regions}): checkout cannot create its payment session.",
      no_brl_region: "The store has no region in BRL.",
      med_deadline_near:
        "The deadline of {near} MED(s) under a precautionary block ends within 2 business days (the nearest: {nearest_deadline}, protocol {nearest_protocol}).",
      med_deadline_past:
        "The deadline of {past} MED(s) under a precautionary block has passed (the oldest: {nearest_deadline}, protocol {nearest_protocol}).",
      refund_deadline_near:
        "{total} Pix refund(s) 15 days or fewer from the 90-day deadline; the nearest: {amount} by {deadline}.",
      refund_deadline_critical:
        "{critical} Pix refund(s) 5 days or fewer from the 90-day deadline; the nearest: {amount} by {deadline}.",
      refund_deadline_past:
        "The 90-day Pix deadline has passed for {past} refund(s): they can no longer be made through Pix.",
      refund_deadline_charge:
        "{amount} to refund to the customer ({order}): {days} day(s) left of the Pix deadline (until {deadline}).",
      refund_deadline_charge_past:
        "{amount} to refund to the customer ({order}): the Pix deadline ended on {deadline}.",
      redis_unreachable:
        "The store's Redis did not answer: Medusa's events, locks and workflows wait on it.",
      redis_failover:
        "The connection to Redis was lost and made again (a failover or restart) at {at}.",
    },
    action: {
      check_api_key:
        "Check the provider's apiKey in medusa-config: an active secret key (sk_live_…) of this account.",
      check_base_url: "Check the provider's baseUrl in medusa-config and that the service is up.",
      check_variant: "Set the provider's variant in medusa-config to the one the service speaks.",
      wait_for_service: "Usually passes on its own; if it lasts, ask the payment service.",
      check_webhook_url:
        "Register the webhook URL in the service's dashboard again (/hooks/pix-checkout/<id>?token=…) and check that it reaches this store.",
      check_worker:
        "Check that a worker instance runs the reconciliation job (Medusa's workerMode: worker or shared).",
      check_redis:
        "Check that the store's Redis is up and that the redisUrl of Medusa's modules points to it; after a failover, check that the hour's orders and payments went through.",
      see_needs_attention:
        "See “Needs attention” in the admin: re-check, record a refund, resolve, or send the customer the order's payment link.",
      wait_for_cart_retries:
        "The job retries each cart 5 times; after that it becomes a refund due in “Needs attention”.",
      busy_minute:
        "Nothing to do in a busy minute; if it lasts, another system may share the account (lower createsPerMinute).",
      enable_on_region:
        "In the admin, Settings → Regions, edit the BRL region and add the provider to its payment providers (since Medusa 2.20 the session fails without it).",
      add_brl_region:
        "In the admin, Settings → Regions, create a region in BRL and add the Pix Checkout providers to it.",
      record_med_outcome:
        "Ask the payment service how the infraction notice ended and record it on the order: Returned by the MED, or Kept.",
      refund_before_deadline:
        "Refund it in the payment service's dashboard (Pix devolução) before the deadline and record the refund in “Needs attention”.",
      refund_by_transfer:
        "Past the deadline Pix no longer takes the devolução: ask the customer for an account, return the money by bank transfer and record the refund in “Needs attention”.",
    },
    subject: {
      changed: "[Pix Checkout] {state}: {line}",
      reminder: "[Pix Checkout] Reminder: {line} still “{state}” since {since}",
      recovered: "[Pix Checkout] Recovered: {line}",
    },
    since: "Since {since}.",
    recoveredSince: "Back to normal at {since}.",
    was: "It was: {state}.",
    todo: "What to do",
    open: "Open payment health in the admin",
    footer:
      "You get this alert because you are among the alerts recipients in the Pix Checkout plugin's options. Another one comes when this changes; while it lasts, at most one reminder a day.",
    zone: "São Paulo time",
    order: "order #{number}",
    charge: "charge {id}",
  },
};

const COLORS: Record<HealthState, string> = {
  ok: "#1f7a3a",
  warning: "#a15c00",
  broken: "#b42318",
};

const fill = (template: string, values: Record<string, unknown>): string =>
  template.replace(/\{(\w+)\}/g, (whole, key: string) =>
    values[key] === undefined || values[key] === null ? whole : String(values[key]),
  );

const escapeHtml = (text: string): string =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );

/** A moment as the merchant reads it: São Paulo's clock, in their language. */
export function formatWhen(at: Date, locale: AlertLocale): string {
  const formatted = new Intl.DateTimeFormat(locale === "en" ? "en-GB" : "pt-BR", {
    timeZone: SAO_PAULO,
    day: "2-digit",
    month: "2-digit",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).format(at);
  return `${formatted} (${TEXTS[locale].zone})`;
}

/** The line's name: `service:a` reads "Serviço de pagamento (a)". */
export function lineTitle(id: string, locale: AlertLocale): string {
  const [kind = id, provider] = id.split(":");
  return fill(TEXTS[locale].line[kind] ?? id, { provider });
}

/** `YYYY-MM-DD` as `DD/MM/AAAA` (both languages: the merchant's books write days so). */
const dayText = (day: unknown): string | undefined => {
  if (typeof day !== "string") return undefined;
  const [year, month, date] = day.split("-");
  return `${date}/${month}/${year}`;
};

/**
 * The figures of the devolução clock's lines (health.ts `refundDeadlineLine`,
 * refund-deadline-alerts.ts): the amount in reais, the order, the days left and the deadline.
 */
function deadlineValues(detail: Record<string, unknown>, locale: AlertLocale) {
  const t = TEXTS[locale];
  const nearest = (detail.nearest ?? null) as Record<string, unknown> | null;
  const cents = typeof detail.owed_cents === "number" ? detail.owed_cents : nearest?.owed_cents;
  const order =
    typeof detail.order_display_id === "number"
      ? fill(t.order, { number: detail.order_display_id })
      : typeof detail.charge_id === "string"
        ? fill(t.charge, { id: detail.charge_id })
        : undefined;
  return {
    amount: typeof cents === "number" ? brl(cents, locale) : undefined,
    order,
    days: detail.days_left,
    deadline: dayText(detail.deadline ?? nearest?.deadline),
    critical: detail.critical,
    past: detail.past,
  };
}

/** Renders one alert in the merchant's language, as a subject, plain text and HTML. */
export function renderAlert(
  facts: AlertFacts,
  locale: AlertLocale,
  adminUrl?: string,
): AlertMessage {
  const t = TEXTS[locale];
  const { line } = facts;
  const detail = line.detail as Record<string, unknown>;
  const deadline = deadlineValues(detail, locale);
  // A charge's devolução clock names its order (or the charge) in the title, so each subject differs.
  const title =
    line.id.includes(":") && line.id.startsWith("refund_deadline:")
      ? `${lineTitle("refund_deadline", locale)} (${deadline.order})`
      : lineTitle(line.id, locale);
  const since = formatWhen(facts.since, locale);
  const recovered = line.state === "ok";
  const subject = fill(
    recovered
      ? t.subject.recovered
      : facts.kind === "reminder"
        ? t.subject.reminder
        : t.subject.changed,
    { state: t.state[line.state], line: title, since },
  );
  const reasonKey = typeof detail.reason === "string" ? detail.reason : undefined;
  const reason =
    reasonKey && t.reason[reasonKey]
      ? fill(t.reason[reasonKey], {
          code: detail.code,
          reconciled: detail.paid_by_reconciliation,
          webhook: detail.paid_by_webhook,
          total: detail.total,
          held: detail.held,
          refund_due: detail.refund_due,
          no_order: detail.no_order,
          not_captured: detail.not_captured,
          note: detail.note,
          no_code: detail.no_code ?? 0,
          near: detail.near,
          nearest_deadline: detail.nearest_deadline,
          nearest_protocol: detail.nearest_protocol,
          ...deadline,
          provider_id: detail.provider_id,
          at:
            typeof detail.failover_at === "string"
              ? formatWhen(new Date(detail.failover_at), locale)
              : undefined,
          brl_regions: Array.isArray(detail.brl_regions)
            ? (detail.brl_regions as string[]).join(", ")
            : undefined,
        })
      : null;
  const todo = line.action ? t.action[line.action] : null;
  const when = fill(recovered ? t.recoveredSince : t.since, { since });
  const was =
    recovered && facts.previousState ? fill(t.was, { state: t.state[facts.previousState] }) : null;

  const text = [
    `${t.state[line.state]}: ${title}`,
    "",
    when,
    ...(was ? [was] : []),
    ...(reason ? [reason] : []),
    ...(todo ? ["", `${t.todo}: ${todo}`] : []),
    ...(adminUrl ? ["", `${t.open}: ${adminUrl}`] : []),
    "",
    "--",
    t.footer,
  ].join("\n");

  const color = COLORS[line.state];
  const paragraph = (body: string) =>
    `<p style="margin:0 0 12px;font-size:15px;line-height:1.5;color:#1d2433">${escapeHtml(body)}</p>`;
  const html = `<!doctype html>
<html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:24px 12px;background:#f3f4f6;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif">
<table role="presentation" width="100%" cellspacing="0" cellpadding="0" style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;border-top:6px solid ${color}">
<tr><td style="padding:24px">
<p style="margin:0 0 4px;font-size:13px;letter-spacing:.04em;text-transform:uppercase;color:${color};font-weight:600">${escapeHtml(t.state[line.state])}</p>
<h1 style="margin:0 0 16px;font-size:20px;line-height:1.3;color:#111827">${escapeHtml(title)}</h1>
${paragraph(when)}${was ? paragraph(was) : ""}${reason ? paragraph(reason) : ""}${
    todo
      ? `<div style="margin:16px 0;padding:12px 16px;background:#f9fafb;border-left:4px solid ${color};border-radius:4px"><p style="margin:0 0 4px;font-size:13px;font-weight:600;color:#374151">${escapeHtml(t.todo)}</p><p style="margin:0;font-size:15px;line-height:1.5;color:#1d2433">${escapeHtml(todo)}</p></div>`
      : ""
  }${
    adminUrl
      ? `<p style="margin:20px 0 0"><a href="${escapeHtml(adminUrl)}" style="display:inline-block;padding:10px 16px;background:#111827;color:#ffffff;text-decoration:none;border-radius:6px;font-size:14px">${escapeHtml(t.open)}</a></p>`
      : ""
  }
</td></tr>
<tr><td style="padding:16px 24px;border-top:1px solid #e5e7eb;font-size:12px;line-height:1.5;color:#6b7280">${escapeHtml(t.footer)}</td></tr>
</table>
</body></html>`;
  return { subject, text, html, title, reason, todo };
}
