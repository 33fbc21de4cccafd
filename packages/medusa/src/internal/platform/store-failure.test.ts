import { connect } from "node:net";
import { describe, expect, it } from "vitest";
import { isStoreFailure, isStoreFailureInProvider } from "./store-failure";
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

describe("isStoreFailureInProvider", () => {
  it("takes any failure without the payment service's code as the store's", () => {
    expect(isStoreFailureInProvider(pgError("23505", "duplicate key"))).toBe(true);
    expect(isStoreFailureInProvider(new Error("insert failed"))).toBe(true);
    expect(isStoreFailureInProvider(Object.assign(new Error("slow"), { code: "timeout" }))).toBe(
      false,
    );
  });
});
