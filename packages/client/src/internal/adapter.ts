import { z } from "zod";
import { ResponseValidationError, type FieldIssue } from "../errors.js";
import type {
  Balance,
  Charge,
  ChargeStatusResult,
  Page,
  PaymentMethod,
  Transaction,
} from "../models.js";
import { reaisAgreeWithCents, reaisToCents } from "./money.js";
import type { ValidCreateInput } from "./validate-input.js";

/**
 * One variant of the spec: how to build a create body and how to read every response into the
 * normalized model. Each variant has exactly one adapter, so a shape difference is handled in
 * one place.
 */
export interface VariantAdapter {
  readonly variant: "a" | "b";
  /** The JSON body of POST /charges. */
  createBody(input: ValidCreateInput): Record<string, unknown>;
  /** A 201 from POST /charges. `method` is what was asked for. */
  parseCreated(body: unknown, method: PaymentMethod): Charge;
  /** A 200 from GET /charges/{id}. */
  parseCharge(body: unknown): Charge;
  /** A 200 from GET /charges/{id}/status. */
  parseStatus(body: unknown): ChargeStatusResult;
  /** A 200 from GET /transactions. */
  parseTransactions(body: unknown): Page<Transaction>;
}

/** Statuses, verbatim from the spec. */
export const chargeStatus = z.enum(["pending", "paid", "expired", "failed"]);

/** ISO 8601, with or without milliseconds, with or without an offset. */
export const isoTimestamp = z.iso.datetime({ offset: true, local: true });

/** Turns zod issues into ours, with dotted paths. */
export function toIssues(error: z.ZodError): FieldIssue[] {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join(".") || "(body)",
    message: issue.message,
  }));
}

/** Parses `body` with `schema`, or throws `ResponseValidationError` naming what drifted. */
export function parseOrThrow<T>(schema: z.ZodType<T>, body: unknown, what: string): T {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issues = toIssues(result.error);
  const summary = issues
    .slice(0, 3)
    .map((issue) => `${issue.path}: ${issue.message}`)
    .join("; ");
  throw new ResponseValidationError(`${what} does not match the spec (${summary})`, {
    code: "invalid_response",
    issues,
  });
}

/** Throws `ResponseValidationError` when a float reais amount disagrees with its cents twin. */
export function checkAmounts(
  reais: number,
  cents: number,
  paths: { reais: string; cents: string },
  what: string,
): void {
  if (!reaisAgreeWithCents(reais, cents)) {
    throw new ResponseValidationError(
      `${what}: ${paths.reais} (${reais} reais) disagrees with ${paths.cents} (${cents} cents); refusing to guess which is right`,
      {
        code: "invalid_response",
        issues: [{ path: paths.reais, message: `disagrees with ${paths.cents}` }],
      },
    );
  }
}

/** Throws when a status response says `paid` without status `paid`, or the reverse. */
export function checkPaidFlag(status: string, paid: boolean, what: string): void {
  if (paid !== (status === "paid")) {
    throw new ResponseValidationError(
      `${what}: paid is ${paid} but status is "${status}"; the two must agree`,
      { code: "invalid_response", issues: [{ path: "paid", message: "disagrees with status" }] },
    );
  }
}

const balanceEntry = z.object({ amount: z.int(), currency: z.string() });
const balanceSchema = z.object({
  object: z.literal("balance"),
  available: z.array(balanceEntry),
  pending: z.array(balanceEntry),
  summary: z
    .object({
      available_balance: z.number(),
      pending_balance: z.number(),
      currency: z.string().optional(),
    })
    .loose()
    .optional(),
  livemode: z.boolean().optional(),
});

function brlCents(entries: Array<{ amount: number; currency: string }>): number {
  // One entry per currency; only BRL exists. A missing entry means nothing there, not an error.
  return entries.find((entry) => entry.currency.toLowerCase() === "brl")?.amount ?? 0;
}

/** GET /balance, the same shape in both variants. The float summary must agree with the cents. */
export function parseBalance(body: unknown): Balance {
  const parsed = parseOrThrow(balanceSchema, body, "GET /balance response");
  const availableCents = brlCents(parsed.available);
  const pendingCents = brlCents(parsed.pending);
  if (parsed.summary) {
    const what = "GET /balance response";
    checkAmounts(
      parsed.summary.available_balance,
      availableCents,
      { reais: "summary.available_balance", cents: "available[brl].amount" },
      what,
    );
    checkAmounts(
      parsed.summary.pending_balance,
      pendingCents,
      { reais: "summary.pending_balance", cents: "pending[brl].amount" },
      what,
    );
  }
  return { availableCents, pendingCents, currency: "BRL", raw: body };
}

/** A fee object as either variant sends it. */
export const feeSchema = z
  .object({
    amount: z.number(),
    net_amount: z.number(),
    amount_cents: z.int().optional(),
    net_amount_cents: z.int().optional(),
  })
  .loose();

/**
 * Fee and net amount in cents. `_cents` fields win and their float twins must agree; without
 * them, Variant A's fee fields are already cents (like all its amounts) and Variant B's are
 * reais, rounded to cents here once.
 */
export function feeCents(
  fee: z.infer<typeof feeSchema>,
  variant: "a" | "b",
  path: string,
  what: string,
): { feeCents: number; netAmountCents: number } {
  const pick = (reais: number, cents: number | undefined, field: string): number => {
    if (cents !== undefined) {
      if (variant === "b") {
        checkAmounts(
          reais,
          cents,
          { reais: `${path}.${field}`, cents: `${path}.${field}_cents` },
          what,
        );
      }
      return cents;
    }
    const value = variant === "a" ? reais : reaisToCents(reais);
    if (value === undefined || !Number.isSafeInteger(value)) {
      throw new ResponseValidationError(
        `${what}: ${path}.${field} is not a whole number of cents`,
        {
          code: "invalid_response",
          issues: [{ path: `${path}.${field}`, message: "is not a whole number of cents" }],
        },
      );
    }
    return value;
  };
  return {
    feeCents: pick(fee.amount, fee.amount_cents, "amount"),
    netAmountCents: pick(fee.net_amount, fee.net_amount_cents, "net_amount"),
  };
}
