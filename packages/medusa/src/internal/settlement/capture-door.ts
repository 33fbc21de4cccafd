import { PixCheckoutError } from "../platform/errors";
import { captureCents } from "../medusa/captures";
import type { SettlementCore } from "./context";
import { sessionMoney } from "./session-money";

/**
 * The provider's `capturePayment`: Medusa asks to capture a payment of this plugin's session.
 * The money of a Pix or boleto is captured when the payment service confirms it arrived, by
 * settlement, for what arrived (capture.ts); Medusa calls this inside settlement's own capture,
 * while settlement holds the session's capture claim for that amount. Any other capture (the
 * admin's Capture button, `POST /admin/payments/:id/capture`, an automation) is refused, so
 * Medusa never records as paid money that never arrived, or money settlement decided is owed
 * back.
 */
export async function captureStartedBySettlement(
  core: SettlementCore,
  sessionId: string,
  captureId: string | undefined,
): Promise<void> {
  const money = await sessionMoney(core, sessionId);
  const row = money && money.kind !== "request" ? money.row : undefined;
  const claimed = row
    ? await core.records.captures.liveClaimOf(row.charge_id, "settlement")
    : undefined;
  const cents = captureId ? await captureCents(core.db, captureId) : null;
  if (claimed === undefined || cents === null || cents > claimed) {
    throw new PixCheckoutError(
      "capture_not_started",
      "Pix Checkout captures Pix and boleto payments by itself, for what the payment service confirms arrived; a capture started anywhere else could record money that never came. Nothing was captured. To capture a paid charge now, use Re-check on the Pix Checkout page.",
    );
  }
}
