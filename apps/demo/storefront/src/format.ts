import type { PixDiscount } from "./pix-discount";

// Display formatting. Medusa's store API gives amounts in reais (39.9); this is only for
// showing them, never for arithmetic.
const brl = new Intl.NumberFormat("pt-BR", { style: "currency", currency: "BRL" });

/** "R$ 39,90" */
export function formatMoney(amount: number | null | undefined): string {
  return brl.format(amount ?? 0);
}

/** Integer cents as "R$ 5,00" (the plugin's routes speak cents). */
export function formatCents(cents: number): string {
  return brl.format(cents / 100);
}

/** "5 % de desconto no Pix", or "R$ 10,00 de desconto no Pix" for a fixed discount. */
export function pixDiscountLabel(discount: PixDiscount | null): string | null {
  if (!discount?.enabled || discount.value <= 0) return null;
  const amount =
    discount.type === "percentage" ? `${discount.value} %` : formatCents(discount.value);
  return `${amount} de desconto no Pix`;
}

/**
 * A line's variant as the shopper should read it apart from the product ("Rede de descanso",
 * then "Azul"), or "" for a product sold in one variant ("Único", Medusa's "Default variant"):
 * that name says nothing, and beside the product it reads as part of it.
 */
export function variantLabel(item: {
  variant_title?: string | null;
  product_title?: string | null;
}): string {
  const title = (item.variant_title ?? "").trim();
  return /^(único|unico|padrão|default( variant)?)$/i.test(title) || title === item.product_title
    ? ""
    : title;
}
