import type { IncomingMessage, ServerResponse } from "node:http";
import { ApiError, toApiError } from "./api-error.js";
import { authenticate, type MissingHeaderCode } from "./auth.js";
import { parseCreateCharge } from "./charge-input.js";
import { createCharge, findCharge, qrCodeOf } from "./charges.js";
import type { SandboxContext } from "./context.js";
import { chance, drawMs, type Faults } from "./faults.js";
import { readJsonBody, sendError, sendJson } from "./http.js";
import { fingerprint, idempotencyKeyOf } from "./idempotency.js";
import { balanceView, listTransactions } from "./ledger.js";
import type { RateBucket, RateLimitInfo } from "./rate-limiter.js";
import { chargeView, statusView, withdrawalView } from "./views.js";
import { createWithdrawal } from "./withdrawals.js";

interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

interface RouteCall {
  req: IncomingMessage;
  keyHash: string;
  id: string;
  query: URLSearchParams;
  body: unknown;
}

interface Route {
  /** Which 401 code an absent header gets here (see README, "Auth"). */
  missing: MissingHeaderCode;
  /** Rate-limited bucket, if this route is limited. */
  bucket?: RateBucket;
  hasBody: boolean;
  run(ctx: SandboxContext, call: RouteCall): Answer | Promise<Answer>;
}

const notAllowed = (allow: string): ApiError =>
  new ApiError(405, "method_not_allowed", `This endpoint answers only ${allow}.`, {
    headers: { allow },
  });

const missingId = (): Answer => {
  throw new ApiError(
    400,
    "missing_id",
    "The charge id is missing from the path: GET /v1/charges/{id}.",
    {
      extra: { param: "id" },
    },
  );
};

const createChargeRoute: Route = {
  missing: "unauthorized",
  bucket: "createCharge",
  hasBody: true,
  async run(ctx, { req, keyHash, body }) {
    const headerKey = req.headers["idempotency-key"] ?? req.headers["x-idempotency-key"];
    if (ctx.variant === "a" && headerKey !== undefined) {
      throw new ApiError(
        400,
        "idempotency_not_supported",
        "Variant A takes no `Idempotency-Key` header: remove it. Each create is a new operation.",
      );
    }
    const idempotencyKey = ctx.variant === "b" ? idempotencyKeyOf(req.headers) : undefined;
    const slot = idempotencyKey === undefined ? undefined : `${keyHash}\n${idempotencyKey}`;
    const print = slot === undefined ? "" : fingerprint(body);
    if (slot !== undefined) {
      const earlier = ctx.state.idempotency.get(slot);
      const earlierCharge = earlier ? ctx.state.charges.get(earlier.chargeUuid) : undefined;
      if (earlier && earlierCharge) {
        if (earlier.fingerprint !== print) {
          throw new ApiError(
            422,
            "idempotency_key_reused",
            "This Idempotency-Key was already used with a different body. Use a new key for a new charge.",
          );
        }
        return {
          status: 201,
          body: chargeView(ctx, earlierCharge, await qrCodeOf(ctx, earlierCharge)),
          headers: { "idempotent-replayed": "true" },
        };
      }
    }
    const input = parseCreateCharge(ctx.variant, body);
    const charge = createCharge(ctx, input);
    if (slot !== undefined)
      ctx.state.idempotency.set(slot, { chargeUuid: charge.uuid, fingerprint: print });
    const qr = ctx.variant === "b" ? await qrCodeOf(ctx, charge) : undefined;
    return { status: 201, body: chargeView(ctx, charge, qr) };
  },
};

const getChargeRoute: Route = {
  missing: "unauthorized",
  hasBody: false,
  async run(ctx, { id }) {
    const charge = findCharge(ctx, id);
    const qr = ctx.variant === "b" ? await qrCodeOf(ctx, charge) : undefined;
    return { status: 200, body: chargeView(ctx, charge, qr) };
  },
};

const statusRoute: Route = {
  missing: "unauthorized",
  hasBody: false,
  run: (ctx, { id }) => ({ status: 200, body: statusView(ctx.variant, findCharge(ctx, id)) }),
};

const missingIdRoute: Route = { missing: "unauthorized", hasBody: false, run: missingId };

const balanceRoute: Route = {
  missing: "missing_authorization",
  hasBody: false,
  run: (ctx) => ({ status: 200, body: balanceView(ctx) }),
};

const transactionsRoute: Route = {
  missing: "missing_authorization",
  hasBody: false,
  run: (ctx, { query }) => ({ status: 200, body: listTransactions(ctx, query) }),
};

const withdrawalRoute: Route = {
  missing: "missing_authorization",
  bucket: "createWithdrawal",
  hasBody: true,
  run: (ctx, { body }) => ({
    status: 201,
    body: withdrawalView(ctx.variant, createWithdrawal(ctx, body, true)),
  }),
};

function decodeId(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new ApiError(404, "charge_not_found", "No charge has this id.", {
      extra: { param: "id" },
    });
  }
}

/** Finds the route of a `/v1` path, or throws 404 `not_found` / 405 `method_not_allowed`. */
function match(method: string, path: string): { route: Route; id: string } {
  const parts = path.split("/");
  // parts[0] is "" and parts[1] is "v1".
  const resource = parts[2];
  const rest = parts.length - 3;
  if (resource === "charges") {
    if (rest === 0 || (rest === 1 && parts[3] === "")) {
      if (method === "POST" && rest === 0) return { route: createChargeRoute, id: "" };
      if (method === "GET") return { route: missingIdRoute, id: "" };
      throw notAllowed(rest === 0 ? "GET, POST" : "GET");
    }
    const id = decodeId(parts[3] as string);
    if (rest === 1) {
      if (method !== "GET") throw notAllowed("GET");
      return { route: getChargeRoute, id };
    }
    if (rest === 2 && parts[4] === "status") {
      if (method !== "GET") throw notAllowed("GET");
      return { route: id === "" ? missingIdRoute : statusRoute, id };
    }
  } else if (rest === 0) {
    if (resource === "balance") {
      if (method !== "GET") throw notAllowed("GET");
      return { route: balanceRoute, id: "" };
    }
    if (resource === "transactions") {
      if (method !== "GET") throw notAllowed("GET");
      return { route: transactionsRoute, id: "" };
    }
    if (resource === "withdrawals") {
      if (method !== "POST") throw notAllowed("POST");
      return { route: withdrawalRoute, id: "" };
    }
  }
  throw new ApiError(
    404,
    "not_found",
    `There is no endpoint ${method} ${path}. See the API reference for the paths under /v1.`,
  );
}

/** Counts a one-shot fault down; true when this request takes one of them. */
function takeOne(
  faults: Faults,
  field: "http_5xx_before_creates" | "http_5xx_after_creates",
): boolean {
  const left = faults[field];
  if (left === undefined || left <= 0) return false;
  faults[field] = left - 1;
  return true;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The `/v1` pipeline, in stripe-mock's order: route (404/405), injected faults, authenticate,
 * count the rate limit, read the body, run the handler, and answer; every exit goes through the
 * same writer, so every answer carries the security, CORS and rate-limit headers.
 */
export async function handleApi(
  ctx: SandboxContext,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  search: string,
): Promise<void> {
  let rate: RateLimitInfo = ctx.limiter.peek(undefined, "createCharge");
  try {
    const method = req.method ?? "GET";
    const { route, id } = match(method, path);
    const faults = ctx.faults;
    if (faults.latency_ms) await sleep(drawMs(faults.latency_ms));
    const isCreate = route.bucket === "createCharge";
    if (isCreate && takeOne(faults, "http_5xx_before_creates")) {
      throw new ApiError(
        500,
        "internal_error",
        "Injected fault: the server failed before processing the request. Retry later.",
      );
    }
    if (chance(faults.http_5xx_rate)) {
      throw new ApiError(
        500,
        "internal_error",
        "Injected fault: the server failed before processing the request. Retry later.",
      );
    }
    const keyHash = authenticate(req.headers.authorization, ctx.state, route.missing);
    if (route.bucket) {
      const hit = ctx.limiter.hit(keyHash, route.bucket);
      rate = hit.info;
      if (!hit.allowed) {
        const wait = Math.max(1, rate.reset - Math.floor(Date.now() / 1000));
        throw new ApiError(
          429,
          "rate_limit_exceeded",
          "Too many requests. Please slow down and retry after the reset time.",
          {
            headers: { "retry-after": String(wait) },
          },
        );
      }
    } else {
      rate = ctx.limiter.peek(keyHash, "createCharge");
    }
    const body = route.hasBody ? await readJsonBody(req, true) : undefined;
    const answer = await route.run(ctx, {
      req,
      keyHash,
      id,
      query: new URLSearchParams(search),
      body,
    });
    if (
      (isCreate && takeOne(faults, "http_5xx_after_creates")) ||
      chance(faults.http_5xx_after_rate)
    ) {
      // The work is done (a charge may exist) but the client cannot know: an unknown outcome.
      throw new ApiError(
        500,
        "internal_error",
        "Injected fault: the server failed after processing the request.",
      );
    }
    sendJson(res, answer.status, answer.body, rate, answer.headers);
  } catch (error) {
    sendError(res, toApiError(error), rate);
  }
}
