// The lines of every total the shopper sees: the products at their listed prices, the
// shipping, each discount, and the total they add up to, to the cent.
import { formatCents } from "./format";

/**
 * Medusa's amounts in reais, as the store API sends them (JSON numbers, possibly with a
 * fraction of a cent: 5 % of R$ 79,90 is R$ 3,995), in integer millionths of a real, read
 * from the number's decimal digits, never multiplied as a float (90.905 × 100 is 9090.499…).
 */
export function microsOf(reais: number | null | undefined): number {
  if (!reais || !Number.isFinite(reais)) return 0;
  const [whole, fraction] = Math.abs(reais).toFixed(6).split(".") as [string, string];
  const micros = Number(whole) * 1_000_000 + Number(fraction);
  return reais < 0 ? -micros : micros;
}

/** Integer cents of an amount in millionths, rounded half-up as the plugin rounds a charge. */
export function centsOfMicros(micros: number): number {
  const sign = micros < 0 ? -1 : 1;
  const whole = Math.abs(micros);
  return sign * (Math.floor(whole / 10_000) + (whole % 10_000 >= 5_000 ? 1 : 0));
}

/** Medusa's amount in reais as integer cents, half-up. */
export function centsOf(reais: number | null | undefined): number {
  return centsOfMicros(microsOf(reais));
}

/**
 * What the Pix discount took off an order, in the cents the shopper was told: its total
 * without the discount minus its total, each rounded as the charge was (the plugin's rule).
 */
export function pixSavedOf(
  total: number | null | undefined,
  adjustments: { code?: string | null; amount?: number | null }[],
  pixCode: string,
): number {
  const discount = adjustments
    .filter((adjustment) => adjustment.code === pixCode)
    .reduce((sum, adjustment) => sum + microsOf(adjustment.amount), 0);
  if (discount === 0) return 0;
  const paid = microsOf(total);
  return centsOfMicros(paid + discount) - centsOfMicros(paid);
}

/** One line of a total. */
export interface PriceLine {
  label: string;
  cents: number;
  kind: "amount" | "discount" | "total";
}

/**
 * Produtos, Frete, the discounts and Total, in cents, adding up: the Pix discount is what the
 * plugin says it saved (the charge's own rounding), and any other discount (a coupon) is what
 * is left between the lines and the total, so nothing is lost to rounding.
 */
export function priceLines(amounts: {
  /** The items at their listed prices (Medusa's `item_subtotal`). */
  products: number;
  /** Shipping before discounts (`shipping_subtotal`). */
  shipping: number;
  /** What the shopper pays (`total`). */
  total: number;
  /** Integer cents the Pix discount takes off, as the plugin reports it. */
  pixSaved: number;
}): PriceLine[] {
  const products = centsOf(amounts.products);
  const shipping = centsOf(amounts.shipping);
  const total = centsOf(amounts.total);
  const other = products + shipping - amounts.pixSaved - total;
  return [
    { label: "Produtos", cents: products, kind: "amount" },
    { label: "Frete", cents: shipping, kind: "amount" },
    ...(amounts.pixSaved > 0
      ? [{ label: "Desconto no Pix", cents: -amounts.pixSaved, kind: "discount" as const }]
      : []),
    ...(other !== 0
      ? [
          {
            label: other > 0 ? "Outros descontos" : "Acréscimos",
            cents: -other,
            kind: "discount" as const,
          },
        ]
      : []),
    { label: "Total", cents: total, kind: "total" },
  ];
}

/** "R$ 3,99" or "−R$ 3,99". */
export function formatLine(line: PriceLine): string {
  return line.cents < 0 ? `−${formatCents(-line.cents)}` : formatCents(line.cents);
}
