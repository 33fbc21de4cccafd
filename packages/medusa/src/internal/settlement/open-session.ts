import type { PaymentServiceClient } from "../platform/client-port";
import { PixCheckoutError } from "../platform/errors";
import type { PaymentMethod, PixCheckoutOptions } from "../platform/options";
import { keyOfProviderId } from "../platform/provider-registry";
import type { ChargeRow } from "../records/charges";
import { sessionInfo, type SessionInfo } from "../medusa/session-info";
import type { ContextCustomer } from "../checkout/boleto-payer";
import { chargeInputOf } from "../checkout/charge-input";
import {
  ownedOfCharge,
  ownedOfRequest,
  type OwnedSessionData,
  type SessionInput,
} from "../checkout/session-data";
import { askerFor, type SessionAsker } from "../checkout/session-tie";
import { originOf } from "../create-line/client-origin";
import { budgetKeyOf, createLineOf, type CreateLine } from "../create-line/line";
import { readMedusaSide, type MedusaSide } from "../medusa/collection-snapshot";
import { metadataOfOrder } from "../medusa/order-metadata";
import { buyerDocumentOnOrder } from "../platform/buyer-document";
import { sessionCentsOf } from "../platform/money";
import { refusalOf } from "./paid-collection-guard";
import { collectionStanding, newCodeCents } from "./snapshot";
import type { SettlementCore } from "./context";
import { sessionMoney, type SessionMoney } from "./session-money";

/** A charge is reused only while the shopper still has this long to pay it. */
const REUSE_MARGIN_MS = 2 * 60_000;

/** What opening a session's money needs from the provider that was asked. */
export interface OpenSessionRequest {
  sessionId: string;
  method: PaymentMethod;
  amountCents: number;
  /** The payer's details the storefront sent (checkout/session-data.ts), nothing else. */
  input: SessionInput;
  /** The logged-in customer Medusa passes, if any. */
  customer: ContextCustomer | undefined;
  /** The asked provider's registration. */
  options: PixCheckoutOptions;
  /** The asked provider's client. */
  client: () => Promise<PaymentServiceClient>;
  /** This process's create line, able to send the creates of the registration with this key. */
  line: (providerKey: string) => CreateLine;
}

/**
 * A Medusa payment session asks for money (`initiatePayment`): the session must exist in
 * Medusa; a collection already paid gets no second code; a collection partly paid (an order
 * edited up after its code was paid) gets a code for what it still asks, not for the whole
 * (Medusa gives every new session the collection's amount); a still-payable code of the same
 * collection and amount is shown again; otherwise the create line asks the service for a charge,
 * which is recorded for this session before anyone sees it (or the session waits in line,
 * `preparing`).
 */
export async function openSession(
  core: SettlementCore,
  asked: OpenSessionRequest,
): Promise<OwnedSessionData> {
  const { sessionId } = asked;
  const session = await sessionInfo(core.db, sessionId);
  if (!session) {
    throw new PixCheckoutError(
      "session_not_found",
      `Payment session ${sessionId} does not exist; nothing was charged. Create the payment session again.`,
    );
  }
  const side = await readMedusaSide(core.db, session.payment_collection_id);
  const amountCents = await amountStillAsked(
    core,
    session.payment_collection_id,
    side,
    asked.amountCents,
  );
  // Who asks (checkout/session-tie.ts): a live code is shown again, and a document filled in,
  // only for a request tied to the shopper of the earlier code, or for Medusa's own re-create.
  const asker = askerFor(session.payment_collection_id);
  const request = {
    ...asked,
    amountCents,
    input: await withKnownDocument(core, session.payment_collection_id, side, asked, asker),
  };
  const reused = asker?.kind === "foreign" ? undefined : await reuse(core, request, session);
  if (reused) return ownedOfCharge(reused, sessionId);
  const providerKey = keyOfProviderId(session.provider_id);
  const outcome = await request.line(providerKey).request({
    budgetKey: budgetKeyOf(request.options),
    providerKey,
    providerId: session.provider_id,
    method: request.method,
    sessionId,
    paymentCollectionId: session.payment_collection_id,
    salesChannelId: session.sales_channel_id ?? null,
    amountCents,
    input: chargeInputOf(
      request.method,
      amountCents,
      request.input,
      request.customer,
      sessionId,
      request.options.buyerDocument,
    ),
    // The store's session route says who asked; Medusa's own re-creates have no one.
    origin: originOf(session.payment_collection_id),
  });
  if (outcome.kind === "created") return ownedOfCharge(outcome.charge, sessionId);
  // Past the minute's budget: the session exists at once and its code follows through the
  // session's stream (store routes: status `preparing`, with an estimate).
  core.logger.info(
    `create for session ${sessionId} waits in line (${outcome.place.ahead} ahead, about ${Math.ceil(outcome.place.readyInMs / 1000)} s)`,
  );
  return ownedOfRequest({
    ...outcome.request,
    readyAt: new Date(Date.now() + outcome.place.readyInMs),
  });
}

/**
 * Medusa updates a session (`updatePayment`). The session's money stays as it is when nothing
 * about what it asks changes: the same amount as its code (Medusa, or the plugin canceling an
 * ended session, only restates it), the amount Medusa's session holds now (a status-only update
 * never opens a code), or a code already paid (settlement restates a paid session to what it
 * captures: an amount the merchant accepted, what a lowered collection still asks). Another
 * amount of an unpaid session needs another charge, since the API cannot change one, so the
 * session's code is replaced (it stays payable at the bank until it expires, and a payment of it
 * still gets its fate: decide.ts) and a new one is asked for. `changed` says which.
 */
export async function updateSession(
  core: SettlementCore,
  request: OpenSessionRequest,
): Promise<{ owned: OwnedSessionData; changed: boolean }> {
  const money = await sessionMoney(core, request.sessionId);
  if (money && (await keepsItsMoney(core, money, request))) {
    return { owned: ownedOf(money, request.sessionId), changed: false };
  }
  if (money?.kind === "own") {
    await core.lifecycle.superseded(money.row.charge_id, "provider", request.sessionId);
  } else if (money?.kind === "request") {
    await createLineOf(core.db, core.config).cancelForSession(request.sessionId);
  }
  return { owned: await openSession(core, request), changed: true };
}

/** Whether an update of a session leaves its money as it is (see `updateSession`). */
async function keepsItsMoney(
  core: SettlementCore,
  money: SessionMoney,
  request: OpenSessionRequest,
): Promise<boolean> {
  if (askedOf(money) === request.amountCents) return true;
  if (money.kind !== "request" && money.row.status === "paid") return true;
  const session = await sessionInfo(core.db, request.sessionId);
  return session?.amount != null && sessionCentsOf(session.amount) === request.amountCents;
}

/**
 * What a new code of the collection asks, in cents: what Medusa gave the session, or, once the
 * collection's charges paid part of it, what they left (decide.ts `coverageOf`). A collection
 * paid in full, or whose payment waits for the merchant, gets no code (`collection_already_paid`):
 * Medusa recreates a session on its own (cart-completion compensation after a capture, a
 * refreshed cart), and a new code there would ask a shopper who already paid to pay again.
 */
async function amountStillAsked(
  core: SettlementCore,
  paymentCollectionId: string,
  side: MedusaSide,
  sessionCents: number,
): Promise<number> {
  const standing = await collectionStanding(core.records, core.config, paymentCollectionId, side);
  const refusal = refusalOf(standing);
  if (refusal) throw new PixCheckoutError("collection_already_paid", refusal);
  return newCodeCents(standing, sessionCents);
}

/**
 * The buyer's document is asked once, of the shopper who gave it: a renewal (the element's
 * "Gerar novo código" after expiry, a reminder's new code) is created with the document of the
 * code it renews, from the plugin's own records, never from anything a client wrote. A boleto
 * prints its payer's document on a page anyone with its link opens, so a store request's boleto
 * carries only the document that request sent; no other request is filled (a collection's id is
 * no proof of who asks: checkout/session-tie.ts), and a boleto without one is refused
 * `missing_payer_data`. Medusa's own re-create of a session (no store request) keeps the
 * collection's newest document, as the shopper's session it replaces had. A document sent wins.
 *
 * A store that asks the document on every order (`buyerDocument: "every_order"`, for the nota
 * fiscal) already has it on an order's own collection (an order edit's difference, an exchange's,
 * a converted draft): the buyer's document the plugin wrote on Medusa's order. A Pix of that
 * collection carries it, whoever opens the payment link, since a Pix shows its payer to nobody
 * (the session's data echoes only what its request sent) and the nota fiscal of the difference
 * is the same buyer's; the link's page has no field to type it.
 */
async function withKnownDocument(
  core: SettlementCore,
  paymentCollectionId: string,
  side: MedusaSide,
  asked: Pick<OpenSessionRequest, "input" | "method" | "options">,
  asker: SessionAsker | undefined,
): Promise<SessionInput> {
  const { input } = asked;
  if (input.document?.trim()) return input;
  let known: string | null | undefined;
  if (!asker) {
    const rows = await core.records.charges.ofCollection(paymentCollectionId);
    known = [...rows].reverse().find((row) => row.buyer_document)?.buyer_document;
  } else if (asker.kind === "renewal" && asked.method !== "boleto") {
    known = asker.renews.buyer_document;
  }
  if (!known && asked.method !== "boleto" && asked.options.buyerDocument === "every_order") {
    known = await documentOnOrder(core, side);
  }
  return known ? { ...input, document: known } : input;
}

/** The buyer's document the plugin wrote on the collection's order, if it has an order. */
async function documentOnOrder(
  core: SettlementCore,
  side: MedusaSide,
): Promise<string | undefined> {
  if (!side.order) return undefined;
  return buyerDocumentOnOrder(await metadataOfOrder(core.db, side.order.id))?.number;
}

/** What a session's money asked for, in cents. */
function askedOf(money: SessionMoney): number {
  return Number(money.kind === "request" ? money.request.amount_cents : money.row.amount_cents);
}

/** The plugin-owned data of a session's money as it stands. */
export function ownedOf(money: SessionMoney, sessionId: string): OwnedSessionData {
  return money.kind === "request"
    ? ownedOfRequest(money.request)
    : ownedOfCharge(money.row, sessionId);
}

/**
 * Medusa replaces a collection's session when the cart changes and changes back; the
 * charge already shown is reused while it is pending, unexpired and for the same amount,
 * so the shopper never has two payable codes for one cart.
 */
async function reuse(
  core: SettlementCore,
  request: OpenSessionRequest,
  session: SessionInfo,
): Promise<ChargeRow | undefined> {
  const reusable = await core.records.charges.findReusable({
    paymentCollectionId: session.payment_collection_id,
    providerId: session.provider_id,
    amountCents: request.amountCents,
    notExpiringBefore: new Date(Date.now() + REUSE_MARGIN_MS),
  });
  if (!reusable?.display) return undefined;
  const status = await (
    await request.client()
  ).charges
    .status(reusable.charge_id)
    .catch(() => undefined);
  if (status?.status !== "pending") return undefined;
  return core.lifecycle.reused(reusable, request.sessionId);
}
