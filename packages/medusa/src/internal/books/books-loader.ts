import type {
  BigNumberInput,
  FilterableCaptureProps,
  FilterableRefundProps,
  MedusaContainer,
} from "@medusajs/framework/types";
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils";
import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import { reaisToCents } from "../operations/admin-api";
import {
  serviceListStart,
  type BalanceBook,
  type LedgerBook,
  type Books,
  type ChargeRefunds,
  type MedusaCapture,
  type OrderRef,
  type ServiceCharge,
  type ServiceWithdrawal,
} from "./books";
import { ordersOfCharges } from "../medusa/charge-orders";
import { pixDiscountsOfOrders } from "../medusa/pix-discount";
import type { ChargeRow } from "../records/charges";
import { followedReminderSql } from "../records/reminders";
import { everCapturedSql } from "../records/ledger";
import { CAPTURABLE_HELD, moneyOf } from "../records/ledger-parts";
import { refundDeadline } from "../records/refund-deadline";
import type { PluginLogger } from "../platform/logger";
import { toCents } from "../platform/money";
import { clientFor, type RegisteredProvider } from "../platform/provider-registry";

// Reads the three books of a period for one provider registration (one account at the
// service). Read-only: Query and the payment module's list methods, the plugin's own charge
// table, and GET calls to the API. Nothing here writes or sits on the checkout path.

/** A transaction-list item as the client normalises it (contracts: `Transaction`). */
interface ListedTransaction {
  type: "charge" | "withdrawal";
  id: string;
  status: string;
  amountCents?: number;
  feeCents?: number;
  netAmountCents?: number;
  customer?: { name?: string; email?: string };
  createdAt?: string;
  paidAt?: string;
}

/** The client calls the reconciliation makes: all of them reads. */
interface BooksClient {
  transactions: { list(params: Record<string, unknown>): AsyncIterable<ListedTransaction> };
  charges: { retrieve(id: string): Promise<ListedTransaction & { amountCents: number }> };
  balance: {
    retrieve(): Promise<{ availableCents: number; pendingCents: number; raw: unknown }>;
  };
}

/**
 * Captures read around the period: Medusa captures a payment seconds after the service
 * confirms it, or, after failures, hours later; a payment is dated by the service's `paid_at`.
 */
const CAPTURE_MARGIN_MS = 86_400_000;

interface PaymentLike {
  id: string;
  provider_id: string;
  payment_session_id: string | null;
  payment_collection_id: string | null;
  data?: Record<string, unknown> | null;
}

/** The payment a capture or refund was loaded with (`relations: ["payment"]`). */
const paymentOf = (entry: { payment?: unknown }): PaymentLike =>
  entry.payment as unknown as PaymentLike;

const CHARGES = "pix_checkout_charge";
const ENTRIES = "pix_checkout_ledger_entry";

const date = (value: string | Date | null | undefined): Date | null =>
  value ? new Date(value) : null;

function customerOf(customer: { name?: string; email?: string } | undefined): string | null {
  return customer?.name || customer?.email || null;
}

/** The three books of `[start, end)` for one registration. */
export async function loadBooks(
  container: MedusaContainer,
  provider: RegisteredProvider,
  period: { from: string; to: string; start: Date; end: Date },
  logger: PluginLogger,
): Promise<Books> {
  const providerIds = [`pp_pix_${provider.key}`, `pp_boleto_${provider.key}`];
  const payments = container.resolve(Modules.PAYMENT);
  const db = container.resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION);
  const client = (await clientFor(provider, logger)) as unknown as BooksClient;

  // Book 1: Medusa's captures and refunds on this registration's payments. The provider is
  // filtered in the query (a join on the payment), so a store that also takes cards reads
  // only this registration's rows, not every capture of the period. The module's filter types
  // do not name relations, but it hands them to the ORM as they are, which joins the payment.
  const ofProviders = { payment: { provider_id: providerIds } };
  const captures = await payments.listCaptures(
    {
      created_at: {
        $gte: new Date(period.start.getTime() - CAPTURE_MARGIN_MS).toISOString(),
        $lt: new Date(period.end.getTime() + CAPTURE_MARGIN_MS).toISOString(),
      },
      ...ofProviders,
    } as FilterableCaptureProps,
    { relations: ["payment"], take: null },
  );
  const refunds = await payments.listRefunds(
    {
      created_at: { $gte: period.start.toISOString(), $lt: period.end.toISOString() },
      ...ofProviders,
    } as FilterableRefundProps,
    { relations: ["payment"], take: null },
  );

  // The plugin's record ties a Medusa payment (through its session) to the service's charge.
  const sessions = [
    ...new Set(
      [...captures, ...refunds]
        .map((entry) => paymentOf(entry).payment_session_id)
        .filter((id): id is string => !!id),
    ),
  ];
  const rows: ChargeRow[] =
    sessions.length === 0
      ? []
      : await db<ChargeRow>(CHARGES)
          .where((q) => q.whereIn("session_id", sessions).orWhereIn("capture_session_id", sessions))
          .whereNull("deleted_at");
  const chargeOfSession = (payment: PaymentLike): string | null => {
    const session = payment.payment_session_id;
    // The charge whose money Medusa holds on this session comes first: a replaced code that
    // was paid is captured on the cart's current session (capture_session_id), and an older
    // code the session adopted stays marked so after it was owed back, the session's own code
    // captured instead. Then, as when no money is held any more (refunded in full), the adopted
    // charge, the session's own paid charge, then its newest.
    const candidates = rows.filter(
      (row) => row.capture_session_id === session || row.session_id === session,
    );
    const holds = candidates.filter(
      (row) =>
        (row.capture_session_id ?? row.session_id) === session &&
        Number(row.captured_cents) + Number(row.contested_cents ?? 0) > 0,
    );
    const best =
      holds.find((row) => row.capture_session_id === session) ??
      holds[0] ??
      candidates.find((row) => row.capture_session_id === session) ??
      candidates.find((row) => row.status === "paid") ??
      candidates.sort((a, b) => +new Date(b.created_at) - +new Date(a.created_at))[0];
    const fromData = payment.data?.charge_id;
    return best?.charge_id ?? (typeof fromData === "string" ? fromData : null);
  };

  const collections = new Set<string>();
  for (const entry of [...captures, ...refunds]) {
    const collection = paymentOf(entry).payment_collection_id;
    if (collection) collections.add(collection);
  }

  // Book 2: the service's paid charges, every page since the oldest charge that can be paid in
  // the period was created (serviceListStart says why that far, and why a list and not reads
  // one by one). Kept: those paid in the period, and those behind a capture.
  const medusaCharges = new Set(
    captures.map((c) => chargeOfSession(paymentOf(c))).filter((id) => id !== null),
  );
  const end = new Date(period.end.getTime() - 1).toISOString();
  const listedCharges: ListedTransaction[] = [];
  for await (const tx of client.transactions.list({
    limit: 100,
    type: "charge",
    status: "paid",
    createdGte: serviceListStart(period.start, provider.options).toISOString(),
    createdLte: end,
  })) {
    const at = date(tx.paidAt ?? tx.createdAt);
    if ((at && at >= period.start && at < period.end) || medusaCharges.has(tx.id)) {
      listedCharges.push(tx);
    }
  }
  const listedIds = new Set(listedCharges.map((tx) => tx.id));
  // A capture whose charge is not listed as paid (unknown to the service, in another status,
  // or older than the window): read that charge on its own, for the status it has.
  for (const id of medusaCharges) {
    if (listedIds.has(id)) continue;
    try {
      listedCharges.push({ ...(await client.charges.retrieve(id)), type: "charge" });
    } catch (error) {
      const { code, status } = error as { code?: string; status?: number };
      // Unknown at the service: the comparison reports the capture as having no paid charge.
      if (code !== "charge_not_found" && status !== 404) throw error;
    }
  }

  // With each row, whether its payment followed a reminder to its cart: the one rule of a
  // "recuperado" (records/reminders.ts), the same the overview counts; and what the ledger ever
  // captured of it. Both in the row's own statement: read apart, a capture recorded between the
  // two reads would show its money both held for capture and captured, a false difference.
  const serviceRows: (ChargeRow & {
    after_reminder: boolean;
    ever_captured_cents: string | number;
  })[] = await db(CHARGES)
    .select(
      `${CHARGES}.*`,
      db.raw(`${followedReminderSql(CHARGES)} as after_reminder`),
      db.raw(`${everCapturedSql(CHARGES)} as ever_captured_cents`),
    )
    .whereIn(
      "charge_id",
      listedCharges.map((tx) => tx.id),
    )
    .whereNull("deleted_at");
  for (const row of serviceRows)
    if (row.payment_collection_id) collections.add(row.payment_collection_id);
  const orders = await ordersOfCollections(container, [...collections]);
  const orderOfCollection = (id: string | null | undefined): OrderRef | null =>
    (id && orders.get(id)) || null;
  const rowOfCharge = new Map(serviceRows.map((row) => [row.charge_id, row]));
  const everCaptured = new Map(
    serviceRows.map((row) => [row.charge_id, Number(row.ever_captured_cents)]),
  );

  const medusaCaptures: MedusaCapture[] = captures.map((capture) => {
    const payment = paymentOf(capture);
    return {
      capture_id: capture.id,
      payment_id: payment.id,
      charge_id: chargeOfSession(payment),
      amount_cents: toCents(capture.raw_amount ?? capture.amount),
      captured_at: new Date(capture.created_at),
      order: orderOfCollection(payment.payment_collection_id),
    };
  });

  const serviceCharges: ServiceCharge[] = listedCharges
    .filter((tx) => tx.amountCents !== undefined)
    .map((tx) => ({
      id: tx.id,
      status: tx.status,
      amount_cents: tx.amountCents as number,
      fee_cents: tx.feeCents ?? null,
      net_cents: tx.netAmountCents ?? null,
      created_at: date(tx.createdAt),
      paid_at: date(tx.paidAt),
      customer: customerOf(tx.customer),
      order: orderOfCollection(rowOfCharge.get(tx.id)?.payment_collection_id),
      after_reminder: rowOfCharge.get(tx.id)?.after_reminder === true,
      purpose: rowOfCharge.get(tx.id)?.purpose ?? null,
      ledger: ledgerBookOf(rowOfCharge.get(tx.id), everCaptured),
    }));
  const listedWithdrawals: ListedTransaction[] = [];
  for await (const tx of client.transactions.list({
    limit: 100,
    type: "withdrawal",
    createdGte: period.start.toISOString(),
    createdLte: end,
  })) {
    listedWithdrawals.push(tx);
  }
  const withdrawals: ServiceWithdrawal[] = listedWithdrawals.map((tx) => ({
    id: tx.id,
    status: tx.status,
    amount_cents: tx.amountCents ?? null,
    created_at: date(tx.createdAt),
  }));

  // Refunds: Medusa's, and the merchant's returns as the ledger holds them: one declaration is
  // the entries its statement wrote (the same charge and instant), named by its first entry,
  // with the merchant's note (every entry of one declaration carries the same).
  const declaredInPeriod: {
    id: string;
    charge_id: string;
    created_at: Date;
    amount_cents: string | number | null;
    note: string | null;
    reason: string | null;
  }[] = await db(ENTRIES)
    .join(CHARGES, `${CHARGES}.charge_id`, `${ENTRIES}.charge_id`)
    .where(`${ENTRIES}.to_part`, "returned")
    .whereIn(`${CHARGES}.provider_id`, providerIds)
    .where(`${ENTRIES}.created_at`, ">=", period.start)
    .where(`${ENTRIES}.created_at`, "<", period.end)
    .whereNull(`${CHARGES}.deleted_at`)
    .groupBy(`${ENTRIES}.charge_id`, `${ENTRIES}.created_at`)
    .select(
      db.raw(`min(${ENTRIES}.id) as id`),
      `${ENTRIES}.charge_id`,
      `${ENTRIES}.created_at`,
      db.raw(`sum(${ENTRIES}.amount_cents) as amount_cents`),
      db.raw(`min(${ENTRIES}.note) as note`),
      db.raw(`min(${ENTRIES}.reason) as reason`),
    );
  const touched = new Map<string, Date>();
  const touch = (chargeId: string | null, at: Date) => {
    if (!chargeId) return;
    const seen = touched.get(chargeId);
    if (!seen || seen < at) touched.set(chargeId, at);
  };
  for (const refund of refunds) {
    touch(chargeOfSession(paymentOf(refund)), new Date(refund.created_at));
  }
  for (const event of declaredInPeriod) touch(event.charge_id, new Date(event.created_at));
  const chargeRefunds = await refundsToDate(container, db, [...touched.keys()]);
  const refundBook: ChargeRefunds[] = [...touched.entries()].map(([chargeId, lastAt]) => {
    const found = chargeRefunds.get(chargeId);
    return {
      charge_id: chargeId,
      declared_cents: found?.declared ?? 0,
      medusa_due_cents: found?.medusaDue ?? 0,
      medusa_cents: found?.medusa ?? 0,
      last_at: lastAt,
      order: found?.order ?? null,
      declared_in_period: declaredInPeriod
        .filter((event) => event.charge_id === chargeId)
        .map((event) => ({
          id: event.id,
          amount_cents: Number(event.amount_cents ?? 0),
          declared_at: new Date(event.created_at),
          note: event.note ?? null,
          reason: event.reason ?? null,
        }))
        .sort((a, b) => a.declared_at.getTime() - b.declared_at.getTime()),
    };
  });

  // Book 3: the balance, and the withdrawals still in processing it subtracts.
  const balance = await readBalance(client);

  return {
    period,
    medusa: { captures: medusaCaptures },
    service: { charges: serviceCharges, withdrawals },
    refunds: refundBook,
    balance,
  };
}

async function readBalance(client: BooksClient): Promise<BalanceBook> {
  const read = await client.balance.retrieve();
  const raw = (read.raw ?? {}) as { summary?: Record<string, unknown> };
  let processing = 0;
  for await (const tx of client.transactions.list({
    limit: 100,
    type: "withdrawal",
    status: "processing",
  })) {
    processing += tx.amountCents ?? 0;
  }
  return {
    available_cents: read.availableCents,
    pending_cents: read.pendingCents,
    total_earned_cents: reaisToCents(raw.summary?.total_earned),
    total_withdrawn_cents: reaisToCents(raw.summary?.total_withdrawn),
    processing_withdrawals_cents: processing,
    read_at: new Date(),
  };
}

/**
 * Orders by payment collection, through Medusa's links (charge-orders.ts), each with the Pix
 * discount its current version records: the number Medusa's order page shows and the shopper
 * was told.
 */
async function ordersOfCollections(
  container: MedusaContainer,
  collections: string[],
): Promise<Map<string, OrderRef>> {
  const found = await ordersOfCharges(
    container,
    collections.map((id) => ({ charge_id: id, payment_collection_id: id })),
  );
  const discounts = await pixDiscountsOfOrders(container, [
    ...new Set([...found.values()].map((order) => order.id)),
  ]);
  return new Map(
    [...found.entries()].map(([collection, order]) => [
      collection,
      {
        id: order.id,
        display_id: order.display_id,
        customer: order.customer_name ?? order.email,
        buyer_document: order.buyer_document?.number ?? null,
        pix_discount_cents: discounts.get(order.id) ?? 0,
      },
    ]),
  );
}

/** A charge row's money as the books read it (docs/ledger.md); null for an unpaid one. */
function ledgerBookOf(
  row: ChargeRow | undefined,
  everCaptured: Map<string, number>,
): LedgerBook | null {
  if (!row || row.received_cents === null) return null;
  const money = moneyOf(row);
  return {
    received_cents: money.received ?? 0,
    held_cents: money.held,
    capturing_cents:
      money.heldReason && CAPTURABLE_HELD.includes(money.heldReason) ? money.held : 0,
    captured_cents: money.captured,
    owed_cents: money.owed,
    returned_cents: money.returned,
    contested_cents: money.contested,
    ever_captured_cents: everCaptured.get(row.charge_id) ?? 0,
    refund_deadline: refundDeadline(row, new Date())?.deadline ?? null,
  };
}

/**
 * Each charge's refunds to date: what the ledger returned (`declared`), what of it was Medusa's
 * money (`medusaDue`: returned entries that name a Medusa payment), and what Medusa recorded.
 */
async function refundsToDate(
  container: MedusaContainer,
  db: Knex,
  chargeIds: string[],
): Promise<
  Map<string, { declared: number; medusaDue: number; medusa: number; order: OrderRef | null }>
> {
  const result = new Map<
    string,
    { declared: number; medusaDue: number; medusa: number; order: OrderRef | null }
  >();
  if (chargeIds.length === 0) return result;
  const rows: ChargeRow[] = await db<ChargeRow>(CHARGES)
    .whereIn("charge_id", chargeIds)
    .whereNull("deleted_at");
  const dueRows: { charge_id: string; cents: string }[] = await db(ENTRIES)
    .whereIn("charge_id", chargeIds)
    .where({ to_part: "returned" })
    .whereNotNull("medusa_ref")
    .groupBy("charge_id")
    .select("charge_id", db.raw("sum(amount_cents) as cents"));
  const medusaDueOf = new Map(dueRows.map((d) => [d.charge_id, Number(d.cents)]));
  const sessionOf = new Map(
    rows.map((row) => [row.charge_id, row.capture_session_id ?? row.session_id]),
  );
  const payments = (await container
    .resolve(Modules.PAYMENT)
    .listPayments(
      { payment_session_id: [...new Set(sessionOf.values())] },
      { relations: ["refunds"], take: null },
    )) as unknown as (PaymentLike & {
    refunds?: { amount: BigNumberInput; raw_amount?: BigNumberInput }[];
  })[];
  const orders = await ordersOfCollections(container, [
    ...new Set(rows.map((row) => row.payment_collection_id).filter((id): id is string => !!id)),
  ]);
  for (const row of rows) {
    const session = sessionOf.get(row.charge_id);
    const medusa = payments
      .filter((payment) => payment.payment_session_id === session)
      .flatMap((payment) => payment.refunds ?? [])
      .reduce((sum, refund) => sum + toCents(refund.raw_amount ?? refund.amount), 0);
    result.set(row.charge_id, {
      declared: Number(row.returned_cents),
      medusaDue: medusaDueOf.get(row.charge_id) ?? 0,
      medusa,
      order: (row.payment_collection_id && orders.get(row.payment_collection_id)) || null,
    });
  }
  return result;
}
