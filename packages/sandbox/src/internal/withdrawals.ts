import { z } from "zod";
import { ApiError } from "./api-error.js";
import { MAX_AMOUNT_CENTS } from "./charge-input.js";
import type { SandboxContext } from "./context.js";
import { newWithdrawalIds } from "./ids.js";
import { computeBalance } from "./ledger.js";
import type { WithdrawalRecord } from "./records.js";
import { transferEventData } from "./views.js";

const bodySchema = z.object({
  pix_key: z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(77, "must be at most 77 characters")
    .optional(),
  description: z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(500, "must be at most 500 characters")
    .optional(),
});

/**
 * Validates a withdrawal request `{ amount, pix_key?, description? }` (our documented shape; the
 * spec shows none). `checkBalance` is off for the control route, which builds test states freely.
 */
export function createWithdrawal(
  ctx: SandboxContext,
  body: unknown,
  checkBalance: boolean,
): WithdrawalRecord {
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw new ApiError(400, "invalid_body", "The request body must be a JSON object.");
  }
  const raw = body as Record<string, unknown>;
  const amount = raw.amount;
  if (
    typeof amount !== "number" ||
    !Number.isInteger(amount) ||
    amount < 1 ||
    amount > MAX_AMOUNT_CENTS
  ) {
    throw new ApiError(
      400,
      "invalid_amount",
      "`amount` must be a positive integer number of cents.",
      {
        extra: { param: "amount" },
      },
    );
  }
  const parsed = bodySchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const param = issue?.path.join(".") ?? "body";
    throw new ApiError(400, "invalid_field", `\`${param}\` ${issue?.message ?? "is invalid"}.`, {
      extra: { param },
    });
  }
  if (checkBalance) {
    const { availableCents } = computeBalance(ctx);
    if (amount > availableCents) {
      throw new ApiError(
        400,
        "insufficient_balance",
        `The available balance (${availableCents} cents) does not cover this withdrawal.`,
        { extra: { param: "amount", available: availableCents } },
      );
    }
  }
  const ids = newWithdrawalIds();
  const withdrawal: WithdrawalRecord = {
    seq: ctx.state.nextSeq(),
    ...ids,
    status: "processing",
    amount,
    createdAt: ctx.clock.now(),
  };
  if (parsed.data.pix_key !== undefined) withdrawal.pixKey = parsed.data.pix_key;
  if (parsed.data.description !== undefined) withdrawal.description = parsed.data.description;
  ctx.state.addWithdrawal(withdrawal);
  ctx.persist();
  return withdrawal;
}

/** Finds a withdrawal by `uuid` or `wd_svc_` id, or 404 `withdrawal_not_found`. */
export function findWithdrawal(ctx: SandboxContext, id: string): WithdrawalRecord {
  const withdrawal = ctx.state.withdrawalById(id);
  if (!withdrawal) throw new ApiError(404, "withdrawal_not_found", "No withdrawal has this id.");
  return withdrawal;
}

/** Completes or fails a processing withdrawal and fires `transfer.completed` / `transfer.failed`. */
export function finishWithdrawal(
  ctx: SandboxContext,
  withdrawal: WithdrawalRecord,
  outcome: "completed" | "failed",
  reason?: string,
): void {
  if (withdrawal.status !== "processing") {
    throw new ApiError(
      409,
      "withdrawal_not_processing",
      `The withdrawal is already ${withdrawal.status}.`,
    );
  }
  withdrawal.status = outcome;
  if (outcome === "completed") withdrawal.completedAt = ctx.clock.now();
  else {
    withdrawal.failedAt = ctx.clock.now();
    withdrawal.failureReason = reason ?? "transfer_failed";
  }
  ctx.persist();
  ctx.webhooks.emit({
    event: `transfer.${outcome}`,
    data: transferEventData(ctx.variant, withdrawal),
  });
}
