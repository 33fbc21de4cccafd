// What the "record a refund" drawer says will be recorded where, before the merchant saves: the
// route's own split of the amount typed (settlement/refund-portions.ts) over the portions the
// charges route answered for that charge, so the words are what the refund route will do.
import { splitRefund, type RefundPortion } from "../../internal/settlement/refund-portions";
import { formatCents } from "./format";
import type { PixT } from "./i18n";

/** Why money Medusa never captured is the ledger's alone, in the admin's words. */
function whyWords(why: string | null, t: PixT): string {
  if (why === "underpaid") return t("refund.where.whyUnderpaid");
  return why ? t(`refundReason.${why}`, { defaultValue: "" }) : "";
}

/**
 * The drawer's sentences for a refund of `amountCents` of a charge: what Medusa's order records
 * (money Medusa captured: a refund on its payment, on order #N when the charge has one), and
 * what only the plugin's ledger and the books record (money Medusa never captured), with why.
 * One sentence saying the most that can be returned when the amount is more than the charge
 * holds; none while the amount is not read yet.
 */
export function refundWhereWords(
  portions: readonly RefundPortion[],
  amountCents: number | null,
  order: { display_id: number | null } | null,
  t: PixT,
): string[] {
  if (amountCents === null) return [];
  const split = splitRefund(portions, amountCents);
  if (!split) {
    const most = portions.reduce((sum, portion) => sum + portion.cents, 0);
    return [t("refund.where.tooMuch", { max: formatCents(most) })];
  }
  const lines: string[] = [];
  if (split.medusaCents > 0) {
    lines.push(
      order?.display_id != null
        ? t("refund.where.medusaOrder", {
            amount: formatCents(split.medusaCents),
            number: order.display_id,
          })
        : t("refund.where.medusaPayment", { amount: formatCents(split.medusaCents) }),
    );
  }
  if (split.ledgerOnlyCents > 0) {
    const whys = [
      ...new Set(
        split.takes
          .filter((take) => !take.inMedusa)
          .map((take) => whyWords(take.why, t))
          .filter(Boolean),
      ),
    ];
    lines.push(
      t("refund.where.ledgerOnly", { amount: formatCents(split.ledgerOnlyCents) }) +
        (whys.length > 0 ? ` ${whys.join(" ")}` : ""),
    );
  }
  return lines;
}

/** The toast once the refund is recorded: where it was, as the route answers it. */
export function refundDoneWords(
  result: { recorded_in_medusa_cents: number; ledger_only_cents?: number },
  t: PixT,
): string {
  const medusa = result.recorded_in_medusa_cents;
  const ledger = result.ledger_only_cents ?? 0;
  if (medusa > 0 && ledger > 0) {
    return t("refund.doneBoth", { medusa: formatCents(medusa), ledger: formatCents(ledger) });
  }
  if (medusa > 0) return t("refund.doneMedusa", { amount: formatCents(medusa) });
  return t("refund.doneLedger", { amount: formatCents(ledger) });
}
