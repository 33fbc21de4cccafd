import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http";
import { ContainerRegistrationKeys, PaymentSessionStatus } from "@medusajs/framework/utils";
import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import { sendError } from "../platform/errors";
import { cartWith } from "../medusa/carts";
import { Charges } from "../records/charges";
import { emailKey } from "./client-origin";
import { clientOfRequest } from "./client-of-request";
import { fairOptions } from "./fair-options";
import { CreateQueue } from "./queue";
import { OWN_PROVIDER } from "../platform/provider-registry";
import type { UnpaidOrderRefusal } from "./unpaid-order-caps";
import { UnpaidOrders } from "./unpaid-orders";

/** The session statuses Medusa's completion takes a payment from, in its own order. */
const PROCESSABLE: readonly string[] = [
  PaymentSessionStatus.PENDING,
  PaymentSessionStatus.REQUIRES_MORE,
  PaymentSessionStatus.AUTHORIZED,
  PaymentSessionStatus.CAPTURED,
  PaymentSessionStatus.PENDING_AUTHORIZATION,
];

interface GateCart {
  id: string;
  email?: string | null;
  completed_at?: string | Date | null;
  items?: { quantity?: number | string | null }[] | null;
  payment_collection?: {
    payment_sessions?: { id: string; provider_id: string; status: string }[] | null;
  } | null;
}

/** Whether the cart's payment collection holds a live session of the plugin's providers. */
async function hasOwnSession(db: Knex, cartId: string): Promise<boolean> {
  const { rows } = await db.raw<{ rows: unknown[] }>(
    `select 1 from cart_payment_collection cpc
       join payment_session ps on ps.payment_collection_id = cpc.payment_collection_id
        and ps.deleted_at is null and ps.provider_id ~ ?
      where cpc.cart_id = ? and cpc.deleted_at is null
      limit 1`,
    [OWN_PROVIDER.source, cartId],
  );
  return rows.length > 0;
}

/**
 * The first middleware of `POST /store/carts/:id/complete`: a cart about to become an order
 * before its Pix or boleto is paid (order-first, whose stock Medusa then reserves until the
 * code is paid or ends) is counted against its client, its mailbox and its payer document, and
 * refused with 429 `too_many_unpaid_orders` past `fairness.unpaidOrdersMax` orders or
 * `unpaidUnitsMax` units held by any of them; nothing is made. A cart whose code is paid
 * (pay-first), or whose payment is another provider's, is Medusa's to complete as it is.
 *
 * The session Medusa completes with is the collection's first in a status it takes
 * (validate-cart-payments in Medusa's core flows): only when that one is this plugin's, and its
 * money (found through the plugin's records of the session) is not paid, is an order made
 * before payment.
 */
export async function capUnpaidOrders(
  req: MedusaRequest,
  res: MedusaResponse,
  next: MedusaNextFunction,
): Promise<void> {
  const cartId = (req.params as Record<string, string | undefined>).id;
  if (!cartId) return next();
  try {
    const db = req.scope.resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION);
    // Every completion of the store comes through here: a cart with no session of the plugin's
    // is told by one statement, before Query's reads of the cart (bench/store-cost.mjs).
    if (!(await hasOwnSession(db, cartId))) return next();
    const cart = await cartWith<GateCart>(req.scope, cartId, [
      "id",
      "email",
      "completed_at",
      "items.quantity",
      "payment_collection.payment_sessions.id",
      "payment_collection.payment_sessions.provider_id",
      "payment_collection.payment_sessions.status",
    ]);
    // No such cart, or one already an order: Medusa answers as it always has.
    if (!cart || cart.completed_at || !cart.email) return next();
    const session = (cart.payment_collection?.payment_sessions ?? []).find((s) =>
      PROCESSABLE.includes(s.status),
    );
    if (!session || !OWN_PROVIDER.test(session.provider_id)) return next();

    const charge = await new Charges(db).bySessionId(session.id);
    // Paid: the completion captures it, and no order waits for money.
    if (charge?.status === "paid") return next();
    const request = await new CreateQueue(db).latestOfSession(session.id);
    if (!charge && !request) return next();

    const options = fairOptions(req.scope.resolve(ContainerRegistrationKeys.CONFIG_MODULE));
    const units = (cart.items ?? []).reduce((sum, item) => sum + Number(item.quantity ?? 0), 0);
    if (units <= 0) return next();
    const refusal = await new UnpaidOrders(db).admit(
      {
        cartId,
        sessionId: session.id,
        clientKey: clientOfRequest(req),
        emailKey: emailKey(cart.email),
        payerKey: request?.payer_key ?? null,
        units,
      },
      options,
    );
    if (refusal) return refuse(res, refusal, options, units);
  } catch (error) {
    return next(error);
  }
  next();
}

function refuse(
  res: MedusaResponse,
  refusal: UnpaidOrderRefusal,
  caps: { unpaidOrdersMax: number; unpaidUnitsMax: number },
  units: number,
): void {
  const who = { client: "this address", email: "this e-mail", document: "this CPF/CNPJ" }[
    refusal.over
  ];
  const message =
    refusal.cap === "orders"
      ? `${who} already has ${refusal.holding.orders} orders awaiting payment (at most ${caps.unpaidOrdersMax}); their stock stays reserved until they are paid or their codes end. Pay one of them, or pay this cart before it becomes an order; nothing was made.`
      : `${who} would hold ${refusal.holding.units + units} units in orders awaiting payment (at most ${caps.unpaidUnitsMax}); pay this cart before it becomes an order, or pay an earlier one; nothing was made.`;
  sendError(res, "too_many_unpaid_orders", message, {
    over: refusal.over,
    cap: refusal.cap,
    limit: refusal.cap === "orders" ? caps.unpaidOrdersMax : caps.unpaidUnitsMax,
  });
}
