/**
 * The caps on what unpaid order-first orders may hold (fair-options.ts). An order placed before
 * its Pix or boleto is paid reserves its stock until the code is paid or ends (a boleto: about
 * 8 calendar days), so without a cap one anonymous client could reserve every unit of a scarce
 * product and hold it for a week.
 */
export interface UnpaidOrderCaps {
  /** Unpaid order-first orders one client, one mailbox or one payer document may hold. */
  unpaidOrdersMax: number;
  /** Units (the sum of item quantities) those orders may hold, counted the same three ways. */
  unpaidUnitsMax: number;
}

/** Who an unpaid order is counted against: the client, its mailbox, its payer's CPF/CNPJ. */
export type UnpaidOrderHolder = "client" | "email" | "document";

/** What one holder already holds in open unpaid orders (this cart's own excluded). */
export interface Holding {
  orders: number;
  units: number;
}

/** Which cap a new unpaid order would pass, and for whom. */
export interface UnpaidOrderRefusal {
  over: UnpaidOrderHolder;
  /** `orders`: one more order would pass `unpaidOrdersMax`; `units`: its units `unpaidUnitsMax`. */
  cap: "orders" | "units";
  /** What the holder holds now. */
  holding: Holding;
}

/**
 * The cap an unpaid order of `units` units would pass, if any, for each holder that is known
 * (a payer document is known only for a charge that had one). The client is judged first, then
 * the mailbox, then the document, so the answer names the nearest cause.
 */
export function unpaidOrderCapReached(
  held: Partial<Record<UnpaidOrderHolder, Holding>>,
  units: number,
  caps: UnpaidOrderCaps,
): UnpaidOrderRefusal | null {
  for (const over of ["client", "email", "document"] as const) {
    const holding = held[over];
    if (!holding) continue;
    if (holding.orders + 1 > caps.unpaidOrdersMax) return { over, cap: "orders", holding };
    if (holding.units + units > caps.unpaidUnitsMax) return { over, cap: "units", holding };
  }
  return null;
}
