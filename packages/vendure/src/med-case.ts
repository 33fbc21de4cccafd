import {
  DEFAULT_BANK_CALENDAR,
  businessDaysUntil,
  type BankCalendar,
} from "@pix-checkout/client/bank-days";
import { brl, saoPauloDay } from "@pix-checkout/client/books";
import {
  medBlockOf,
  medDeadlineState as deadlineStateOf,
  medOutcomeSplit,
  type MedDeadlineState,
  type MedOutcomeSplit,
} from "@pix-checkout/client/med";

/*
 * MED 2.0 on a Vendure payment of ours: a Pix payer's bank opens a notificação de infração and
 * blocks (bloqueio cautelar) money of a Pix already paid; by a deadline the institution returns
 * it to the payer ("Devolvido pelo MED", all or part) or keeps it ("Mantido"). The service has
 * no MED API, so the merchant records both. Pure: the payment's facts come in, the case to keep
 * and the moves to make come out; the service gathers the facts and writes under the order's
 * lock. Where the money falls is `@pix-checkout/client/med`'s rule, shared with Medusa.
 */

/** A MED case as the payment keeps it (`metadata.med`, the latest; earlier ones `medEarlier`). */
export interface MedCase {
  protocol: string;
  /** By when the institution decides: `YYYY-MM-DD`, a São Paulo day. */
  deadline: string;
  /** Integer cents blocked: `blockedOwedCents` + `contestedCents`. */
  blockedCents: number;
  /** Of it, money already owed back to the payer: stays owed, the case's. */
  blockedOwedCents: number;
  /** Of it, captured money: out of income while the case is open. */
  contestedCents: number;
  openedAt: string;
  state: "open" | "kept" | "returned";
  /** What the MED returned to the payer (state `returned`); null otherwise. */
  returnedCents: number | null;
  decidedAt: string | null;
}

export type { MedDeadlineState };

/** A case as the Admin API shows it (`PixCheckoutMed`). */
export interface MedView {
  protocol: string;
  deadline: string;
  blocked: number;
  blockedOwed: number;
  contested: number;
  openedAt: string;
  state: MedCase["state"];
  returned: number | null;
  decidedAt: string | null;
  /** While open only; null once decided. */
  deadlineState: MedDeadlineState | null;
}

/** Why a MED cannot be recorded; `message` is the merchant's, in Portuguese. */
export class MedRefused extends Error {
  constructor(
    readonly code:
      | "not_found"
      | "invalid_med"
      | "med_not_contestable"
      | "med_already_open"
      | "med_amount_exceeds_captured"
      | "med_not_open",
    message: string,
  ) {
    super(message);
  }
}

/** What the store's records say of the payment a MED falls on. */
export interface MedPaymentFacts {
  method: "pix" | "boleto";
  /** Vendure's payment state. */
  state: string;
  /** Integer cents the code asked for (the payment's amount). */
  amountCents: number;
  /** A held code: what the bank paid and what of it was recorded returned; null otherwise. */
  held: { receivedCents: number; returnedCents: number } | null;
  /** Vendure's refunds of the payment, oldest first. */
  refunds: readonly PaymentRefund[];
  /** The payment's latest case, or null. */
  med: MedCase | null;
}

export interface PaymentRefund {
  id: string | number;
  state: string;
  cents: number;
}

/** A protocol as the merchant reads it from the notice: her text, of a sane size. */
const PROTOCOL_MAX = 120;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** True for a real calendar day written `YYYY-MM-DD`. */
export function isCalendarDay(value: unknown): value is string {
  if (typeof value !== "string" || !DAY.test(value)) return false;
  const parsed = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value;
}

/**
 * Where an open case's deadline stands at `now` (São Paulo's today), by the rule both plugins
 * share (`@pix-checkout/client/med`): `near` from two bank business days before it, the
 * deadline's own day counted; `past` once its day has gone by. The merchant who has heard
 * nothing by then asks the service. Counted on the store's calendar (options.ts `bankCalendarOf`).
 */
export function medDeadlineState(
  deadline: string,
  now: Date,
  calendar: BankCalendar = DEFAULT_BANK_CALENDAR,
): MedDeadlineState {
  return deadlineStateOf(businessDaysUntil(saoPauloDay(now), deadline, calendar));
}

/** The case as the Admin API shows it at `now`. */
export function medViewOf(
  med: MedCase,
  now: Date,
  calendar: BankCalendar = DEFAULT_BANK_CALENDAR,
): MedView {
  return {
    protocol: med.protocol,
    deadline: med.deadline,
    blocked: med.blockedCents,
    blockedOwed: med.blockedOwedCents,
    contested: med.contestedCents,
    openedAt: med.openedAt,
    state: med.state,
    returned: med.returnedCents,
    decidedAt: med.decidedAt,
    deadlineState: med.state === "open" ? medDeadlineState(med.deadline, now, calendar) : null,
  };
}

/** The case in one sentence for the merchant. */
export function medWords(med: MedCase): string {
  const [year, month, day] = med.deadline.split("-");
  if (med.state === "open") {
    return `MED aberto (protocolo ${med.protocol}): ${brl(med.blockedCents)} bloqueados até ${day}/${month}/${year}.`;
  }
  if (med.state === "returned") {
    const part =
      (med.returnedCents ?? 0) < med.blockedCents ? ` dos ${brl(med.blockedCents)} bloqueados` : "";
    return `Devolvido pelo MED: ${brl(med.returnedCents ?? 0)}${part} (protocolo ${med.protocol}).`;
  }
  return `MED mantido (protocolo ${med.protocol}): nada foi devolvido, o bloqueio acabou.`;
}

/** The case, if the payment's metadata holds one (`metadata.med`); null otherwise. */
export function medCaseOf(value: unknown): MedCase | null {
  const med = value as Partial<MedCase> | null | undefined;
  if (!med || typeof med !== "object") return null;
  if (typeof med.protocol !== "string" || typeof med.deadline !== "string") return null;
  if (med.state !== "open" && med.state !== "kept" && med.state !== "returned") return null;
  const cents = (n: unknown) => (typeof n === "number" && Number.isSafeInteger(n) ? n : 0);
  return {
    protocol: med.protocol,
    deadline: med.deadline,
    blockedCents: cents(med.blockedCents),
    blockedOwedCents: cents(med.blockedOwedCents),
    contestedCents: cents(med.contestedCents),
    openedAt: typeof med.openedAt === "string" ? med.openedAt : "",
    state: med.state,
    returnedCents: typeof med.returnedCents === "number" ? med.returnedCents : null,
    decidedAt: typeof med.decidedAt === "string" ? med.decidedAt : null,
  };
}

/** The case while it is open; null when there is none or it was decided. */
export function openMedOf(med: MedCase | null): MedCase | null {
  return med?.state === "open" ? med : null;
}

/**
 * `cents` taken from the payment's `Pending` refunds, oldest first: which refunds an open case
 * blocks (its owed money), or which an outcome settles. A refund may be taken in part.
 */
export function pendingShares(
  refunds: readonly PaymentRefund[],
  cents: number,
): { refundId: string | number; cents: number; total: number }[] {
  const shares = [];
  let left = Math.max(cents, 0);
  for (const refund of refunds) {
    if (left <= 0) break;
    if (refund.state !== "Pending") continue;
    const taken = Math.min(refund.cents, left);
    shares.push({ refundId: refund.id, cents: taken, total: refund.cents });
    left -= taken;
  }
  return shares;
}

/**
 * A payment's money a MED may block, in integer cents. A Settled Pix: owed is its `Pending`
 * refunds (on Vendure's order, owed back), captured is what still pays the order. A held Pix:
 * owed is what the bank paid less what was recorded returned; it captured nothing. Undefined
 * for anything else: a boleto (no MED), a code waiting or ended, or nothing owed nor captured.
 */
export function contestableMoney(
  facts: MedPaymentFacts,
): { owed: number; captured: number } | undefined {
  if (facts.method !== "pix") return undefined;
  let money: { owed: number; captured: number } | undefined;
  if (facts.held) {
    money = { owed: facts.held.receivedCents - facts.held.returnedCents, captured: 0 };
  } else if (facts.state === "Settled") {
    const sum = (state: string) =>
      facts.refunds.filter((r) => r.state === state).reduce((total, r) => total + r.cents, 0);
    const owed = sum("Pending");
    money = { owed, captured: facts.amountCents - owed - sum("Settled") };
  }
  return money && money.owed + money.captured > 0 ? money : undefined;
}

/**
 * The case a "Registrar MED" opens on the payment, or why not: a protocol (up to 120
 * characters), a deadline (`YYYY-MM-DD`) and an amount in positive whole cents, on a Pix of ours
 * with no case open, of no more than it owes and holds captured. The block falls on owed money
 * first (`medBlockOf`).
 *
 * @throws MedRefused
 */
export function decideMedRecord(
  facts: MedPaymentFacts,
  input: { protocol: string; deadline: string; amountCents: number },
  now: Date,
): MedCase {
  const protocol = input.protocol.trim();
  if (protocol === "" || protocol.length > PROTOCOL_MAX) {
    throw new MedRefused(
      "invalid_med",
      `Informe o protocolo do MED (até ${PROTOCOL_MAX} caracteres), como a notificação o mostra.`,
    );
  }
  if (!isCalendarDay(input.deadline)) {
    throw new MedRefused(
      "invalid_med",
      "Informe o prazo do MED como uma data AAAA-MM-DD (o dia em que a instituição decide).",
    );
  }
  if (!Number.isSafeInteger(input.amountCents) || input.amountCents <= 0) {
    throw new MedRefused(
      "invalid_med",
      "Informe o valor bloqueado em centavos inteiros e positivos (R$ 10,00 = 1000).",
    );
  }
  const open = openMedOf(facts.med);
  if (open) {
    throw new MedRefused(
      "med_already_open",
      `Este Pix já tem um MED aberto (protocolo ${open.protocol}): registre a decisão dele antes de outro.`,
    );
  }
  const money = contestableMoney(facts);
  if (!money) {
    throw new MedRefused(
      "med_not_contestable",
      facts.method === "boleto"
        ? "Boleto não tem MED: só um Pix pago pode ser bloqueado pelo banco do pagador."
        : "Este pagamento não tem dinheiro que um MED possa bloquear: só um Pix pago (liquidado no pedido, ou retido e ainda a devolver) pode ter MED.",
    );
  }
  const block = medBlockOf(money, input.amountCents);
  if (!block) {
    throw new MedRefused(
      "med_amount_exceeds_captured",
      `O bloqueio de ${brl(input.amountCents)} passa do que este Pix tem: ${brl(money.owed + money.captured)} (${brl(money.captured)} no pedido, ${brl(money.owed)} a devolver). Confira o valor da notificação.`,
    );
  }
  return {
    protocol,
    deadline: input.deadline,
    blockedCents: input.amountCents,
    blockedOwedCents: block.owedCents,
    contestedCents: block.capturedCents,
    openedAt: now.toISOString(),
    state: "open",
    returnedCents: null,
    decidedAt: null,
  };
}

/** What an outcome moves, for the service to write. */
export interface MedOutcome {
  /** The case, decided. */
  med: MedCase;
  split: MedOutcomeSplit;
  /** A Settled payment's blocked `Pending` refunds the MED returned (one may be in part). */
  settleRefunds: { refundId: string | number; cents: number; total: number }[];
  /** A held code's money the MED returned: its return recorded; `closes` when nothing is left. */
  heldReturn: { cents: number; closes: boolean } | null;
  /** Contested money the MED returned: a refund on Vendure's order, settled at once. */
  refundOnOrderCents: number;
}

/**
 * The institution's decision on the payment's open case: `kept` (nothing returned: the
 * contested money is captured again, the owed money owed again) or `returned` (`amountCents`,
 * the whole block when null), split by `medOutcomeSplit`: owed money first, then contested.
 *
 * @throws MedRefused
 */
export function decideMedOutcome(
  facts: MedPaymentFacts,
  input: { outcome: string; amountCents: number | null },
  now: Date,
): MedOutcome {
  if (input.outcome !== "kept" && input.outcome !== "returned") {
    throw new MedRefused(
      "invalid_med",
      'Informe a decisão do MED: "kept" (mantido) ou "returned" (devolvido pelo MED).',
    );
  }
  const med = openMedOf(facts.med);
  if (!med) {
    throw new MedRefused(
      "med_not_open",
      "Este Pix não tem MED aberto: registre o MED (protocolo, prazo e valor) antes da decisão.",
    );
  }
  const returned = input.outcome === "kept" ? 0 : (input.amountCents ?? med.blockedCents);
  const kept = input.outcome === "kept" && (input.amountCents ?? 0) === 0;
  const validReturn =
    input.outcome === "returned" &&
    Number.isSafeInteger(returned) &&
    returned > 0 &&
    returned <= med.blockedCents;
  if (!kept && !validReturn) {
    throw new MedRefused(
      "invalid_med",
      input.outcome === "kept"
        ? "Um MED mantido não devolve nada: não informe valor."
        : `Informe o valor devolvido pelo MED em centavos inteiros, de 1 até o bloqueio de ${brl(med.blockedCents)}.`,
    );
  }
  // A held code's owed money never paid Vendure's order; a Settled payment's is its Pending
  // refunds, on the order already.
  const split = medOutcomeSplit(
    {
      blockedOwed: med.blockedOwedCents,
      blockedOwedOnOrder: facts.held ? 0 : med.blockedOwedCents,
      contested: med.contestedCents,
    },
    returned,
  )!;
  const owed = facts.held ? facts.held.receivedCents - facts.held.returnedCents : 0;
  return {
    med: {
      ...med,
      state: kept ? "kept" : "returned",
      returnedCents: kept ? null : returned,
      decidedAt: now.toISOString(),
    },
    split,
    settleRefunds: facts.held ? [] : pendingShares(facts.refunds, split.owedSettled),
    heldReturn:
      facts.held && split.owedSettled > 0
        ? { cents: split.owedSettled, closes: split.owedSettled >= owed }
        : null,
    refundOnOrderCents: split.refundedOnOrder,
  };
}
