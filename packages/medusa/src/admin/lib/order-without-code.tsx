/// <reference lib="dom" />
// A row of "Precisa de atenção" for an order the merchant keeps although its Pix or boleto code
// could never be made: no charge exists, so nothing can pay the order until the customer gets
// the order's payment link, which its page offers (the order widget's "Valor em aberto").
import { Badge, Button, Table, Text } from "@medusajs/ui";
import { Link } from "react-router-dom";
import { formatCents } from "./format";
import { usePixTranslation, type PixT } from "./i18n";
import { customerOf, OrderLink } from "./order-link";
import type { AdminChargeOrder, AdminOrderWithoutCode } from "./types";

/** The row's words: what it is, what happened and when, what to do. */
export function orderWithoutCodeWords(
  entry: AdminOrderWithoutCode,
  t: PixT,
  instant: (value: string | null | undefined) => string,
): { kind: string; badge: string; cause: string; todo: string; error: string | null } {
  return {
    kind: t("attention.noCode.kind"),
    badge: t(`attention.noCode.badge.${entry.method}`),
    cause: t(`attention.noCode.cause.${entry.method}`, { at: instant(entry.failed_at) }),
    todo: t("attention.noCode.todo"),
    error: entry.error_code ? t("attention.noCode.error", { code: entry.error_code }) : null,
  };
}

/** The order as the other rows' order column reads it (the list answers no customer name). */
const orderOf = (entry: AdminOrderWithoutCode): AdminChargeOrder => ({
  ...entry.order,
  customer_name: null,
});

/**
 * One kept order without a code, in the columns of the charges' rows: the order with its
 * customer, the amount with the method whose code failed, "—" where the others say when they
 * were paid, why and what to do, and the way to the order's payment link.
 */
export function OrderWithoutCodeRow({ entry }: { entry: AdminOrderWithoutCode }) {
  const { t, instant } = usePixTranslation();
  const words = orderWithoutCodeWords(entry, t, instant);
  const order = orderOf(entry);
  return (
    <Table.Row className="[&_td]:align-top [&_td]:py-2" data-pix-checkout="order-without-code">
      <Table.Cell>
        <div className="flex flex-col">
          <span className="whitespace-nowrap">
            <OrderLink order={order} />
          </span>
          <Text size="small" className="text-ui-fg-subtle">
            {customerOf(order)}
          </Text>
        </div>
      </Table.Cell>
      <Table.Cell>
        <div className="flex flex-col items-start gap-y-1">
          <span className="whitespace-nowrap">{formatCents(entry.amount_cents)}</span>
          <Badge size="2xsmall" color="red">
            {words.badge}
          </Badge>
        </div>
      </Table.Cell>
      <Table.Cell>—</Table.Cell>
      <Table.Cell>
        <div className="flex max-w-[22rem] flex-col">
          <Text size="small" weight="plus">
            {words.kind}
          </Text>
          <Text size="small">{words.cause}</Text>
          <Text size="small">{words.todo}</Text>
          {words.error ? (
            <Text size="xsmall" className="text-ui-fg-muted font-mono">
              {words.error}
            </Text>
          ) : null}
        </div>
      </Table.Cell>
      <Table.Cell>
        <div className="flex flex-wrap justify-end gap-2">
          <Button size="small" variant="secondary" asChild>
            <Link to={`/orders/${entry.order.id}`} data-pix-checkout="order-payment-link">
              {t("attention.noCode.seeLink")}
            </Link>
          </Button>
        </div>
      </Table.Cell>
    </Table.Row>
  );
}
