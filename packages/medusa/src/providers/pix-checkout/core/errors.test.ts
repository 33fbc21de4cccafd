import { describe, expect, it } from "vitest";
import { getHttpResponseFromError } from "@medusajs/framework/http";
import { PixCheckoutError } from "../../../internal/platform/errors";
import type { PluginLogger } from "../../../internal/platform/logger";
import { providerError } from "./errors";

/** A logger that keeps the lines of `error`. */
function recordingLogger(): PluginLogger & { errors: string[] } {
  const errors: string[] = [];
  return {
    errors,
    debug() {},
    info() {},
    warn() {},
    error: (message: string) => void errors.push(message),
  };
}

/** What node-postgres raises for a server error: an Error with the SQLSTATE as `code`. */
function pgError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code, severity: "ERROR" });
}

const ERROR_ID = /error id ([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/;

/** A real TypeError, as a bug in the plugin's code raises it. */
function typeError(): TypeError {
  const input = undefined as unknown as { description: string };
  try {
    return new TypeError(`never: ${input.description}`);
  } catch (error) {
    return error as TypeError;
  }
}

describe("providerError", () => {
  it("answers a TypeError 500 internal_error, and logs its stack under the id the message gives", () => {
    const logger = recordingLogger();
    const answer = providerError(typeError(), logger, "before_code");
    expect([answer.code, answer.status]).toEqual(["internal_error", 500]);
    const id = ERROR_ID.exec(answer.message)?.[1];
    expect(id).toBeDefined();
    expect(logger.errors).toHaveLength(1);
    expect(logger.errors[0]).toContain(`unexpected error ${id}`);
    expect(logger.errors[0]).toMatch(/TypeError: Cannot read properties of undefined/);
    // The stack, not just the message: the merchant can find the line that failed.
    expect(logger.errors[0]).toMatch(/\n\s+at .*errors\.test\.ts/);
  });

  it("never tells a bug's caller to try again, and says what is true of the money", () => {
    const before = providerError(typeError(), recordingLogger(), "before_code").message;
    const after = providerError(typeError(), recordingLogger(), "after_code").message;
    for (const message of [before, after]) {
      expect(message).not.toMatch(/try again|retry|unavailable/i);
      expect(message).toMatch(/bug/);
    }
    expect(before).toMatch(/nothing was charged/);
    expect(after).not.toMatch(/nothing was charged/);
    expect(after).toMatch(/payment already made is kept/);
  });

  it("gives each bug its own error id", () => {
    const ids = [1, 2].map(
      () =>
        ERROR_ID.exec(providerError(typeError(), recordingLogger(), "before_code").message)?.[1],
    );
    expect(ids[0]).not.toBe(ids[1]);
  });

  it.each([
    ["a RangeError", new RangeError("Invalid time value")],
    ["a unique violation", pgError("23505", "duplicate key value violates unique constraint")],
    ["an exception a trigger raised", pgError("P0001", "injected")],
    ["an Error without a code", new Error("insert failed")],
  ])("answers %s 500 internal_error, not store_unavailable", (_name, error) => {
    expect(providerError(error, recordingLogger(), "before_code").code).toBe("internal_error");
  });

  it.each([
    ["a lost connection (08006)", pgError("08006", "connection failure")],
    ["the server going away (57P01)", pgError("57P01", "terminating connection")],
    ["a serialization failure (40001)", pgError("40001", "could not serialize access")],
    ["a lock timeout (55P03)", pgError("55P03", "canceling statement due to lock timeout")],
    [
      "a refused socket (ECONNREFUSED)",
      Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }),
    ],
    [
      "knex's acquire timeout",
      Object.assign(new Error("Knex: Timeout acquiring a connection. The pool is probably full."), {
        name: "KnexTimeoutError",
      }),
    ],
    ["Medusa's lock wait", new Error("Timed-out acquiring lock.")],
  ])("answers %s 503 store_unavailable, to be asked again", (_name, error) => {
    const answer = providerError(error, recordingLogger(), "before_code");
    expect([answer.code, answer.status]).toEqual(["store_unavailable", 503]);
    expect(answer.message).toMatch(/Try again in a few seconds/);
  });

  it("keeps the payment service's code, and the plugin's own errors as they are", () => {
    const timeout = Object.assign(new Error("the service did not answer"), { code: "timeout" });
    expect(providerError(timeout, recordingLogger(), "before_code")).toMatchObject({
      code: "timeout",
      status: 503,
    });
    const own = new PixCheckoutError("missing_payer_data", "x");
    expect(providerError(own, recordingLogger(), "before_code")).toBe(own);
  });

  it("logs no secret of a bug's message or stack", () => {
    const logger = recordingLogger();
    const leaky = new TypeError("bad header for sk_live_abcdef0123456789 at postgres://u:pw@db/x");
    providerError(leaky, logger, "after_code");
    expect(logger.errors.join("\n")).not.toContain("sk_live_abcdef0123456789");
    expect(logger.errors.join("\n")).not.toContain(":pw@");
  });

  it("is answered 500 internal_error, with the error id, by Medusa's own handler", () => {
    const answer = providerError(typeError(), recordingLogger(), "before_code");
    const http = getHttpResponseFromError(answer);
    expect(http.statusCode).toBe(500);
    expect(http.body).toMatchObject({ code: "internal_error", message: answer.message });
    expect(http.body.message).toMatch(ERROR_ID);
  });
});
