import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http";
import { ContainerRegistrationKeys } from "@medusajs/framework/utils";
import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import { z } from "zod";
import { sendError } from "../../../../../internal/platform/errors";
import {
  adminCharge,
  adminDelivery,
  chargesOfCollections,
} from "../../../../../internal/operations/admin-api";
import { recordsOf } from "../../../../../internal/records/records";
import { collectionsOfOrder } from "../../../../../internal/medusa/collection-links";
import { orderOutstanding } from "../../../../../internal/operations/order-outstanding";

const paramsSchema = z.object({ order_id: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/) });

/**
 * `GET /admin/pix-checkout/orders/:order_id`: the Pix and boleto charges of an order's
 * payment collections, newest first, each with its timeline (state changes and webhook
 * deliveries, oldest first), and `outstanding`: what the order still owes that a Pix link can
 * collect (an order edit's, exchange's or claim's difference, a converted draft's total), with
 * the link, or null. An order paid otherwise answers `{ charges: [], outstanding: null }`.
 * A refund's line carries `refund: { amount, medusa, note }`: what the merchant returned, what
 * of it Medusa's order records as refunded (the rest is the plugin's ledger only), and their note.
 */
export async function GET(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const parsed = paramsSchema.safeParse(req.params);
  if (!parsed.success) {
    sendError(res, "invalid_order_id", "order_id must be an order id such as order_01H....");
    return;
  }
  const db = req.scope.resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION);
  const [collections, outstanding] = await Promise.all([
    collectionsOfOrder(req.scope, parsed.data.order_id),
    orderOutstanding(
      req.scope,
      db,
      req.scope.resolve(ContainerRegistrationKeys.CONFIG_MODULE),
      parsed.data.order_id,
    ),
  ]);
  const records = recordsOf(db);
  const charges = await chargesOfCollections(records, collections);
  res.json({
    outstanding,
    charges: charges.map(({ row, events, deliveries }) => ({
      ...adminCharge(row),
      timeline: [
        ...events.map((e) => ({
          type: "state",
          id: e.id,
          kind: e.kind,
          source: e.source,
          from_status: e.from_status,
          to_status: e.to_status,
          ...reminderOf(e),
          ...refundOf(e),
          at: e.created_at,
        })),
        ...deliveries.map((d) => ({ type: "delivery", ...adminDelivery(d), at: d.created_at })),
      ].sort((a, b) => new Date(a.at as string).getTime() - new Date(b.at as string).getTime()),
    })),
  });
}

/**
 * A reminder line's step and, when it was not sent, why: read from the plugin's own timeline
 * row, and only as the closed words the admin translates.
 */
function reminderOf(event: Record<string, unknown>): {
  reminder?: { step: string; reason?: string };
} {
  if (event.kind !== "reminder_sent" && event.kind !== "reminder_skipped") return {};
  const detail = (typeof event.detail === "string" ? JSON.parse(event.detail) : event.detail) as {
    step?: unknown;
    reason?: unknown;
  } | null;
  const word = (value: unknown) =>
    typeof value === "string" && /^[a-z_]{1,40}$/.test(value) ? value : undefined;
  const step = word(detail?.step);
  if (!step) return {};
  const reason = word(detail?.reason);
  return { reminder: { step, ...(reason ? { reason } : {}) } };
}

/**
 * A refund line's figures and note, from the plugin's own timeline row: integer cents returned,
 * of them recorded on Medusa's payment, and what the merchant wrote.
 */
function refundOf(event: Record<string, unknown>): {
  refund?: { amount: number; medusa: number; note: string | null };
} {
  if (event.kind !== "refund_declared") return {};
  const detail = (typeof event.detail === "string" ? JSON.parse(event.detail) : event.detail) as {
    amount_cents?: unknown;
    medusa_cents?: unknown;
    note?: unknown;
  } | null;
  const cents = (value: unknown) =>
    typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? value : null;
  const amount = cents(detail?.amount_cents);
  if (amount === null) return {};
  return {
    refund: {
      amount,
      medusa: cents(detail?.medusa_cents) ?? 0,
      note: typeof detail?.note === "string" ? detail.note : null,
    },
  };
}
