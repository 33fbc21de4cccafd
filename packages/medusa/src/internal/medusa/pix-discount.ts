import type {
  BigNumberInput,
  IPromotionModuleService,
  MedusaContainer,
} from "@medusajs/framework/types";
import { ContainerRegistrationKeys, MathBN, Modules } from "@medusajs/framework/utils";
import { createPromotionsWorkflow } from "@medusajs/medusa/core-flows";
import { fromCents, toCents } from "../platform/money";

/*
 * The Pix discount is one automatic Medusa promotion whose only rule is on the cart's
 * metadata: `metadata.pix_checkout_method` = `pix`. Medusa's promotion module evaluates that
 * rule every time it refreshes the cart (any cart update, line item change or promo code), so
 * the discount, its taxes, the payment collection's amount and the order's adjustments are all
 * Medusa's own. The plugin only writes the method on the cart and keeps the promotion.
 */

/** The cart metadata key the promotion's rule reads: `pix`, `boleto` or `other`. */
export const METHOD_METADATA_KEY = "pix_checkout_method";

/** The rule attribute Medusa's promotion module matches against the cart. */
export const METHOD_RULE_ATTRIBUTE = `metadata.${METHOD_METADATA_KEY}`;

/** The code of the one promotion the plugin manages; shoppers see it among the cart's promotions. */
export const PIX_DISCOUNT_CODE = "DESCONTO-PIX";

/**
 * The campaign the promotion belongs to: Medusa's promotion page shows no metadata rule, so
 * without it the discount looks like 5 % off for everyone. Its name and description say what it
 * is, in the merchant's language.
 */
export const PIX_DISCOUNT_CAMPAIGN = {
  campaign_identifier: "pix-checkout-desconto-pix",
  name: "Desconto no Pix",
  description:
    "Somente pagamento por Pix, gerenciado pelo Pix Checkout: vale quando o cliente escolhe Pix " +
    "no checkout. Altere o valor na página Pix Checkout do admin.",
} as const;

/**
 * A cart's or order's line (an item or a shipping method) with its promotions' adjustments. An
 * order's line also says which order version it is (`detail.version`, Medusa's `order_item` or
 * `order_shipping` row) and each adjustment its own `version`: Medusa keeps every version's
 * adjustments, and an order edit writes a new set for the new version beside the old ones.
 */
export interface AdjustedLine {
  detail?: { version?: number | null } | null;
  adjustments?: { code?: string | null; amount: unknown; version?: number | null }[] | null;
}

/** The one rule of which of a line's adjustments is the Pix discount: its promotion's code. */
export function isPixAdjustment(adjustment: { code?: string | null }): boolean {
  return adjustment.code === PIX_DISCOUNT_CODE;
}

/**
 * A line's adjustments of the version it is in, as Medusa's own order reads load them (an
 * adjustment of the line's `detail.version`): after an order edit, Query hands back the
 * adjustments of every version, so the discount of an order edited once would count twice.
 * `orderVersion` stands in when the line does not say its own. A cart's lines have no versions:
 * all their adjustments are current.
 */
export function currentAdjustments(
  line: AdjustedLine,
  orderVersion?: number | null,
): NonNullable<AdjustedLine["adjustments"]> {
  const version = line.detail?.version ?? orderVersion ?? null;
  const adjustments = line.adjustments ?? [];
  if (version === null) return adjustments;
  return adjustments.filter((adjustment) => (adjustment.version ?? version) === version);
}

/** The Pix discount's own adjustments on a cart's or an order's lines, in reais as Medusa stores them. */
export function pixAdjustmentAmounts(
  lines: readonly AdjustedLine[],
  orderVersion?: number | null,
): unknown[] {
  return lines
    .flatMap((line) => currentAdjustments(line, orderVersion))
    .filter(isPixAdjustment)
    .map((adjustment) => adjustment.amount);
}

/**
 * The Pix discount an order's current version records, in integer cents (0 without it): what
 * Medusa's order page shows as its discount, whole cents by medusa/pix-discount-cents, so
 * nothing is rounded here but the sum. `orderVersion`: the order's `version`, for lines that do
 * not say theirs.
 */
export function pixDiscountCentsOfLines(
  lines: readonly AdjustedLine[],
  orderVersion?: number | null,
): number {
  const amounts = pixAdjustmentAmounts(lines, orderVersion);
  if (amounts.length === 0) return 0;
  const sum = amounts.reduce<BigNumberInput>(
    (total, amount) => MathBN.add(total, amount as BigNumberInput),
    MathBN.convert(0),
  );
  return MathBN.lte(sum, 0) ? 0 : toCents(sum);
}

/** The payment method a shopper chose, as the rule reads it. */
export type ChosenMethod = "pix" | "boleto" | "other";

/** The discount as the admin sets it and the storefront shows it. */
export interface PixDiscountSetting {
  enabled: boolean;
  /** `percentage`: `value` is whole percent (1–90). `fixed`: `value` is integer cents off the order. */
  type: "percentage" | "fixed";
  value: number;
  /** The managed Medusa promotion, once created (link it as /app/promotions/:id). */
  promotion_id: string | null;
  code: string;
}

interface PromotionRow {
  id: string;
  status: string;
  campaign_id?: string | null;
  application_method?: { id: string; type: string; value: unknown } | null;
}

async function managedPromotion(container: MedusaContainer): Promise<PromotionRow | undefined> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY);
  const { data } = await query.graph({
    entity: "promotion",
    fields: [
      "id",
      "status",
      "campaign_id",
      "application_method.id",
      "application_method.type",
      "application_method.value",
    ],
    filters: { code: PIX_DISCOUNT_CODE },
  });
  return data[0] as PromotionRow | undefined;
}

/** The discount as it stands: disabled with no promotion until the merchant turns it on. */
export async function readPixDiscount(container: MedusaContainer): Promise<PixDiscountSetting> {
  const promotion = await managedPromotion(container);
  const method = promotion?.application_method;
  if (!promotion || !method) {
    return {
      enabled: false,
      type: "percentage",
      value: 0,
      promotion_id: null,
      code: PIX_DISCOUNT_CODE,
    };
  }
  const type = method.type === "fixed" ? "fixed" : "percentage";
  const raw = method.value as number | string | { value?: string };
  const amount = typeof raw === "object" && raw !== null ? String(raw.value) : String(raw);
  return {
    enabled: promotion.status === "active",
    type,
    // A fixed discount is stored in reais by Medusa; the plugin speaks integer cents.
    value: type === "fixed" ? toCents(amount) : Number(amount),
    promotion_id: promotion.id,
    code: PIX_DISCOUNT_CODE,
  };
}

/** What the admin sends to change the discount. */
export interface PixDiscountChange {
  enabled: boolean;
  type: "percentage" | "fixed";
  value: number;
}

function applicationValue(change: PixDiscountChange): number {
  return change.type === "fixed" ? fromCents(change.value).numeric : change.value;
}

/** The id of the discount's campaign, created the first time it is needed. */
async function pixDiscountCampaign(container: MedusaContainer): Promise<string> {
  const promotions = container.resolve<IPromotionModuleService>(Modules.PROMOTION);
  const [found] = await promotions.listCampaigns({
    campaign_identifier: [PIX_DISCOUNT_CAMPAIGN.campaign_identifier],
  });
  if (found) return found.id;
  const [created] = await promotions.createCampaigns([{ ...PIX_DISCOUNT_CAMPAIGN }]);
  return created!.id;
}

/**
 * Creates the managed promotion the first time, and afterwards updates its amount and status.
 * Turning the discount off makes the promotion `inactive` (kept, so its orders still point at
 * it); carts drop it on their next refresh.
 */
export async function savePixDiscount(
  container: MedusaContainer,
  change: PixDiscountChange,
): Promise<PixDiscountSetting> {
  const existing = await managedPromotion(container);
  const applicationMethod = {
    type: change.type,
    target_type: "order" as const,
    allocation: "across" as const,
    value: applicationValue(change),
    currency_code: "brl",
  };
  const status = change.enabled ? ("active" as const) : ("inactive" as const);
  if (!existing) {
    await createPromotionsWorkflow(container).run({
      input: {
        promotionsData: [
          {
            code: PIX_DISCOUNT_CODE,
            type: "standard",
            status,
            is_automatic: true,
            campaign_id: await pixDiscountCampaign(container),
            application_method: applicationMethod,
            rules: [{ attribute: METHOD_RULE_ATTRIBUTE, operator: "eq", values: ["pix"] }],
          },
        ],
      },
    });
  } else {
    const promotions = container.resolve<IPromotionModuleService>(Modules.PROMOTION);
    await promotions.updatePromotions({
      id: existing.id,
      status,
      application_method: applicationMethod,
      // A promotion made before the campaign existed gets it on its next change.
      ...(existing.campaign_id ? {} : { campaign_id: await pixDiscountCampaign(container) }),
    });
  }
  return readPixDiscount(container);
}

/**
 * The Pix discount each order's current version records, in integer cents (0 without it): the
 * number Medusa's order page shows and the shopper was told, once however often the order was
 * edited. The books' one reading of it (books/books-loader.ts).
 */
export async function pixDiscountsOfOrders(
  container: MedusaContainer,
  orderIds: readonly string[],
): Promise<Map<string, number>> {
  const discounts = new Map<string, number>();
  if (orderIds.length === 0) return discounts;
  const query = container.resolve(ContainerRegistrationKeys.QUERY);
  const { data } = await query.graph({
    entity: "order",
    fields: [
      "id",
      "version",
      "items.detail.version",
      "items.adjustments.code",
      "items.adjustments.amount",
      "items.adjustments.version",
      "shipping_methods.detail.version",
      "shipping_methods.adjustments.code",
      "shipping_methods.adjustments.amount",
      "shipping_methods.adjustments.version",
    ],
    filters: { id: [...orderIds] },
  });
  for (const order of data as {
    id: string;
    version?: number | null;
    items?: AdjustedLine[] | null;
    shipping_methods?: AdjustedLine[] | null;
  }[]) {
    discounts.set(
      order.id,
      pixDiscountCentsOfLines(
        [...(order.items ?? []), ...(order.shipping_methods ?? [])],
        order.version,
      ),
    );
  }
  return discounts;
}
