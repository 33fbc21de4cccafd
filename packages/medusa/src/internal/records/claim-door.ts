/**
 * Which door holds a charge's capture claim (`capture_claim_door`):
 * - `settlement`: settlement's own capture (settlement/capture.ts), the only one Medusa's
 *   `capturePayment` is let through for (settlement/capture-door.ts);
 * - `authorize`: the provider's `authorizePayment` at cart completion, which answers `captured`
 *   so that Medusa captures inside the completion; it never calls `capturePayment`.
 */
export type ClaimDoor = "settlement" | "authorize";

/** Who holds a capture claim: its door, and its id within that door. */
export interface ClaimHolder {
  door: ClaimDoor;
  /** A capture's own id (settlement), or the session being authorized (authorize). */
  id: string;
}
