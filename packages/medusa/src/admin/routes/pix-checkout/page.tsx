/// <reference lib="dom" />
// Admin extensions run in the merchant's browser (the server code is built without DOM types).
import { defineRouteConfig } from "@medusajs/admin-sdk";
import { CurrencyDollar } from "@medusajs/icons";
import { Badge, Button, Container, Heading, Select, Table, Tabs, Text } from "@medusajs/ui";
import { useState } from "react";
import {
  useBalance,
  useDeliveries,
  useChargesNeedingAttention,
  useRecheck,
  useTransactions,
} from "../../lib/api";
import { deliveryDetailWords } from "../../lib/delivery-detail";
import { usePixTranslation } from "../../lib/i18n";
import { customerOf, OrderLink } from "../../lib/order-link";
import { ReconciliationCard } from "../../lib/reconciliation-card";
import { HealthCard } from "../../lib/health-card";
import { OverviewCard } from "../../lib/overview-card";
import { PixDiscountCard } from "../../lib/pix-discount-card";
import { PixDiscountCostCard } from "../../lib/pix-discount-cost-card";
import { FlagActions } from "../../lib/flag-actions";
import { MedActions } from "../../lib/med-actions";
import { formatCents, moneyStatus, statusColor } from "../../lib/format";
import { MoneyLine } from "../../lib/money-line";
import { RefundDeadlineLine } from "../../lib/refund-deadline-line";
import { OrderWithoutCodeRow } from "../../lib/order-without-code";
import { usePixPermissions, type AdminAction } from "../../lib/permissions";
import type { AdminTransaction } from "../../lib/types";

const PAGE_SIZE = 20;
const ALL = "all";

function BalanceCard({ provider }: { provider: string | undefined }) {
  const { t } = usePixTranslation();
  const { data, error } = useBalance(provider);
  const b = data?.balance;
  // One figure per idea, each with a line that says what it is: the API's summary repeats
  // the pending figure, so it is not shown twice.
  const cell = (key: string, cents: number | null | undefined) => (
    <div className="flex flex-col">
      <Text size="small" className="text-ui-fg-subtle">
        {t(`balance.${key}`)}
      </Text>
      <Text weight="plus">{formatCents(cents, b?.currency ?? "BRL")}</Text>
      <Text size="xsmall" className="text-ui-fg-muted">
        {t(`balance.${key}Hint`)}
      </Text>
    </div>
  );
  const ledger = data?.ledger;
  return (
    <Container className="flex flex-col gap-y-3 px-6 py-4" data-pix-checkout="balance">
      <Heading level="h2">{t("balance.title")}</Heading>
      {error ? <Text className="text-ui-fg-error">{error.message}</Text> : null}
      <div className="grid grid-cols-2 gap-4 md:grid-cols-4">
        {cell("available", b?.available)}
        {cell("pending", b?.pending ?? b?.summary.pending_balance)}
        {cell("earned", b?.summary.total_earned)}
        {cell("withdrawn", b?.summary.total_withdrawn)}
      </div>
      {ledger ? (
        // The store's own ledger of the same money: what of it is the store's, and what is not.
        <div className="flex flex-col gap-y-1" data-pix-checkout="balance-ledger">
          <Text size="small" weight="plus">
            {t("balance.ledger.title")}
          </Text>
          <div className="grid grid-cols-2 gap-4 md:grid-cols-4">
            {(["captured", "owed", "held", "returned", "contested"] as const)
              // Money a MED blocks shows only while there is some.
              .filter((part) => part !== "contested" || (ledger.contested ?? 0) > 0)
              .map((part) => (
                <div key={part} className="flex flex-col">
                  <Text size="small" className="text-ui-fg-subtle">
                    {t(`balance.ledger.${part}`)}
                  </Text>
                  <Text weight="plus">{formatCents(ledger[part] ?? 0)}</Text>
                </div>
              ))}
          </div>
          {ledger.owed + ledger.held > 0 ? (
            <Text size="xsmall" className="text-ui-fg-muted">
              {t("balance.ledger.hint")}
            </Text>
          ) : null}
        </div>
      ) : null}
    </Container>
  );
}

/**
 * A transaction's status, and for a charge of this store, where its money is: "paga" only when
 * it is the order's; money owed back, held or returned says so, with its line from the ledger.
 */
function TransactionStatus({ tx }: { tx: AdminTransaction }) {
  const { t, statusLabel } = usePixTranslation();
  const state = tx.money ? moneyStatus(tx.money) : "paid";
  const label =
    tx.status === "paid" && state !== "paid" ? t(`money.status.${state}`) : statusLabel(tx.status);
  const color =
    tx.status === "paid" && state !== "paid"
      ? state === "returned"
        ? "grey"
        : "orange"
      : statusColor(tx.status);
  const plain =
    !tx.money || (tx.money.captured === tx.money.received && tx.money.received !== null);
  return (
    <div className="flex flex-col items-start gap-y-1">
      <Badge size="2xsmall" color={color}>
        {label}
      </Badge>
      {plain ? null : <MoneyLine money={tx.money} />}
    </div>
  );
}

function TransactionsCard({ provider }: { provider: string | undefined }) {
  const { t, statusLabel, instant } = usePixTranslation();
  const [type, setType] = useState(ALL);
  const [status, setStatus] = useState(ALL);
  const [createdGte, setCreatedGte] = useState("");
  const [createdLte, setCreatedLte] = useState("");
  // Cursor stack: the `starting_after` of each page shown so far ("" for the first).
  const [cursors, setCursors] = useState<string[]>([""]);
  const cursor = cursors[cursors.length - 1] ?? "";
  const { data: page, error } = useTransactions({
    limit: String(PAGE_SIZE),
    provider,
    type: type === ALL ? undefined : type,
    status: status === ALL ? undefined : status,
    created_gte: createdGte ? new Date(createdGte).toISOString() : undefined,
    created_lte: createdLte ? new Date(createdLte).toISOString() : undefined,
    starting_after: cursor || undefined,
  });
  const resetTo = (set: (v: string) => void) => (value: string) => {
    set(value);
    setCursors([""]);
  };

  return (
    <Container className="flex flex-col gap-y-3 p-0" data-pix-checkout="transactions">
      <div className="flex flex-wrap items-end gap-3 px-6 pt-4">
        <Heading level="h2" className="mr-auto">
          {t("transactions.title")}
        </Heading>
        <div className="w-44">
          {" "}
          <Select size="small" value={type} onValueChange={resetTo(setType)}>
            <Select.Trigger>
              <Select.Value placeholder={t("transactions.type")} />
            </Select.Trigger>
            <Select.Content>
              {[ALL, "charge", "withdrawal"].map((v) => (
                <Select.Item key={v} value={v}>
                  {v === ALL ? t("transactions.allTypes") : t(`transactions.kind.${v}`)}
                </Select.Item>
              ))}
            </Select.Content>
          </Select>
        </div>
        <div className="w-44">
          {" "}
          <Select size="small" value={status} onValueChange={resetTo(setStatus)}>
            <Select.Trigger>
              <Select.Value placeholder={t("transactions.status")} />
            </Select.Trigger>
            <Select.Content>
              {[ALL, "pending", "paid", "expired", "failed", "processing"].map((v) => (
                <Select.Item key={v} value={v}>
                  {v === ALL ? t("transactions.allStatuses") : statusLabel(v)}
                </Select.Item>
              ))}
            </Select.Content>
          </Select>
        </div>
        <label className="flex flex-col">
          <Text size="xsmall">{t("transactions.createdFrom")}</Text>
          <input
            type="datetime-local"
            value={createdGte}
            onChange={(e) => resetTo(setCreatedGte)(e.target.value)}
          />
        </label>
        <label className="flex flex-col">
          <Text size="xsmall">{t("transactions.createdUntil")}</Text>
          <input
            type="datetime-local"
            value={createdLte}
            onChange={(e) => resetTo(setCreatedLte)(e.target.value)}
          />
        </label>
      </div>
      {error ? <Text className="px-6 text-ui-fg-error">{error.message}</Text> : null}
      {/* Eight columns in Medusa's main area at 1024 px (804 px): a customer's e-mail or an id
          may break anywhere rather than push the card past the window; amounts never break. */}
      <Table className="[&_td]:[overflow-wrap:anywhere]">
        <Table.Header>
          <Table.Row>
            <Table.HeaderCell>{t("transactions.created")}</Table.HeaderCell>
            <Table.HeaderCell>{t("transactions.type")}</Table.HeaderCell>
            <Table.HeaderCell>{t("transactions.status")}</Table.HeaderCell>
            <Table.HeaderCell>{t("transactions.order")}</Table.HeaderCell>
            <Table.HeaderCell>{t("transactions.customer")}</Table.HeaderCell>
            <Table.HeaderCell className="text-right">{t("transactions.amount")}</Table.HeaderCell>
            <Table.HeaderCell className="text-right">{t("transactions.net")}</Table.HeaderCell>
            <Table.HeaderCell>{t("transactions.id")}</Table.HeaderCell>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {(page?.transactions ?? []).map((tx) => (
            <Table.Row key={tx.id}>
              <Table.Cell>{instant(tx.created_at)}</Table.Cell>
              <Table.Cell>{t(`transactions.kind.${tx.type}`)}</Table.Cell>
              <Table.Cell>
                <TransactionStatus tx={tx} />
              </Table.Cell>
              <Table.Cell>
                <OrderLink order={tx.order} />
              </Table.Cell>
              <Table.Cell>{customerOf(tx.order, tx.customer)}</Table.Cell>
              <Table.Cell className="whitespace-nowrap text-right">
                {formatCents(tx.amount)}
              </Table.Cell>
              <Table.Cell className="whitespace-nowrap text-right">
                {formatCents(tx.net_amount)}
              </Table.Cell>
              {/* A whole UUID widens the table past Medusa's main area at 1024 px: its start,
                  as in the other tables, and the whole id on hover (and in the CSV). */}
              <Table.Cell className="font-mono" title={tx.id}>
                {tx.id.length > 12 ? `${tx.id.slice(0, 8)}…` : tx.id}
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table>
      <div className="flex justify-end gap-x-2 px-6 pb-4">
        <Button
          size="small"
          variant="secondary"
          disabled={cursors.length <= 1}
          onClick={() => setCursors((c) => c.slice(0, -1))}
        >
          {t("transactions.previous")}
        </Button>
        <Button
          size="small"
          variant="secondary"
          disabled={!page?.has_more || !page.next_cursor}
          onClick={() => page?.next_cursor && setCursors((c) => [...c, page.next_cursor!])}
        >
          {t("transactions.next")}
        </Button>
      </div>
    </Container>
  );
}

/**
 * Every charge whose money waits for the merchant (held, a refund due, captured without an
 * order, paid and not captured), then open notes. Some have no order at all (the shopper
 * switched method and then paid the old code), so this list is the only place the merchant
 * sees them. Then the orders kept although their code could never be made: Medusa lists each
 * as one more order awaiting payment, and only this list says nothing can pay it.
 */
function AttentionCard() {
  const { t, statusLabel, instant, flagReason } = usePixTranslation();
  const { data, error } = useChargesNeedingAttention();
  const recheck = useRecheck(t);
  const { may } = usePixPermissions();
  const rows = data?.charges ?? null;
  const withoutCode = data?.orders_without_code ?? [];
  return (
    <Container className="flex flex-col gap-y-3 p-0" data-pix-checkout="attention">
      <Heading level="h2" className="px-6 pt-4">
        {t("attention.title")}
      </Heading>
      {error ? <Text className="px-6 text-ui-fg-error">{error.message}</Text> : null}
      {rows && rows.length === 0 && withoutCode.length === 0 ? (
        <Text size="small" className="px-6 pb-4 text-ui-fg-subtle">
          {t("attention.empty")}
        </Text>
      ) : (
        // Five columns that fit 1024 px: the order with its customer and charge, the amount with
        // its status, when it was paid, why it needs the merchant, and the actions, which wrap.
        <Table>
          <Table.Header>
            <Table.Row>
              <Table.HeaderCell>{t("attention.order")}</Table.HeaderCell>
              <Table.HeaderCell>{t("attention.amount")}</Table.HeaderCell>
              <Table.HeaderCell>{t("attention.paid")}</Table.HeaderCell>
              <Table.HeaderCell>{t("attention.why")}</Table.HeaderCell>
              <Table.HeaderCell />
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {(rows ?? []).map((c) => (
              <Table.Row key={c.charge_id} className="[&_td]:align-top [&_td]:py-2">
                <Table.Cell>
                  <div className="flex flex-col">
                    <span className="whitespace-nowrap">
                      <OrderLink order={c.order} none={t("attention.noOrder")} />
                    </span>
                    <Text size="small" className="text-ui-fg-subtle">
                      {customerOf(c.order)}
                    </Text>
                    <Text size="xsmall" className="text-ui-fg-muted font-mono" title={c.charge_id}>
                      {t("attention.charge")} {c.charge_id.slice(0, 8)}…
                    </Text>
                  </div>
                </Table.Cell>
                <Table.Cell>
                  <div className="flex flex-col items-start gap-y-1">
                    <span className="whitespace-nowrap">{formatCents(c.amount, c.currency)}</span>
                    <Badge
                      size="2xsmall"
                      color={statusColor(c.status)}
                      className="whitespace-nowrap"
                    >
                      {c.captured_at
                        ? t("attention.captured", { status: statusLabel(c.status) })
                        : statusLabel(c.status)}
                    </Badge>
                  </div>
                </Table.Cell>
                <Table.Cell>{instant(c.paid_at)}</Table.Cell>
                <Table.Cell>
                  <div className="flex max-w-[22rem] flex-col">
                    {c.attention && c.attention !== "note" ? (
                      <Text size="small" weight="plus">
                        {t(`attention.kind.${c.attention}`)}
                      </Text>
                    ) : null}
                    {c.flagged ? <Text size="small">{flagReason(c.flag)}</Text> : null}
                    <MoneyLine money={c.money} currency={c.currency} />
                    <RefundDeadlineLine deadline={c.refund_deadline} />
                  </div>
                </Table.Cell>
                <Table.Cell>
                  <div className="flex flex-wrap justify-end gap-2">
                    {may("recheck") ? (
                      <Button
                        size="small"
                        variant="secondary"
                        isLoading={recheck.isPending && recheck.variables === c.charge_id}
                        onClick={() => recheck.mutate(c.charge_id)}
                        data-pix-checkout="recheck"
                      >
                        {t("recheck.button")}
                      </Button>
                    ) : null}
                    <FlagActions charge={c} />
                    <MedActions charge={c} />
                  </div>
                </Table.Cell>
              </Table.Row>
            ))}
            {withoutCode.map((entry) => (
              <OrderWithoutCodeRow key={entry.session_id} entry={entry} />
            ))}
          </Table.Body>
        </Table>
      )}
    </Container>
  );
}

function DeliveriesCard() {
  const { t, statusLabel, instant } = usePixTranslation();
  const { data, error } = useDeliveries();
  const rows = data?.deliveries ?? [];
  return (
    <Container className="flex flex-col gap-y-3 p-0">
      <Heading level="h2" className="px-6 pt-4">
        {t("deliveries.title")}
      </Heading>
      {error ? <Text className="px-6 text-ui-fg-error">{error.message}</Text> : null}
      <Table>
        <Table.Header>
          <Table.Row>
            <Table.HeaderCell>{t("deliveries.received")}</Table.HeaderCell>
            <Table.HeaderCell>{t("deliveries.event")}</Table.HeaderCell>
            <Table.HeaderCell>{t("deliveries.verification")}</Table.HeaderCell>
            <Table.HeaderCell>{t("deliveries.charge")}</Table.HeaderCell>
            <Table.HeaderCell>{t("deliveries.detail")}</Table.HeaderCell>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {rows.map((d) => (
            <Table.Row key={d.id}>
              <Table.Cell>{instant(d.created_at)}</Table.Cell>
              <Table.Cell>{d.event}</Table.Cell>
              <Table.Cell>
                <Badge size="2xsmall" color={statusColor(d.outcome)}>
                  {statusLabel(d.outcome)}
                </Badge>
              </Table.Cell>
              <Table.Cell className="font-mono" title={d.charge_id ?? undefined}>
                {d.charge_id ? `${d.charge_id.slice(0, 8)}…` : "—"}
              </Table.Cell>
              <Table.Cell>{deliveryDetailWords(d.detail, t, statusLabel)}</Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table>
    </Container>
  );
}

/** The page's tabs, each with an address of its own (`#transacoes`) a merchant can share. */
const TABS = {
  overview: "visao-geral",
  transactions: "transacoes",
  books: "conciliacao",
  discount: "desconto-pix",
  webhooks: "webhooks",
} as const;
type Tab = keyof typeof TABS;

function tabOfHash(hash: string): Tab {
  const found = (Object.keys(TABS) as Tab[]).find((tab) => `#${TABS[tab]}` === hash);
  return found ?? "overview";
}

/** What the user's role must allow for a tab to show (see lib/permissions.ts). */
const TAB_ACTION: Record<Tab, AdminAction> = {
  overview: "read",
  transactions: "read",
  books: "export",
  discount: "readDiscount",
  webhooks: "read",
};

/**
 * The "Pix Checkout" admin page. The money first: what came in and what waits for the merchant,
 * with the payments' health in one line while all is well. Then, one tab each: transactions
 * and balance, the reconciliation export, the Pix discount and what it cost, the webhook
 * deliveries. A tab the user's role may not read is not shown, and a role that cannot read
 * payments sees one line saying so instead of a page of refusals.
 */
const PixCheckoutPage = () => {
  const { t } = usePixTranslation();
  const { may, known } = usePixPermissions();
  const providers = useBalance().data?.providers ?? [];
  const [provider, setProvider] = useState<string | undefined>(undefined);
  const [chosen, setTab] = useState<Tab>(() => tabOfHash(window.location.hash));
  const tabs = (Object.keys(TABS) as Tab[]).filter((key) => may(TAB_ACTION[key]));
  const tab = tabs.includes(chosen) ? chosen : "overview";
  const show = (next: Tab) => {
    setTab(next);
    window.history.replaceState(null, "", `#${TABS[next]}`);
  };
  return (
    <div className="flex flex-col gap-y-3">
      <Container className="flex flex-wrap items-center justify-between gap-2 px-6 py-4">
        <Heading level="h1">{t("title")}</Heading>
        {providers.length > 1 ? (
          <Select size="small" value={provider ?? providers[0]} onValueChange={setProvider}>
            <Select.Trigger>
              <Select.Value placeholder={t("accountPlaceholder")} />
            </Select.Trigger>
            <Select.Content>
              {providers.map((p) => (
                <Select.Item key={p} value={p}>
                  {t("account", { id: p })}
                </Select.Item>
              ))}
            </Select.Content>
          </Select>
        ) : null}
      </Container>
      {known && !may("read") ? (
        <Container className="px-6 py-4" data-pix-checkout="no-access">
          <Text>{t("permissions.noAccess")}</Text>
        </Container>
      ) : null}
      {may("read") ? (
        <Tabs value={tab} onValueChange={(value) => show(value as Tab)}>
          <Tabs.List className="flex flex-wrap">
            {tabs.map((key) => (
              <Tabs.Trigger key={key} value={key}>
                {t(`tab.${key}`)}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
          <Tabs.Content value="overview" className="flex flex-col gap-y-3 pt-3">
            <OverviewCard
              onSeeWaiting={() =>
                document
                  .querySelector('[data-pix-checkout="attention"]')
                  ?.scrollIntoView({ behavior: "smooth" })
              }
            />
            <AttentionCard />
            <HealthCard />
          </Tabs.Content>
          <Tabs.Content value="transactions" className="flex flex-col gap-y-3 pt-3">
            <BalanceCard provider={provider} />
            <TransactionsCard provider={provider} />
          </Tabs.Content>
          <Tabs.Content value="books" className="flex flex-col gap-y-3 pt-3">
            <ReconciliationCard provider={provider} />
          </Tabs.Content>
          <Tabs.Content value="discount" className="flex flex-col gap-y-3 pt-3">
            <PixDiscountCard />
            <PixDiscountCostCard provider={provider} />
          </Tabs.Content>
          <Tabs.Content value="webhooks" className="flex flex-col gap-y-3 pt-3">
            <DeliveriesCard />
          </Tabs.Content>
        </Tabs>
      ) : null}
    </div>
  );
};

// The sidebar label is a key of the plugin's namespace (i18n/index.ts), as Medusa's dashboard
// translates it: "title" is "Pix Checkout" in every language.
export const config = defineRouteConfig({
  label: "title",
  translationNs: "pix-checkout",
  icon: CurrencyDollar,
});

export default PixCheckoutPage;
