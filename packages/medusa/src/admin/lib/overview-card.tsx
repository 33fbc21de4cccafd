/// <reference lib="dom" />
// The first screen: the money. What came in today, in 7 and in 30 days, by Pix and by boleto;
// codes shown against codes paid; the median time to pay; what waits for the merchant; and
// for each method, codes shown, paid without a reminder, paid after one ("recuperados", with
// their money) and expired; and two charts of the last 30 days (money per day, codes shown and
// paid per day), drawn with plain elements in Medusa UI's colors, so the admin bundle carries
// no chart library.
import { Button, Container, Heading, Text } from "@medusajs/ui";
import { useOverview } from "./api";
import {
  conversion,
  formatCents,
  minutesToPay,
  paidWithoutReminder,
  recoveredFigure,
} from "./format";
import { usePixTranslation } from "./i18n";
import type { AdminMethodFigures, AdminOverview } from "./types";

const PERIODS = ["today", "week", "month"] as const;

function sum(a: AdminMethodFigures, b: AdminMethodFigures): AdminMethodFigures {
  return {
    shown: a.shown + b.shown,
    shown_paid: a.shown_paid + b.shown_paid,
    paid: a.paid + b.paid,
    received_cents: a.received_cents + b.received_cents,
    income_cents: a.income_cents + b.income_cents,
    owed_cents: a.owed_cents + b.owed_cents,
    returned_cents: a.returned_cents + b.returned_cents,
    held_cents: a.held_cents + b.held_cents,
    contested_cents: a.contested_cents + b.contested_cents,
    med_returned_cents: a.med_returned_cents + b.med_returned_cents,
    median_seconds_to_pay: null,
    paid_after_reminder: a.paid_after_reminder + b.paid_after_reminder,
    paid_after_reminder_cents: a.paid_after_reminder_cents + b.paid_after_reminder_cents,
    expired: a.expired + b.expired,
    paid_after_sale: a.paid_after_sale + b.paid_after_sale,
    paid_after_sale_cents: a.paid_after_sale_cents + b.paid_after_sale_cents,
  };
}

/**
 * One method's codes in a period, a label and its figure per row. The label wraps and the
 * figure keeps to its own width, so a narrow period column never scrolls sideways.
 */
function MethodFigures({
  method,
  figures,
}: {
  method: "pix" | "boleto";
  figures: AdminMethodFigures;
}) {
  const { t } = usePixTranslation();
  const rows: [string, string | number][] = [
    [t("overview.shown"), figures.shown],
    [
      t("overview.paidWithoutReminder"),
      paidWithoutReminder(figures.paid, figures.paid_after_reminder),
    ],
    [
      t("overview.paidAfterReminder"),
      recoveredFigure(figures.paid_after_reminder, figures.paid_after_reminder_cents),
    ],
    [t(`overview.expired.${method}`), figures.expired],
    // Differences after the sale and admin-made orders, paid by the link Medusa copies.
    [
      t("overview.paidAfterSale"),
      recoveredFigure(figures.paid_after_sale, figures.paid_after_sale_cents),
    ],
  ];
  return (
    <div className="flex min-w-0 flex-col" data-pix-checkout={`overview-method-${method}`}>
      <Text size="small" weight="plus">
        {method === "pix" ? "Pix" : t("overview.boleto")}
      </Text>
      <dl className="grid grid-cols-[minmax(0,1fr)_auto] gap-x-2">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt>
              <Text size="xsmall" className="text-ui-fg-subtle">
                {label}
              </Text>
            </dt>
            <dd className="text-right">
              <Text size="xsmall" className="whitespace-nowrap">
                {value}
              </Text>
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

/**
 * What the service received in the period, when some of it is not the store's income: the
 * lines add up to it (orders, owed back, returned by the merchant or by the MED, held, blocked
 * by a MED), each in reais.
 */
function ReceivedLine({ figures }: { figures: AdminMethodFigures }) {
  const { t } = usePixTranslation();
  if (figures.received_cents === figures.income_cents) return null;
  const parts = (
    [
      ["income", figures.income_cents],
      ["owed", figures.owed_cents],
      // The MED's returns apart from the merchant's (returned_cents counts both).
      ["returned", figures.returned_cents - figures.med_returned_cents],
      ["med_returned", figures.med_returned_cents],
      ["held", figures.held_cents],
      ["contested", figures.contested_cents],
    ] as const
  ).filter(([, cents]) => cents > 0);
  return (
    <Text size="small" className="text-ui-fg-subtle" data-pix-checkout="overview-received">
      {t("overview.received", { received: formatCents(figures.received_cents) })}
      {parts
        .map(([part, cents]) => t(`overview.part.${part}`, { amount: formatCents(cents) }))
        .join(" · ")}
    </Text>
  );
}

function PeriodColumn({
  period,
  figures,
}: {
  period: (typeof PERIODS)[number];
  figures: AdminOverview["periods"][(typeof PERIODS)[number]];
}) {
  const { t } = usePixTranslation();
  const all = sum(figures.pix, figures.boleto);
  const rate = conversion(all.shown_paid, all.shown);
  const pixMinutes = minutesToPay(figures.pix.median_seconds_to_pay);
  return (
    <div className="flex min-w-0 flex-col gap-y-1" data-pix-checkout={`overview-${period}`}>
      <Text size="small" className="text-ui-fg-subtle">
        {t(`overview.period.${period}`)}
      </Text>
      <Text size="xlarge" weight="plus" className="whitespace-nowrap">
        {formatCents(all.income_cents)}
      </Text>
      <Text size="xsmall" className="text-ui-fg-muted">
        {t("overview.income")}
      </Text>
      <Text size="small">
        Pix {formatCents(figures.pix.income_cents)} · {t("overview.boleto")}{" "}
        {formatCents(figures.boleto.income_cents)}
      </Text>
      <ReceivedLine figures={all} />
      <Text size="small" className="text-ui-fg-subtle">
        {t("overview.codes", { paid: all.shown_paid, shown: all.shown })}
        {rate === null ? "" : ` (${rate} %)`}
      </Text>
      {pixMinutes === null ? null : (
        <Text size="small" className="text-ui-fg-subtle">
          {t("overview.medianPix", { minutes: pixMinutes })}
        </Text>
      )}
      <div className="mt-2 flex flex-col gap-y-2">
        <MethodFigures method="pix" figures={figures.pix} />
        <MethodFigures method="boleto" figures={figures.boleto} />
      </div>
    </div>
  );
}

/** Bars for each of the 30 days: money by method stacked, or codes shown beside codes paid. */
function DayBars({ overview, kind }: { overview: AdminOverview; kind: "money" | "codes" }) {
  const { t } = usePixTranslation();
  const values = overview.days.map((d) =>
    kind === "money" ? d.pix_cents + d.boleto_cents : d.shown,
  );
  const top = Math.max(1, ...values);
  const label = (d: AdminOverview["days"][number]) =>
    kind === "money"
      ? t("overview.dayMoney", {
          day: d.day.slice(8, 10) + "/" + d.day.slice(5, 7),
          pix: formatCents(d.pix_cents),
          boleto: formatCents(d.boleto_cents),
        })
      : t("overview.dayCodes", {
          day: d.day.slice(8, 10) + "/" + d.day.slice(5, 7),
          shown: d.shown,
          paid: d.shown_paid,
        });
  return (
    <figure className="flex min-w-0 flex-col gap-y-2">
      <figcaption>
        <Text size="small" weight="plus">
          {t(kind === "money" ? "overview.moneyChart" : "overview.codesChart")}
        </Text>
      </figcaption>
      <div className="flex h-28 items-end gap-[2px]" role="list">
        {overview.days.map((d) => (
          <div
            key={d.day}
            role="listitem"
            aria-label={label(d)}
            title={label(d)}
            className="flex h-full min-w-0 flex-1 items-end gap-px"
          >
            {kind === "money" ? (
              <div className="flex w-full flex-col justify-end" style={{ height: "100%" }}>
                <div
                  className="bg-ui-tag-blue-icon w-full"
                  style={{ height: `${(d.boleto_cents / top) * 100}%` }}
                />
                <div
                  className="bg-ui-tag-green-icon w-full"
                  style={{ height: `${(d.pix_cents / top) * 100}%` }}
                />
              </div>
            ) : (
              <>
                <div
                  className="bg-ui-border-strong w-1/2"
                  style={{ height: `${(d.shown / top) * 100}%` }}
                />
                <div
                  className="bg-ui-tag-green-icon w-1/2"
                  style={{ height: `${(d.shown_paid / top) * 100}%` }}
                />
              </>
            )}
          </div>
        ))}
      </div>
      <div className="flex justify-between">
        <Text size="xsmall" className="text-ui-fg-muted">
          {overview.days[0]?.day.slice(8, 10)}/{overview.days[0]?.day.slice(5, 7)}
        </Text>
        <Text size="xsmall" className="text-ui-fg-muted">
          {t(kind === "money" ? "overview.moneyLegend" : "overview.codesLegend")}
        </Text>
        <Text size="xsmall" className="text-ui-fg-muted">
          {t("overview.today")}
        </Text>
      </div>
    </figure>
  );
}

/** The money first (`GET /admin/pix-checkout/overview`). */
export function OverviewCard({ onSeeWaiting }: { onSeeWaiting: () => void }) {
  const { t } = usePixTranslation();
  const { data, error } = useOverview();
  return (
    <Container className="flex flex-col gap-y-4 px-6 py-4" data-pix-checkout="overview">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Heading level="h2">{t("overview.title")}</Heading>
        {data && data.waiting_for_merchant > 0 ? (
          <Button size="small" variant="secondary" onClick={onSeeWaiting}>
            {t("overview.waiting", { count: data.waiting_for_merchant })}
          </Button>
        ) : null}
      </div>
      {error ? <Text className="text-ui-fg-error">{error.message}</Text> : null}
      {data ? (
        <>
          <div className="grid grid-cols-3 gap-4">
            {PERIODS.map((period) => (
              <PeriodColumn key={period} period={period} figures={data.periods[period]} />
            ))}
          </div>
          <div className="grid grid-cols-2 gap-6">
            <DayBars overview={data} kind="money" />
            <DayBars overview={data} kind="codes" />
          </div>
        </>
      ) : null}
    </Container>
  );
}
