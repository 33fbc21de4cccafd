import type { OwnedSessionData } from "../checkout/session-data";
import type { ChargeStatus } from "../platform/status";
import type { ChargeRow } from "../records/charges";
import type { Decision } from "./decide";

/*
 * What a Medusa payment session answers (`authorizePayment` at cart completion,
 * `getPaymentStatus`), from the collection's decisions just recorded: pure, so its table of
 * tests (session-answer.test.ts) and `npm run mutation` load no Medusa. session-verdict.ts takes
 * the lease, decides and records, asks `verdictOf`, and turns its answer into Medusa's types.
 */

/**
 * A payment session's status, spelled as Medusa's `PaymentSessionStatus` values are.
 * session-verdict.ts, which reads both, compiles only while the two are the same words.
 */
export type SessionStatus =
  | "authorized"
  | "captured"
  | "pending"
  | "requires_more"
  | "error"
  | "canceled"
  | "pending_authorization";

/** The Medusa session a paid charge is captured on: its own, or the one it was adopted by. */
export const captureSessionOf = (row: ChargeRow): string =>
  row.capture_session_id ?? row.session_id;

/**
 * The one place API statuses become Medusa session statuses. `pending` maps to
 * `pending_authorization` (not `pending`) because that is what lets cart completion create
 * an order that waits for payment (order-first checkout).
 */
export function toSessionStatus(status: ChargeStatus): SessionStatus {
  switch (status) {
    case "paid":
      return "captured";
    case "pending":
      return "pending_authorization";
    case "expired":
      return "canceled";
    case "failed":
      return "error";
  }
}

/**
 * A session's answer: its status, and the charge whose code the session's data shows, under
 * the status `shows` (the charge's own when absent).
 */
export interface SessionAnswer {
  status: SessionStatus;
  row: ChargeRow;
  shows?: OwnedSessionData["status"];
}

/**
 * One charge's decision as collection.ts recorded it (its `Recorded`): the decision, the row as
 * the ledger holds it after, and, for a capture, the right to capture when the door got it.
 */
export interface DecidedCharge {
  decision: Decision;
  row: ChargeRow;
  claim?: unknown;
}

/**
 * This session's answer, from the decisions just recorded (`decided`, each charge's decision and
 * row as the ledger holds it now); `own` is the session's own charge. `authorizing`: cart
 * completion asks, and Medusa captures the session itself when the answer is `captured`.
 */
export function verdictOf(
  sessionId: string,
  own: ChargeRow,
  decided: readonly DecidedCharge[],
  authorizing: boolean,
): SessionAnswer {
  for (const { decision, row, claim } of decided) {
    const capturesOnThis = decision.kind === "capture" && decision.sessionId === sessionId;
    const ofThisSession = capturesOnThis || captureSessionOf(row) === sessionId;
    if (!ofThisSession) continue;
    // Money a MED blocked (contested) is still captured in Medusa.
    const inMedusa = Number(row.captured_cents) + Number(row.contested_cents ?? 0);
    if (inMedusa > 0 && decision.kind !== "refund_due") {
      return { status: "captured", row, shows: "paid" };
    }
    if (capturesOnThis) {
      // `captured` only with the right to capture: Medusa then captures inside cart completion.
      // Another door holding that right (a webhook's capture, in its own workflow right now)
      // captures the payment Medusa makes of an `authorized` answer, once. Less than the
      // session asks (an amount the merchant accepted, what a lowered collection still asks):
      // `authorized` too, and the capture (restating the session first) is the plugin's own.
      const capturesHere = (!authorizing || claim !== undefined) && !decision.partOfSession;
      return { status: capturesHere ? "captured" : "authorized", row, shows: "paid" };
    }
    if (decision.kind === "hold") {
      // Less money than the order costs: the order may be placed, awaiting the merchant.
      return { status: "pending_authorization", row, shows: "held" };
    }
  }
  if (own.status === "paid") {
    // Paid, but not this session's payment (a refund due): the cart does not complete on it.
    return { status: "error", row: own, shows: "refund_due" };
  }
  const status = own.status === "canceled" ? "canceled" : toSessionStatus(own.status);
  return { status, row: own };
}
