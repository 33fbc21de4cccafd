import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http";
import { ContainerRegistrationKeys } from "@medusajs/framework/utils";
import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import { z } from "zod";
import { recordsOf } from "../../../../internal/records/records";
import { ordersOfCharges } from "../../../../internal/medusa/charge-orders";
import { sendError } from "../../../../internal/platform/errors";
import {
  adminClient,
  adminMoney,
  pickProvider,
  sendUpstreamError,
} from "../../../../internal/operations/admin-api";

const querySchema = z.object({
  provider: z.string().optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  starting_after: z.string().min(1).max(200).optional(),
  type: z.enum(["charge", "withdrawal"]).optional(),
  status: z.enum(["pending", "paid", "expired", "failed", "processing"]).optional(),
  created_gte: z.iso.datetime({ offset: true }).optional(),
  created_lte: z.iso.datetime({ offset: true }).optional(),
});

/**
 * `GET /admin/pix-checkout/transactions`: one page of the account's transactions with the
 * spec's filters (`type`, `status`, `created_gte`, `created_lte`), `limit` (1–100) and the
 * cursor `starting_after` (pass back `next_cursor`). Amounts in cents; a fee and a net amount
 * only for a charge the service says was paid (an expired code brought nothing). A charge this
 * store made carries its Medusa `order` (`{ id, display_id, email, customer_name }`), else
 * null, and where its money stands in the store's ledger (`money`: captured for the order, owed
 * back, returned, held; docs/ledger.md), else null: "paga" alone does not say whose the money is.
 */
export async function GET(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const parsed = querySchema.safeParse(req.query);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    sendError(res, "invalid_filters", `Transaction filters are invalid. ${problems.join("; ")}.`);
    return;
  }
  const picked = pickProvider(req, res);
  if (!picked) return;
  const q = parsed.data;
  try {
    const client = await adminClient(req, picked.provider);
    const page = await client.transactions.list({
      limit: q.limit,
      ...(q.starting_after ? { startingAfter: q.starting_after } : {}),
      ...(q.type ? { type: q.type } : {}),
      ...(q.status ? { status: q.status } : {}),
      ...(q.created_gte ? { createdGte: q.created_gte } : {}),
      ...(q.created_lte ? { createdLte: q.created_lte } : {}),
    });
    // The store's own record of each charge ties it to its Medusa order (and so a customer).
    const records = recordsOf(req.scope.resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION));
    const local = await records.charges.byChargeIds(page.data.map((tx) => String(tx.id)));
    const orders = await ordersOfCharges(req.scope, [...local.values()]);
    res.json({
      provider: picked.provider.key,
      transactions: page.data.map((tx) => {
        const row = local.get(String(tx.id));
        const paid = tx.type !== "charge" || tx.status === "paid";
        return {
          id: tx.id,
          type: tx.type,
          status: tx.status,
          amount: tx.amountCents ?? null,
          fee: paid ? (tx.feeCents ?? null) : null,
          net_amount: paid ? (tx.netAmountCents ?? null) : null,
          description: tx.description ?? null,
          customer: tx.customer ?? null,
          order: orders.get(String(tx.id)) ?? null,
          money: row && row.status === "paid" ? adminMoney(row) : null,
          created_at: tx.createdAt ?? null,
          paid_at: tx.paidAt ?? null,
        };
      }),
      has_more: page.hasMore,
      next_cursor: page.nextCursor,
    });
  } catch (error) {
    sendUpstreamError(res, error);
  }
}
