/// <reference lib="dom" />
import { Text } from "@medusajs/ui";
import { formatCents, moneyParts } from "./format";
import { usePixTranslation } from "./i18n";
import type { AdminMoney } from "./types";

/**
 * Where a charge's money is, from the store's ledger, in one short line: `no pedido R$ 20,00 ·
 * a devolver R$ 5,00 (pago a mais)`. The parts add up to what arrived; nothing shows for an
 * unpaid charge.
 */
export function MoneyLine({
  money,
  currency = "BRL",
}: {
  money: AdminMoney | null;
  currency?: string;
}) {
  const { t } = usePixTranslation();
  if (!money || money.received === null) return null;
  const words = moneyParts(money).map(({ part, cents }) => {
    const amount = formatCents(cents, currency);
    const why =
      part === "owed" && money.owed_reason
        ? ` (${t(`money.owedWhy.${money.owed_reason}`, { defaultValue: money.owed_reason })})`
        : "";
    return t(`money.part.${part}`, { amount }) + why;
  });
  return (
    <Text size="xsmall" className="text-ui-fg-subtle" data-pix-checkout="money-line">
      {words.join(" · ")}
    </Text>
  );
}
