import type { ChargeRow } from "../records/charges";
import type { Ledger } from "../records/ledger";
import type { OwedReason } from "../records/ledger-parts";
import { rowCountsAsPayment } from "../settlement/decide";

/**
 * Why money an older code of the cart brought is owed back while the cart goes on: paid after
 * another code paid it, paid for an amount the cart no longer has, or paid after the cart was
 * paid another way (another provider). Money owed back for the order itself (canceled, never
 * completed, an overpayment's excess) is the order's story, not an earlier code's.
 */
export const EARLIER_PAYMENT_REASONS: readonly OwedReason[] = [
  "paid_twice",
  "paid_old_amount",
  "paid_replaced",
  "paid_elsewhere",
];

/** What the shopper is told: the store received `amount` cents for an older code and returns it. */
export interface EarlierPayment {
  /** Integer cents, owed back or already returned. */
  amount: number;
  /** Whether the cart is paid (by one of its codes, or another way). */
  order_paid: boolean;
}

/**
 * The earlier payment of a cart's charges as the ledger holds it, leaving out `exceptChargeId`
 * (the code on screen speaks for itself). `paidOtherwise`: Medusa says the cart is paid by
 * something that is not one of these charges. Undefined when nothing was owed back for an
 * earlier code; one read of the ledger, and none when no charge holds such money.
 */
export async function earlierPaymentOf(
  ledger: Ledger,
  charges: readonly ChargeRow[],
  exceptChargeId: string | null,
  paidOtherwise = false,
): Promise<EarlierPayment | undefined> {
  const others = charges.filter(
    (charge) =>
      charge.charge_id !== exceptChargeId &&
      charge.status === "paid" &&
      Number(charge.owed_cents) + Number(charge.returned_cents) > 0,
  );
  if (others.length === 0) return undefined;
  const owed = await ledger.owedFor(
    others.map((charge) => charge.charge_id),
    EARLIER_PAYMENT_REASONS,
  );
  const amount = owed.reduce((sum, entry) => sum + entry.cents, 0);
  if (amount === 0) return undefined;
  const orderPaid =
    paidOtherwise ||
    owed.some((entry) => entry.reason === "paid_elsewhere") ||
    charges.some((charge) => rowCountsAsPayment(charge));
  return { amount, order_paid: orderPaid };
}
