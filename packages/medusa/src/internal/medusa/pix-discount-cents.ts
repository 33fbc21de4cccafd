import type { ICartModuleService, MedusaContainer } from "@medusajs/framework/types";
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils";
import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import { refreshPaymentCollectionForCartWorkflow } from "@medusajs/medusa/core-flows";
import { PixCheckoutError } from "../platform/errors";
import { isLockHeld } from "../platform/lock-held";
import { fromCents } from "../platform/money";
import { underCartLock } from "./cart-lock";
import { isPixAdjustment, PIX_DISCOUNT_CODE } from "./pix-discount";
import { centsOf, wholeCentShares, type Reais } from "./whole-cent-shares";

/*
 * The Pix discount is whole cents, everywhere it is shown.
 *
 * Medusa computes a percentage promotion without rounding: 5 % of R$ 79,90 is R$ 3,995. The
 * charge asks whole cents, the storefront shows the difference of two rounded totals (R$ 3,99),
 * and Medusa's order page rounds the discount on its own (R$ 4,00), so three people would read
 * three numbers and none of them would add up. Medusa has no rounding option, so the plugin
 * rounds the discount's own line adjustments after Medusa's promotion module writes them and
 * before the payment collection takes the cart's total: the discount, the cart total, the
 * code's amount, the order and the books then carry the same cents, with nothing left to round.
 *
 * The rule: the discount's total is rounded half up to the cent (the rounding of `toCents`,
 * and of Medusa's display), and spread over the cart's lines by largest remainder, so every
 * line's discount is whole cents too and the lines add up to the total (whole-cent-shares.ts,
 * which loads none of Medusa's workflows, so its tests and `npm run mutation` stay quick).
 */

interface AdjustmentRow {
  id: string;
  item_id: string;
  code?: string | null;
  amount: Reais;
}

/**
 * Rounds the Pix discount's adjustments on a cart to whole cents, as {@link wholeCentShares}
 * says. Returns whether it changed anything: a cart already in whole cents (or without the
 * discount) is not written. The cart's other adjustments are kept as they are, in the same
 * write, so no reader sees a cart with some of its discounts missing.
 */
export async function roundPixDiscountToCents(
  container: MedusaContainer,
  cartId: string,
): Promise<boolean> {
  // Every re-pricing of every cart of the store runs this, and most carts have no Pix discount:
  // one statement tells, before the cart module loads the cart's lines (bench/store-cost.mjs).
  const db = container.resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION);
  const { rows } = await db.raw<{ rows: unknown[] }>(
    `select 1 from cart_line_item_adjustment a
       join cart_line_item i on i.id = a.item_id and i.deleted_at is null
      where i.cart_id = ? and a.code = ? and a.deleted_at is null
      limit 1`,
    [cartId, PIX_DISCOUNT_CODE],
  );
  if (rows.length === 0) return false;
  const carts = container.resolve<ICartModuleService>(Modules.CART);
  const cart = await carts.retrieveCart(cartId, {
    select: ["id"],
    relations: ["items", "items.adjustments"],
  });
  const adjustments = (cart.items ?? []).flatMap(
    (item) => (item.adjustments ?? []) as unknown as AdjustmentRow[],
  );
  const pix = adjustments.filter(isPixAdjustment);
  if (pix.length === 0) return false;
  const shares = wholeCentShares(pix.map((adjustment) => adjustment.amount));
  const rounded = new Map(pix.map((adjustment, index) => [adjustment.id, shares[index]!]));
  const unchanged = pix.every((adjustment) =>
    centsOf(adjustment.amount).isEqualTo(rounded.get(adjustment.id)!),
  );
  if (unchanged) return false;
  await carts.setLineItemAdjustments(
    cartId,
    adjustments.map((adjustment) =>
      rounded.has(adjustment.id)
        ? {
            id: adjustment.id,
            item_id: adjustment.item_id,
            amount: fromCents(rounded.get(adjustment.id)!),
          }
        : { id: adjustment.id, item_id: adjustment.item_id },
    ),
  );
  return true;
}

/**
 * The same rounding from outside Medusa's cart workflows, under the cart's lock (the key
 * Medusa's own cart workflows lock), then the payment collection re-priced when it changed.
 * For the one path where Medusa re-prices a cart without the hook: `updateCartPromotionsWorkflow`
 * run on its own, as `POST /store/carts/:id/promotions` does.
 */
export async function roundPixDiscountOfCart(
  container: MedusaContainer,
  cartId: string,
): Promise<void> {
  const round = () => roundPixDiscountToCents(container, cartId);
  let changed: boolean;
  try {
    changed = await underCartLock(container, cartId, round);
  } catch (error) {
    if (!isLockHeld(error)) throw error;
    // Another request is changing the cart: no session on a total that may be about to move.
    throw new PixCheckoutError(
      "collection_busy",
      "Another request is changing this cart right now; nothing was changed. Try again in a few seconds.",
    );
  }
  if (changed) {
    await refreshPaymentCollectionForCartWorkflow(container).run({ input: { cart_id: cartId } });
  }
}
