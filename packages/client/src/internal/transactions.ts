import { z } from "zod";
import { ResponseValidationError } from "../errors.js";
import type { ChargeTransaction, Page, Transaction, WithdrawalTransaction } from "../models.js";
import { checkAmounts, feeCents, feeSchema, parseOrThrow } from "./adapter.js";

/** The list envelope, the same in both variants. */
export const transactionListSchema = z.object({
  object: z.literal("list"),
  data: z.array(z.unknown()),
  has_more: z.boolean(),
  url: z.string().optional(),
});

// Item fields are read leniently: the spec lists charge items only for Variant B and shows no
// withdrawal fields, so anything beyond id, status and amount is optional.
const itemSchema = z
  .object({
    id: z.string().min(1).optional(),
    uuid: z.string().min(1).optional(),
    object: z.string().optional(),
    type: z.string().optional(),
    amount: z.number().optional(),
    amount_cents: z.int().optional(),
    status: z.string(),
    description: z.string().nullish(),
    customer: z
      .object({ name: z.string().nullish(), email: z.string().nullish() })
      .loose()
      .nullish(),
    fee: feeSchema.nullish(),
    created_at: z.string().nullish(),
    paid_at: z.string().nullish(),
  })
  .loose();

type Item = z.infer<typeof itemSchema>;

function invalid(index: number, field: string, message: string): ResponseValidationError {
  const path = `data.${index}.${field}`;
  return new ResponseValidationError(`GET /transactions response: ${path} ${message}`, {
    code: "invalid_response",
    issues: [{ path, message }],
  });
}

/**
 * Item amount in cents. `amount_cents` wins and the float `amount` must agree with it; without
 * it, Variant A's `amount` is already integer cents, and Variant B's is an error.
 */
function itemCents(item: Item, index: number, variant: "a" | "b"): number | undefined {
  if (item.amount_cents !== undefined) {
    if (item.amount !== undefined) {
      checkAmounts(
        item.amount,
        item.amount_cents,
        { reais: `data.${index}.amount`, cents: `data.${index}.amount_cents` },
        "GET /transactions response",
      );
    }
    return item.amount_cents;
  }
  if (item.amount === undefined) return undefined;
  if (variant === "a" && Number.isSafeInteger(item.amount)) return item.amount;
  throw invalid(index, "amount_cents", "is missing; a float amount alone is never used as money");
}

function optional<T>(value: T | null | undefined): T | undefined {
  return value ?? undefined;
}

/** Reads list items into the normalized transaction model. */
export function parseTransactionItems(items: unknown[], variant: "a" | "b"): Transaction[] {
  return items.map((raw, index) => {
    const result = itemSchema.safeParse(raw);
    if (!result.success) {
      const issue = result.error.issues[0];
      throw invalid(index, issue?.path.map(String).join(".") ?? "", issue?.message ?? "is invalid");
    }
    const item = result.data;
    const id = item.id ?? item.uuid;
    if (!id) throw invalid(index, "id", "is missing (neither id nor uuid)");
    const amountCents = itemCents(item, index, variant);
    if (item.object === "withdrawal" || item.type === "withdrawal") {
      const withdrawal: WithdrawalTransaction = {
        type: "withdrawal",
        id,
        status: item.status,
        raw,
      };
      if (amountCents !== undefined) withdrawal.amountCents = amountCents;
      if (item.created_at) withdrawal.createdAt = item.created_at;
      return withdrawal;
    }
    if (amountCents === undefined) throw invalid(index, "amount", "is missing on a charge");
    const charge: ChargeTransaction = { type: "charge", id, status: item.status, amountCents, raw };
    if (item.description != null) charge.description = item.description;
    if (item.customer) {
      charge.customer = {
        ...(item.customer.name == null ? {} : { name: item.customer.name }),
        ...(item.customer.email == null ? {} : { email: item.customer.email }),
      };
    }
    if (item.fee) {
      Object.assign(
        charge,
        feeCents(item.fee, variant, `data.${index}.fee`, "GET /transactions response"),
      );
    }
    const createdAt = optional(item.created_at);
    if (createdAt) charge.createdAt = createdAt;
    const paidAt = optional(item.paid_at);
    if (paidAt) charge.paidAt = paidAt;
    return charge;
  });
}

/** Reads one page of the transaction list; the cursor is the last item's id (the spec's rule). */
export function parseTransactionPage(body: unknown, variant: "a" | "b"): Page<Transaction> {
  const parsed = parseOrThrow(transactionListSchema, body, "GET /transactions response");
  const data = parseTransactionItems(parsed.data, variant);
  const last = data.at(-1);
  return {
    data,
    hasMore: parsed.has_more,
    nextCursor: parsed.has_more && last ? last.id : null,
    raw: body,
  };
}
