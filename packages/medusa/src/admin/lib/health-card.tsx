/// <reference lib="dom" />
// "Saúde dos pagamentos": whether payments are flowing, one line per thing that can break,
// each with its state and, when it is not ok, what the merchant does about it.
import { Badge, Button, Container, Heading, Text } from "@medusajs/ui";
import { useState } from "react";
import { useHealth } from "./api";
import { usePixTranslation, type PixT } from "./i18n";
import type { AdminHealthLine } from "./types";
import { formatCents } from "./format";
import { deadlineDate } from "./refund-deadline-words";

const COLOR = { ok: "green", warning: "orange", broken: "red" } as const;

/** A duration in ms as the card writes it: "850 ms", "12 s", "3 min". */
function duration(ms: unknown): string | null {
  if (typeof ms !== "number") return null;
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  if (ms < 120_000) return `${Math.round(ms / 1_000)} s`;
  return `${Math.round(ms / 60_000)} min`;
}

/** The line's figures in a sentence of the admin's language. */
function valueText(
  line: AdminHealthLine,
  t: PixT,
  instant: (value: string | null | undefined) => string,
): string {
  const d = line.detail;
  const at = (key: string) => instant(typeof d[key] === "string" ? (d[key] as string) : null);
  const [kind] = line.id.split(":");
  switch (kind) {
    case "service":
      return line.state === "ok"
        ? t("health.value.serviceOk", { ms: d.latency_ms, at: at("checked_at") })
        : "";
    case "variant":
      return t("health.value.variant", { variant: String(d.configured ?? "").toUpperCase() });
    case "webhooks":
      return d.last_received_at
        ? t("health.value.webhooks", {
            at: at("last_received_at"),
            p95: duration(d.p95_ms) ?? t("health.value.noDelay"),
          })
        : t("health.value.webhooksNone");
    case "checks":
      return Number(d.overdue) > 0
        ? t("health.value.checks", { count: d.overdue, at: at("oldest_due_at") })
        : t("health.value.checksNone");
    case "captures":
      return Number(d.waiting) > 0
        ? t("health.value.captures", { count: d.waiting, at: at("oldest_paid_at") })
        : t("health.value.capturesNone");
    case "carts":
      return Number(d.waiting) > 0
        ? t("health.value.carts", { count: d.waiting, at: at("oldest_at") })
        : t("health.value.cartsNone");
    case "attention":
      return Number(d.total) > 0
        ? t("health.value.attention", {
            total: d.total,
            held: d.held,
            refundDue: d.refund_due,
            noOrder: d.no_order,
            notCaptured: d.not_captured,
            note: d.note,
            noCode: d.no_code ?? 0,
          })
        : t("health.value.attentionNone");
    case "med":
      return Number(d.open) > 0
        ? t("health.value.med", {
            count: d.open,
            amount: formatCents(Number(d.blocked_cents ?? 0)),
            deadline: brDay(d.nearest_deadline),
          })
        : t("health.value.medNone");
    case "create_budget":
      return t("health.value.budget", { used: d.used, limit: d.limit, waiting: d.waiting });
    case "refund_deadline": {
      const nearest = d.nearest as {
        owed_cents: number;
        deadline: string;
        days_left: number;
      } | null;
      return nearest
        ? t("health.value.refundDeadline", {
            total: d.total,
            amount: formatCents(nearest.owed_cents),
            date: deadlineDate(nearest.deadline),
            days: nearest.days_left,
          })
        : t("health.value.refundDeadlineNone");
    }
    case "redis":
      if (d.in_use !== true) return t("health.value.redisNone");
      if (d.reachable !== true) return t("health.value.redisDown", { module: d.module });
      return typeof d.failover_at === "string"
        ? t("health.value.redisOkFailover", {
            ms: d.latency_ms,
            module: d.module,
            at: at("failover_at"),
          })
        : t("health.value.redisOk", { ms: d.latency_ms, module: d.module });
    case "region":
      return Array.isArray(d.regions)
        ? t("health.value.region", { regions: d.regions.join(", ") })
        : "";
    default:
      return line.value === null ? "" : String(line.value);
  }
}

/** `YYYY-MM-DD` as the merchant reads a date: `dd/mm/aaaa`. */
const brDay = (day: unknown): string =>
  typeof day === "string" ? day.split("-").reverse().join("/") : "";

function HealthRow({ line }: { line: AdminHealthLine }) {
  const { t, instant } = usePixTranslation();
  const [kind, provider] = line.id.split(":");
  const reason = typeof line.detail.reason === "string" ? line.detail.reason : null;
  const value = valueText(line, t, instant);
  return (
    <li
      className="flex flex-col gap-1 border-t border-ui-border-base py-3 first:border-t-0 sm:flex-row sm:gap-4"
      data-health-line={line.id}
      data-health-state={line.state}
    >
      <div className="sm:w-28 sm:shrink-0">
        <Badge size="2xsmall" color={COLOR[line.state]}>
          {t(`health.state.${line.state}`)}
        </Badge>
      </div>
      <div className="flex min-w-0 flex-1 flex-col gap-0.5">
        <Text size="small" weight="plus">
          {t(`health.line.${kind}`, { provider })}
        </Text>
        {value ? (
          <Text size="small" className="text-ui-fg-subtle">
            {value}
          </Text>
        ) : null}
        {reason ? (
          <Text size="small" className={line.state === "broken" ? "text-ui-fg-error" : ""}>
            {t(`health.reason.${reason}`, {
              code: line.detail.code ?? "",
              reconciled: line.detail.paid_by_reconciliation ?? 0,
              webhook: line.detail.paid_by_webhook ?? 0,
              provider: line.detail.provider_id ?? "",
              past: line.detail.past ?? 0,
              regions: Array.isArray(line.detail.brl_regions)
                ? line.detail.brl_regions.join(", ")
                : "",
              near: line.detail.near ?? 0,
              deadline: brDay(line.detail.nearest_deadline),
              protocol: line.detail.nearest_protocol ?? "",
              error: line.detail.error ?? "",
              at: instant(
                typeof line.detail.failover_at === "string" ? line.detail.failover_at : null,
              ),
            })}
          </Text>
        ) : null}
        {line.action ? (
          <Text size="small" className="text-ui-fg-subtle">
            → {t(`health.action.${line.action}`)}
          </Text>
        ) : null}
      </div>
    </li>
  );
}

/**
 * The health card (`GET /admin/pix-checkout/health`): one line while all is well, with a
 * "Ver detalhes" to open it; open by itself as soon as any line is not ok.
 */
export function HealthCard() {
  const { t, instant } = usePixTranslation();
  const { data, error } = useHealth();
  const [opened, setOpened] = useState(false);
  const open = opened || Boolean(error) || (data !== undefined && data.state !== "ok");
  return (
    <Container className="flex flex-col gap-y-2 px-6 py-4" data-pix-checkout="health">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="flex items-center gap-x-2">
          <Heading level="h2">{t("health.title")}</Heading>
          {data ? (
            <Badge size="xsmall" color={COLOR[data.state]}>
              {t(`health.state.${data.state}`)}
            </Badge>
          ) : null}
        </div>
        <div className="flex items-center gap-x-3">
          {data ? (
            <Text size="xsmall" className="text-ui-fg-muted">
              {t("health.checkedAt", { at: instant(data.checked_at) })}
            </Text>
          ) : null}
          {data?.state === "ok" && !error ? (
            <Button
              size="small"
              variant="transparent"
              aria-expanded={open}
              onClick={() => setOpened(!opened)}
            >
              {t(open ? "health.hide" : "health.show")}
            </Button>
          ) : null}
        </div>
      </div>
      {error ? (
        <Text className="text-ui-fg-error">
          {t("health.failed")} {error.message}
        </Text>
      ) : null}
      {open ? (
        <ul className="flex flex-col">
          {(data?.lines ?? []).map((line) => (
            <HealthRow key={line.id} line={line} />
          ))}
        </ul>
      ) : null}
    </Container>
  );
}
