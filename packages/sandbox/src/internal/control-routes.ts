import type { IncomingMessage, ServerResponse } from "node:http";
import { z } from "zod";
import { ApiError, toApiError } from "./api-error.js";
import { hashKey, maskKey } from "./auth.js";
import {
  findCharge,
  payLateBoleto,
  qrCodeOf,
  settleCharge,
  type ChargeOutcome,
} from "./charges.js";
import type { SandboxContext } from "./context.js";
import { parseFaults } from "./faults.js";
import { readJsonBody, sendError, sendJson } from "./http.js";
import { feeCents } from "./money.js";
import { keyStates } from "./records.js";
import { chargeView, withdrawalView } from "./views.js";
import { createWithdrawal, findWithdrawal, finishWithdrawal } from "./withdrawals.js";

/** What `reset` does, shared with the programmatic API. */
export function resetSandbox(ctx: SandboxContext): void {
  ctx.state.clearBusinessData();
  ctx.qrCache.clear();
  ctx.webhooks.clear();
  ctx.faults = {};
  ctx.limiter.clear();
  ctx.clock.resetOffset();
  ctx.persist();
}

function bodyError(param: string, message: string): ApiError {
  return new ApiError(400, "invalid_field", `\`${param}\` ${message}.`, { extra: { param } });
}

const keyBody = z.object({ key: z.string(), state: z.enum(keyStates) });
const urlBody = z.object({ url: z.url({ protocol: /^https?$/ }) });
const clockBody = z.union([
  z.strictObject({ advance_ms: z.number().int().min(0) }),
  z.strictObject({ now: z.iso.datetime({ offset: true }) }),
]);
const amountBody = z.object({ amount: z.number().int().min(1).max(9_999_999_999) });
const failBody = z.object({
  reason: z.string().min(1).max(200).optional(),
  /** `pay` only: a bank confirms, after its due date, a boleto paid on that date. */
  late: z.boolean().optional(),
});

async function chargeAnswer(ctx: SandboxContext, id: string): Promise<unknown> {
  const charge = findCharge(ctx, id);
  const qr =
    ctx.variant === "b" && charge.method === "pix" ? await qrCodeOf(ctx, charge) : undefined;
  return chargeView(ctx, charge, qr);
}

type Handler = (ctx: SandboxContext, body: unknown, params: string[]) => unknown;

// [method, pattern, handler]; `:x` segments are captured in order.
const ROUTES: Array<[string, string, Handler]> = [
  [
    "GET",
    "charges",
    async (ctx) => {
      const charges = ctx.state.chargesNewestFirst();
      return Promise.all(charges.map((charge) => chargeAnswer(ctx, charge.uuid)));
    },
  ],
  // What the service keeps of a charge's payer (the read response of Variant A names none), so
  // a store's test can see the CPF or CNPJ it sent.
  [
    "GET",
    "charges/:id/payer",
    (ctx, _body, [id]) => ({ ...(findCharge(ctx, id as string).customer ?? {}) }),
  ],
  ...(["pay", "expire", "fail"] as const).map((action): [string, string, Handler] => [
    "POST",
    `charges/:id/${action}`,
    async (ctx, body, [id]) => {
      const outcome: ChargeOutcome =
        action === "pay" ? "paid" : action === "expire" ? "expired" : "failed";
      const parsed = failBody.safeParse(body);
      if (!parsed.success) throw bodyError("reason", "must be a short text");
      const charge = findCharge(ctx, id as string);
      if (action === "pay" && parsed.data.late) payLateBoleto(ctx, charge);
      else settleCharge(ctx, charge, outcome, parsed.data.reason);
      return chargeAnswer(ctx, id as string);
    },
  ]),
  // Books that disagree, for reconciliation tests. Each keeps the service consistent with
  // itself (list, read, status and balance agree), so only the merchant's side differs.
  [
    "POST",
    "transactions/:id/drop",
    (ctx, _body, [id]) => {
      const charge = findCharge(ctx, id as string);
      ctx.state.dropCharge(charge);
      ctx.qrCache.delete(charge.uuid);
      ctx.persist();
      return { dropped: ctx.variant === "a" ? charge.uuid : charge.id };
    },
  ],
  [
    "POST",
    "transactions/:id/amount",
    async (ctx, body, [id]) => {
      const parsed = amountBody.safeParse(body);
      if (!parsed.success) throw bodyError("amount", "must be a positive integer of cents");
      const charge = findCharge(ctx, id as string);
      charge.amount = parsed.data.amount;
      charge.fee = feeCents(charge.method, charge.amount);
      ctx.persist();
      return chargeAnswer(ctx, id as string);
    },
  ],
  [
    "POST",
    "keys",
    (ctx, body) => {
      const parsed = keyBody.safeParse(body);
      if (!parsed.success)
        throw bodyError("state", "must be active, disabled or revoked, next to a `key`");
      if (!parsed.data.key.startsWith("sk_live_")) {
        throw new ApiError(400, "invalid_key", "Only secret keys (sk_live_...) can be managed.", {
          extra: { param: "key" },
        });
      }
      ctx.state.keys.set(hashKey(parsed.data.key), parsed.data.state);
      ctx.persist();
      return { key: maskKey(parsed.data.key), state: parsed.data.state };
    },
  ],
  [
    "GET",
    "withdrawals",
    (ctx) =>
      ctx.state
        .withdrawalsNewestFirst()
        .map((withdrawal) => withdrawalView(ctx.variant, withdrawal)),
  ],
  [
    "POST",
    "withdrawals",
    (ctx, body) => withdrawalView(ctx.variant, createWithdrawal(ctx, body, false)),
  ],
  ...(["complete", "fail"] as const).map((action): [string, string, Handler] => [
    "POST",
    `withdrawals/:id/${action}`,
    (ctx, body, [id]) => {
      const parsed = failBody.safeParse(body);
      if (!parsed.success) throw bodyError("reason", "must be a short text");
      const withdrawal = findWithdrawal(ctx, id as string);
      finishWithdrawal(
        ctx,
        withdrawal,
        action === "complete" ? "completed" : "failed",
        parsed.data.reason,
      );
      return withdrawalView(ctx.variant, withdrawal);
    },
  ]),
  ["GET", "faults", (ctx) => ctx.faults],
  [
    "POST",
    "faults",
    (ctx, body) => {
      ctx.faults = parseFaults(body);
      return ctx.faults;
    },
  ],
  [
    "DELETE",
    "faults",
    (ctx) => {
      ctx.faults = {};
      return ctx.faults;
    },
  ],
  ["GET", "webhooks", (ctx) => ctx.webhooks.log],
  ["GET", "webhook-urls", (ctx) => ({ urls: ctx.webhooks.urls })],
  [
    "POST",
    "webhook-urls",
    (ctx, body) => {
      const parsed = urlBody.safeParse(body);
      if (!parsed.success) throw bodyError("url", "must be an http(s) URL");
      if (!ctx.webhooks.urls.includes(parsed.data.url)) ctx.webhooks.urls.push(parsed.data.url);
      return { urls: ctx.webhooks.urls };
    },
  ],
  [
    "DELETE",
    "webhook-urls",
    (ctx) => {
      ctx.webhooks.urls.length = 0;
      return { urls: ctx.webhooks.urls };
    },
  ],
  ["GET", "clock", (ctx) => clockAnswer(ctx)],
  [
    "POST",
    "clock",
    (ctx, body) => {
      const parsed = clockBody.safeParse(body);
      if (!parsed.success) {
        throw new ApiError(
          400,
          "invalid_clock",
          'Send `{ "advance_ms": <non-negative integer> }` or `{ "now": "<ISO 8601 with offset>" }`.',
        );
      }
      if ("advance_ms" in parsed.data) ctx.clock.advance(parsed.data.advance_ms);
      else {
        const target = Date.parse(parsed.data.now);
        if (target < ctx.clock.now()) {
          throw new ApiError(
            400,
            "clock_backwards",
            "The clock only moves forward: `now` is in the sandbox's past.",
          );
        }
        ctx.clock.set(target);
      }
      ctx.persist();
      return clockAnswer(ctx);
    },
  ],
  [
    "POST",
    "reset",
    (ctx) => {
      resetSandbox(ctx);
      return { reset: true };
    },
  ],
];

function clockAnswer(ctx: SandboxContext): unknown {
  return { now: new Date(ctx.clock.now()).toISOString(), offset_ms: ctx.clock.offsetMs };
}

function matchPattern(pattern: string, parts: string[]): string[] | undefined {
  const segments = pattern.split("/");
  if (segments.length !== parts.length) return undefined;
  const params: string[] = [];
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i] as string;
    const part = parts[i] as string;
    if (segment.startsWith(":")) {
      if (part === "") return undefined;
      params.push(decodeURIComponent(part));
    } else if (segment !== part) return undefined;
  }
  return params;
}

/** The `/__sandbox` control routes: no auth, lenient JSON bodies, the same error envelope. */
export async function handleControl(
  ctx: SandboxContext,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
): Promise<void> {
  const rate = ctx.limiter.peek(undefined, "createCharge");
  try {
    const method = req.method ?? "GET";
    const parts = path.slice("/__sandbox/".length).split("/");
    const allowed: string[] = [];
    for (const [routeMethod, pattern, handler] of ROUTES) {
      let params: string[] | undefined;
      try {
        params = matchPattern(pattern, parts);
      } catch {
        params = undefined;
      }
      if (!params) continue;
      if (routeMethod !== method) {
        allowed.push(routeMethod);
        continue;
      }
      const body = method === "POST" ? await readJsonBody(req, false) : undefined;
      const answer = await handler(ctx, body, params);
      sendJson(res, 200, answer, rate);
      return;
    }
    if (allowed.length > 0) {
      throw new ApiError(
        405,
        "method_not_allowed",
        `This control route answers only ${allowed.join(", ")}.`,
        {
          headers: { allow: allowed.join(", ") },
        },
      );
    }
    throw new ApiError(
      404,
      "not_found",
      `There is no control route ${method} ${path}. See the README's control routes table.`,
    );
  } catch (error) {
    sendError(res, toApiError(error), rate);
  }
}
