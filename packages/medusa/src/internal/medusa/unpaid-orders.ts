/**
 * Whether a cart that became an order before it was paid still holds its stock, as Medusa's
 * own tables say: its order exists, is not canceled, and its payment collection is still
 * waiting for money. A completion that has not made its order yet (a moment ago) holds too,
 * so two completions arriving together are both counted; one that made no order does not.
 *
 * A SQL condition over a row aliased `u` with a `cart_id` and a `placed_at` (create-line's
 * `pix_checkout_unpaid_order`); one raw read of `order_cart`, `order`,
 * `order_payment_collection` and `payment_collection`, as the other raw reads of this room.
 */
export const CART_ORDER_HOLDS_STOCK = `(
  exists (
    select 1 from order_cart oc
      join "order" o on o.id = oc.order_id and o.deleted_at is null and o.canceled_at is null
      join order_payment_collection opc on opc.order_id = o.id and opc.deleted_at is null
      join payment_collection pc on pc.id = opc.payment_collection_id and pc.deleted_at is null
     where oc.cart_id = u.cart_id and oc.deleted_at is null
       and pc.status in ('not_paid', 'awaiting', 'requires_action'))
  or (u.placed_at > now() - interval '2 minutes'
      and not exists (
        select 1 from order_cart oc where oc.cart_id = u.cart_id and oc.deleted_at is null)))`;
