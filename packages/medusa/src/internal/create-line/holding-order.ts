import type { Vouch } from "./client-origin";

/** A waiting create as the line's order reads it. */
export interface WaitingCreate {
  id: string;
  provider_key: string;
  /** Place of arrival (bigint, read as a string). */
  seq: string;
  client_key: string | null;
  email_key: string | null;
  /** Who vouched that a shopper asked (client-origin.ts); null or absent: nobody. */
  vouched_by?: Vouch | null;
}

/** A waiting create in the order it is served, with what its client holds. */
export interface OrderedCreate extends WaitingCreate {
  /** Its client's unpaid codes and creates being sent (0 for a create no client asked for). */
  holding: number;
  /** Its turn: `holding` plus its place among its client's waiting creates (0: no client). */
  turn: number;
}

/**
 * The order the create line serves its waiting creates in: by what their clients already hold.
 * A client's n-th waiting create comes at turn (what the client holds + n), where what it holds
 * is its live, unpaid codes and its creates on their way to the service, read from the plugin's
 * own records (never from anything a client sends). The lowest turns go first, in order of
 * arrival among equals. So a shopper asking for its first code (turn 1) goes before every
 * client already holding one, however early that client's creates arrived; clients holding as
 * many take turns, one create each per round; and a flooding client, holding many, is still
 * served whenever no client holding fewer waits (its turns are finite, the line moves on).
 * Within a client, its mailboxes take turns the same way, so one cart's retries do not push
 * the client's other shoppers back. Creates no client asked for (admin, jobs) keep turn 0, in
 * the order they joined.
 *
 * Vouched creates (the storefront signed its shopper's address, or a mailbox with an order paid
 * here asked: client-origin.ts `Vouch`) go first, by the same turns among them, then the creates
 * nobody vouched for. Addresses alone cannot tell a flood from
 * shoppers once it comes from more fresh addresses than the service's minute serves: each
 * address is a newcomer at turn 1, as a shopper is. A flood that goes around the storefront
 * cannot sign; one that goes through it is signed with its own few addresses, whose turns the
 * storefront's shoppers' first codes come before. Creates no client asked for count as vouched
 * (the store itself asked).
 *
 * `waiting` must come in order of arrival; `holdingOf` says what a client holds (0 if absent).
 */
export function orderByHolding(
  waiting: readonly WaitingCreate[],
  holdingOf: (clientKey: string) => number,
): OrderedCreate[] {
  const perEmail = new Map<string, number>();
  const withEmailTurn = waiting.map((create, arrival) => {
    if (create.client_key === null) return { create, arrival, emailTurn: 0 };
    const key = `${create.client_key}\u0000${create.email_key ?? ""}`;
    const emailTurn = (perEmail.get(key) ?? 0) + 1;
    perEmail.set(key, emailTurn);
    return { create, arrival, emailTurn };
  });
  // Within a client: its mailboxes' first creates, then their second ones, each by arrival.
  const byClientPlace = [...withEmailTurn].sort(
    (a, b) => a.emailTurn - b.emailTurn || a.arrival - b.arrival,
  );
  const perClient = new Map<string, number>();
  const ordered = byClientPlace.map(({ create, arrival }) => {
    if (create.client_key === null) return { ...create, holding: 0, turn: 0, arrival };
    const place = (perClient.get(create.client_key) ?? 0) + 1;
    perClient.set(create.client_key, place);
    const holding = holdingOf(create.client_key);
    return { ...create, holding, turn: holding + place, arrival };
  });
  ordered.sort((a, b) => unvouched(a) - unvouched(b) || a.turn - b.turn || a.arrival - b.arrival);
  return ordered.map(({ arrival: _arrival, ...create }) => create);
}

/** 1 for a create a client asked for that nobody vouched for, else 0: the order's first key. */
function unvouched(create: WaitingCreate): number {
  return create.client_key !== null && !create.vouched_by ? 1 : 0;
}
