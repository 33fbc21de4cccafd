import type { ChargeRow } from "../records/charges";
import { CreateQueue, type CreateRequestRow } from "../create-line/queue";
import { createLineOf, type CreateLine } from "../create-line/line";
import { clientFor, registeredProviders } from "../platform/provider-registry";
import type { SettlementCore } from "./context";
import { keepsItsSession } from "./decide";

/**
 * A Medusa payment session's money, as the plugin's own records know it: the charge that pays
 * for the session, or the create request its code waits on.
 * - `adopted`: a paid replaced code of the same cart the session took over (decide.ts);
 * - `own`: the charge the plugin created for the session (or reused for it);
 * - `request`: the session's create, still in the line (or ended there without a charge).
 */
export type SessionMoney =
  | { kind: "adopted"; row: ChargeRow }
  | { kind: "own"; row: ChargeRow }
  | { kind: "request"; request: CreateRequestRow };

/**
 * The one way a door finds a session's money: through the plugin's records keyed by the
 * session, never through an id the storefront wrote into the session's data (which the
 * payment service would read in other spellings, and which may be another cart's charge).
 * Undefined when the plugin never asked for money on this session.
 *
 * Money that keeps the session comes first, from every paid charge on it (`paidOnSession`):
 * an older code the session adopted stays marked so after it was owed back (the session's own
 * code was captured or held for the capture instead), and the mark alone would answer for the
 * wrong charge (authorize, capture, delete).
 */
export async function sessionMoney(
  core: SettlementCore,
  sessionId: string,
): Promise<SessionMoney | undefined> {
  const paid = await core.records.charges.paidOnSession(sessionId);
  const adoptedHere = (row: ChargeRow) => row.capture_session_id === sessionId;
  const keeping = paid.find(keepsItsSession);
  if (keeping) return { kind: adoptedHere(keeping) ? "adopted" : "own", row: keeping };
  // The same list holds what the session adopted, kept or not (paidOnSession lists it first).
  const adopted = paid.find(adoptedHere);
  if (adopted) return { kind: "adopted", row: adopted };
  const own = await core.records.charges.bySessionId(sessionId);
  if (own) return { kind: "own", row: own };
  const request = await new CreateQueue(core.db).latestOfSession(sessionId);
  // A request done with a charge that is no longer this session's (another session of the
  // cart reused it) leaves this session with no money of its own.
  if (request && request.state !== "done") return { kind: "request", request };
  return undefined;
}

/** This process's create line, able to send every registration's requests. */
export function lineOf(core: SettlementCore): CreateLine {
  const line = createLineOf(core.db, core.config);
  for (const provider of registeredProviders(core.config)) {
    line.register(provider.key, {
      options: provider.options,
      client: () => clientFor(provider, core.logger),
      lifecycle: core.lifecycle,
      logger: core.logger,
    });
  }
  return line;
}
