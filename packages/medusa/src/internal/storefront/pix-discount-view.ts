import type { MedusaContainer } from "@medusajs/framework/types";
import type { ChargeRow } from "../records/charges";
import { pixDiscountOfCollection, type CodePixDiscount } from "../checkout/payment-method";
import type { StoreSessionView } from "./store-view";

/*
 * A code's discount is fixed when the code is created: a cart change that moves its total
 * deletes the session and supersedes the code. So each charge's discount is read once per
 * process (one Query read) and the status routes, polled and streamed, stay one row read.
 */
const MEMO_LIMIT = 5_000;
// Promises, so concurrent views of one charge share one read and resolve in the order asked
// (a stream must never write an older row's view after a newer one).
const memo = new Map<string, Promise<CodePixDiscount | null>>();

function discountOfCharge(scope: MedusaContainer, row: ChargeRow): Promise<CodePixDiscount | null> {
  const known = memo.get(row.charge_id);
  if (known) return known;
  const reading = pixDiscountOfCollection(scope, row.payment_collection_id!).then(
    (found) => found ?? null,
  );
  if (memo.size >= MEMO_LIMIT) memo.delete(memo.keys().next().value!);
  memo.set(row.charge_id, reading);
  // A failed read is tried again next time, not remembered.
  reading.catch(() => memo.delete(row.charge_id));
  return reading;
}

/**
 * Adds `pix_discount` to the view of a Pix code the discount applies to. A read that fails
 * leaves the view as it was: the discount is something to show, never a reason to hide a code.
 */
export async function withPixDiscount(
  scope: MedusaContainer,
  row: ChargeRow,
  view: StoreSessionView,
): Promise<StoreSessionView> {
  if (row.method !== "pix" || !row.payment_collection_id || !view.pix) return view;
  try {
    const discount = await discountOfCharge(scope, row);
    return discount ? { ...view, pix_discount: discount } : view;
  } catch {
    return view;
  }
}
