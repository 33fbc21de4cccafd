import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http";
import {
  adminClient,
  pickProvider,
  reaisToCents,
  sendUpstreamError,
} from "../../../../internal/operations/admin-api";

/**
 * `GET /admin/pix-checkout/balance[?provider=a]`: the account's balance, in cents, from the
 * payment API: available, pending, and the summary totals (the API's reais converted here).
 */
export async function GET(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const picked = pickProvider(req, res);
  if (!picked) return;
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
    });
  } catch (error) {
    sendUpstreamError(res, error);
  }
}
