import { connect } from "node:net";
import { describe, expect, it } from "vitest";
import { isPaymentServiceError, isStoreFailure } from "./store-failure";
import { PixCheckoutError } from "./errors";

/** A real socket error: a connection to a loopback port nobody listens on. */
function refusedConnection(): Promise<Error> {
  return new Promise((resolve) => {
    const socket = connect(1, "127.0.0.1");
    socket.on("error", (error) => resolve(error));
  });
}

/** What node-postgres raises for a server error: an Error with the SQLSTATE as `code`. */
function pgError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code, severity: "ERROR" });
}

describe("isStoreFailure", () => {
  it("recognizes a refused connection to the database", async () => {
    const error = await refusedConnection();
    expect((error as { code?: string }).code).toBe("ECONNREFUSED");
    expect(isStoreFailure(error)).toBe(true);
  });

  it.each([
    ["08006", "connection failure"],
    ["57P01", "terminating connection due to administrator command"],
    ["57014", "canceling statement due to statement timeout"],
    ["55P03", "canceling statement due to lock timeout"],
    ["40P01", "deadlock detected"],
    ["40001", "could not serialize access due to concurrent update"],
    ["53300", "sorry, too many clients already"],
  ])("recognizes Postgres %s (%s)", (code, message) => {
    expect(isStoreFailure(pgError(code, message))).toBe(true);
  });

  it("recognizes a lost connection, an exhausted pool and a lock wait that ran out", () => {
    expect(isStoreFailure(new Error("Connection terminated unexpectedly"))).toBe(true);
    const acquire = Object.assign(
      new Error("Knex: Timeout acquiring a connection. The pool is probably full."),
      { name: "KnexTimeoutError" },
    );
    expect(isStoreFailure(acquire)).toBe(true);
    expect(isStoreFailure(new Error("Timed-out acquiring lock."))).toBe(true);
  });

  it("follows the wrappers of MikroORM, workflows and AggregateError to the driver's error", () => {
    const driver = pgError("57P01", "terminating connection due to administrator command");
    expect(isStoreFailure(new Error("query failed", { cause: driver }))).toBe(true);
    expect(isStoreFailure({ message: "step failed", originalError: driver })).toBe(true);
    expect(isStoreFailure(new AggregateError([new Error("x"), driver]))).toBe(true);
  });

  it("is not fooled by the caller's input, a bug, the plugin's own errors or the payment service", () => {
    expect(isStoreFailure(pgError("23505", "duplicate key value violates unique constraint"))).toBe(
      false,
    );
    expect(isStoreFailure(pgError("42601", 'syntax error at or near "selec"'))).toBe(false);
    expect(isStoreFailure(new TypeError("Cannot read properties of undefined"))).toBe(false);
    expect(isStoreFailure(new PixCheckoutError("session_not_found", "x"))).toBe(false);
    // The payment client's connection error carries its own code over the socket's.
    const service = Object.assign(new Error("could not reach the payment API"), {
      code: "connection_error",
      cause: Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }),
    });
    expect(isStoreFailure(service)).toBe(false);
    expect(isStoreFailure(undefined)).toBe(false);
    expect(isStoreFailure("Connection terminated")).toBe(false);
  });
});

describe("isStoreFailure, by what an error says and never by what it lacks", () => {
  it.each([
    ["a TypeError", new TypeError("Cannot read properties of undefined (reading 'description')")],
    ["a RangeError", new RangeError("Invalid time value")],
    ["a plain Error", new Error("insert failed")],
    ["a unique violation", pgError("23505", "duplicate key value violates unique constraint")],
    ["a check violation", pgError("23514", 'new row violates check constraint "amount_positive"')],
    ["an exception a trigger raised", pgError("P0001", "injected")],
    [
      "Node's own error code",
      Object.assign(new TypeError("bad"), { code: "ERR_INVALID_ARG_TYPE" }),
    ],
    ["a thrown string", "boom"],
  ])("takes %s for a bug, not the store's database", (_name, error) => {
    expect(isStoreFailure(error)).toBe(false);
  });

  it.each([
    [
      "a refused socket",
      Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }),
    ],
    ["a lost connection", pgError("08006", "connection failure")],
    [
      "the server going away",
      pgError("57P01", "terminating connection due to administrator command"),
    ],
    ["a serialization failure", pgError("40001", "could not serialize access")],
    ["a lock timeout", pgError("55P03", "canceling statement due to lock timeout")],
    ["a full disk", pgError("53100", "could not extend file: No space left on device")],
    [
      "knex's acquire timeout",
      Object.assign(new Error("Knex: Timeout acquiring a connection. The pool is probably full."), {
        name: "KnexTimeoutError",
      }),
    ],
    ["Medusa's lock wait", new Error("Timed-out acquiring lock.")],
  ])("takes %s for the store's database", (_name, error) => {
    expect(isStoreFailure(error)).toBe(true);
  });
});

describe("isPaymentServiceError", () => {
  it("takes the client's snake_case codes for the payment service's, and nothing else", () => {
    expect(isPaymentServiceError(Object.assign(new Error("slow"), { code: "timeout" }))).toBe(true);
    expect(isPaymentServiceError(Object.assign(new Error("x"), { code: "invalid_request" }))).toBe(
      true,
    );
    expect(isPaymentServiceError(new TypeError("x"))).toBe(false);
    expect(isPaymentServiceError(pgError("23505", "duplicate key"))).toBe(false);
    expect(isPaymentServiceError(Object.assign(new Error("x"), { code: "ECONNRESET" }))).toBe(
      false,
    );
    // Medusa's errors carry codes of the same shape, but are not the payment service's.
    expect(
      isPaymentServiceError(
        Object.assign(new Error("x"), { code: "insufficient_inventory", __isMedusaError: true }),
      ),
    ).toBe(false);
    expect(isPaymentServiceError(undefined)).toBe(false);
  });
});
