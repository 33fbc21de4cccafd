/// <reference lib="dom" />
// "Quanto o desconto custou": what the Pix discount took off the orders sold over the chosen
// days, read from the books (GET /admin/pix-checkout/pix-discount/cost), so it is the same sum
// as the reconciliation CSV's "Desconto no Pix" column for those days, each order counted once.
import { Container, Heading, Text } from "@medusajs/ui";
import { useState } from "react";
import { usePixDiscountCost } from "./api";
import { formatCents } from "./format";
import { usePixTranslation } from "./i18n";
import { dayLabel, daysBetween, saoPauloDay } from "./sao-paulo-days";

/** The sentence under the figures, by how many orders: none, one, several. */
const LINE = ["pixDiscount.cost.lineNone", "pixDiscount.cost.lineOne", "pixDiscount.cost.line"];

/** The longest period the books compare at once (books.ts `MAX_PERIOD_DAYS`). */
const MAX_DAYS = 31;

/**
 * The discount's cost over a period of São Paulo days, the last 30 by default (today
 * included): the sum, how many orders, and the average per order. A period the books refuse
 * (more than 31 days, `to` before `from`, a future day) says what to fix.
 */
export function PixDiscountCostCard({ provider }: { provider: string | undefined }) {
  const { t } = usePixTranslation();
  const [from, setFrom] = useState(() => saoPauloDay(MAX_DAYS - 2));
  const [to, setTo] = useState(() => saoPauloDay(0));
  const days = daysBetween(from, to);
  const valid = days > 0 && days <= MAX_DAYS;
  const { data, error, isFetching } = usePixDiscountCost({ from, to, provider }, valid);
  const cost = valid ? data?.pix_discount_cost : undefined;
  const shown = cost && cost.period.from === from && cost.period.to === to ? cost : undefined;

  const figure = (key: string, value: string) => (
    <div className="flex min-w-[10rem] flex-col">
      <Text size="small" className="text-ui-fg-subtle">
        {t(`pixDiscount.cost.${key}`)}
      </Text>
      <Text weight="plus" className="whitespace-nowrap" data-pix-checkout={`discount-cost-${key}`}>
        {value}
      </Text>
    </div>
  );

  return (
    <Container className="flex flex-col gap-y-3 px-6 py-4" data-pix-checkout="pix-discount-cost">
      <Heading level="h2">{t("pixDiscount.cost.title")}</Heading>
      <Text size="small" className="text-ui-fg-subtle">
        {t("pixDiscount.cost.hint")}
      </Text>
      <div className="flex flex-wrap items-end gap-3">
        <label className="flex flex-col">
          <Text size="xsmall">{t("reconciliation.from")}</Text>
          <input type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
        </label>
        <label className="flex flex-col">
          <Text size="xsmall">{t("reconciliation.to")}</Text>
          <input type="date" value={to} onChange={(e) => setTo(e.target.value)} />
        </label>
      </div>
      {!valid ? (
        <Text size="small" className="text-ui-fg-error">
          {t("pixDiscount.cost.badPeriod", { max: MAX_DAYS })}
        </Text>
      ) : error ? (
        <Text size="small" className="text-ui-fg-error">
          {error.message}
        </Text>
      ) : (
        <div className="flex flex-wrap gap-x-8 gap-y-3">
          {figure("total", shown ? formatCents(shown.cents) : "…")}
          {figure("orders", shown ? String(shown.orders) : "…")}
          {figure(
            "average",
            shown && shown.orders > 0 ? formatCents(Math.round(shown.cents / shown.orders)) : "—",
          )}
        </div>
      )}
      {valid && shown && !error ? (
        <Text size="small" data-pix-checkout="discount-cost-line">
          {t(LINE[Math.min(shown.orders, 2)]!, {
            from: dayLabel(from),
            to: dayLabel(to),
            amount: formatCents(shown.cents),
            orders: shown.orders,
          })}
        </Text>
      ) : null}
      {valid && isFetching && !shown ? (
        <Text size="xsmall" className="text-ui-fg-muted">
          {t("pixDiscount.cost.loading")}
        </Text>
      ) : null}
    </Container>
  );
}
