import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http";
import { ContainerRegistrationKeys } from "@medusajs/framework/utils";
import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import { recordsOf } from "../../../../internal/records/records";
import {
  adminClient,
  pickProvider,
  reaisToCents,
  sendUpstreamError,
} from "../../../../internal/operations/admin-api";

/**
 * `GET /admin/pix-checkout/balance[?provider=a]`: the account's balance, in cents, from the
 * payment API: available, pending, and the summary totals (the API's reais converted here);
 * and `ledger`, from the store's own ledger of what this registration's charges received: how
 * much of it is the store's (`captured` for orders), `owed` back to shoppers, `returned`, or
 * `held` (docs/ledger.md). The account's balance holds money that is not the store's: what is
 * owed back and what is held.
 */
export async function GET(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const picked = pickProvider(req, res);
  if (!picked) return;
  const db = req.scope.resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION);
  const key = picked.provider.key;
  const ledger = await recordsOf(db).ledger.totals([`pp_pix_${key}`, `pp_boleto_${key}`]);
  try {
    const client = await adminClient(req, picked.provider);
    const balance = await client.balance.retrieve();
    const raw = (balance.raw ?? {}) as { summary?: Record<string, unknown> };
    const summary = raw.summary ?? {};
    res.json({
      provider: picked.provider.key,
      providers: picked.all,
      balance: {
        available: balance.availableCents,
        pending: balance.pendingCents,
        currency: balance.currency,
        summary: {
          pending_balance: reaisToCents(summary.pending_balance),
          total_earned: reaisToCents(summary.total_earned),
          total_withdrawn: reaisToCents(summary.total_withdrawn),
        },
      },
      ledger,
    });
  } catch (error) {
    sendUpstreamError(res, error);
  }
}
