import { describe, expect, it } from "vitest";
import {
  ChargeMatchAmbiguousError,
  ChargeOutcomeUnknownError,
  InvalidRequestError,
  ResponseValidationError,
} from "../errors.js";
import { chargeB } from "../test-support/fixtures.js";
import { mockClient } from "../test-support/mock-api.js";

function item(
  id: string,
  amountCents: number,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    id,
    object: "charge",
    amount: amountCents / 100,
    amount_cents: amountCents,
    currency: "BRL",
    status: "pending",
    description: `Order ${id}`,
    customer: { name: "Maria", email: "maria@example.com" },
    fee: { amount: 0.5, net_amount: amountCents / 100 - 0.5 },
    created_at: "2026-03-01T12:00:00Z",
    livemode: true,
    ...extra,
  };
}

const list = (data: unknown[], hasMore: boolean) => ({
  object: "list",
  data,
  has_more: hasMore,
  url: "/v1/transactions",
});

describe("transactions.list", () => {
  it("awaits to the first page", async () => {
    const { client, pool } = mockClient("b");
    pool
      .intercept({ path: "/v1/transactions", query: { limit: "2", type: "charge" } })
      .reply(200, list([item("ch_svc_a", 1000), item("ch_svc_b", 2000)], true));
    const page = await client.transactions.list({ limit: 2, type: "charge" });
    expect(page.data.map((tx) => tx.id)).toEqual(["ch_svc_a", "ch_svc_b"]);
    expect(page).toMatchObject({ hasMore: true, nextCursor: "ch_svc_b" });
    expect(page.data[0]).toMatchObject({
      type: "charge",
      amountCents: 1000,
      feeCents: 50,
      netAmountCents: 950,
    });
  });

  it("iterates every item of every page with for await", async () => {
    const { client, pool } = mockClient("b");
    pool
      .intercept({ path: "/v1/transactions", query: { limit: "2" } })
      .reply(200, list([item("ch_svc_a", 1000), item("ch_svc_b", 1000)], true));
    pool
      .intercept({ path: "/v1/transactions", query: { limit: "2", starting_after: "ch_svc_b" } })
      .reply(200, list([item("ch_svc_c", 1000), item("ch_svc_d", 1000)], true));
    pool
      .intercept({ path: "/v1/transactions", query: { limit: "2", starting_after: "ch_svc_d" } })
      .reply(200, list([item("ch_svc_e", 1000)], false));
    const ids: string[] = [];
    for await (const tx of client.transactions.list({ limit: 2 })) ids.push(tx.id);
    expect(ids).toEqual(["ch_svc_a", "ch_svc_b", "ch_svc_c", "ch_svc_d", "ch_svc_e"]);
  });

  it("stops with an error when has_more makes no progress", async () => {
    const { client, pool } = mockClient("b");
    pool.intercept({ path: "/v1/transactions" }).reply(200, list([], true));
    const drain = async (): Promise<void> => {
      for await (const _ of client.transactions.list()) void _;
    };
    await expect(drain()).rejects.toBeInstanceOf(ResponseValidationError);
  });

  it("rejects a limit over 100 before sending", () => {
    const { client } = mockClient("b");
    expect(() => client.transactions.list({ limit: 101 })).toThrow(InvalidRequestError);
  });

  it("reads Variant A items by uuid with integer cents", async () => {
    const { client, pool } = mockClient("a");
    pool.intercept({ path: "/v1/transactions" }).reply(
      200,
      list(
        [
          {
            uuid: "4b7c1f7e-6a1e-4a53-9f3e-2f8f0c1d2e3f",
            amount: 1990,
            status: "paid",
            created_at: "2026-03-01T12:00:00Z",
          },
        ],
        false,
      ),
    );
    const page = await client.transactions.list();
    expect(page.data[0]).toMatchObject({
      id: "4b7c1f7e-6a1e-4a53-9f3e-2f8f0c1d2e3f",
      amountCents: 1990,
    });
  });

  it("rejects a Variant B item whose float amount disagrees with amount_cents", async () => {
    const { client, pool } = mockClient("b");
    pool
      .intercept({ path: "/v1/transactions" })
      .reply(200, list([item("ch_svc_a", 1000, { amount: 10.01 })], false));
    await expect(client.transactions.list()).rejects.toBeInstanceOf(ResponseValidationError);
  });
});

function unknownOutcome(description?: string): ChargeOutcomeUnknownError {
  return new ChargeOutcomeUnknownError("lost", {
    code: "charge_outcome_unknown",
    details: {
      method: "pix",
      amountCents: 1990,
      ...(description === undefined ? {} : { description }),
      customer: { email: "maria@example.com" },
      window: { from: "2026-03-01T12:00:00.000Z", to: "2026-03-01T12:00:30.000Z" },
    },
  });
}

describe("charges.findAfterUnknownOutcome", () => {
  it("finds the one charge matching amount and description inside the window", async () => {
    const { client, pool } = mockClient("b");
    pool
      .intercept({
        path: "/v1/transactions",
        query: {
          type: "charge",
          limit: "100",
          "created[gte]": "2026-03-01T11:58:00.000Z",
          "created[lte]": "2026-03-01T12:02:30.000Z",
        },
      })
      .reply(
        200,
        list(
          [
            item("ch_svc_other", 5000),
            item("ch_svc_lost", 1990, { description: "Order 1001" }),
            item("ch_svc_x", 1990),
          ],
          false,
        ),
      );
    pool
      .intercept({ path: "/v1/charges/ch_svc_lost" })
      .reply(200, chargeB({ id: "ch_svc_lost", description: "Order 1001" }));
    const found = await client.charges.findAfterUnknownOutcome(unknownOutcome("Order 1001"));
    expect(found?.id).toBe("ch_svc_lost");
  });

  it("answers null when nothing matches", async () => {
    const { client, pool } = mockClient("b");
    pool
      .intercept({ path: (path: string) => path.startsWith("/v1/transactions?") })
      .reply(200, list([item("ch_svc_other", 5000)], false));
    expect(await client.charges.findAfterUnknownOutcome(unknownOutcome("Order 1001"))).toBeNull();
  });

  it("refuses to guess between two equal candidates", async () => {
    const { client, pool } = mockClient("b");
    pool
      .intercept({ path: (path: string) => path.startsWith("/v1/transactions?") })
      .reply(
        200,
        list(
          [
            item("ch_svc_1", 1990, { description: "Same" }),
            item("ch_svc_2", 1990, { description: "Same" }),
          ],
          false,
        ),
      );
    const error = await client.charges
      .findAfterUnknownOutcome(unknownOutcome("Same"))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChargeMatchAmbiguousError);
    expect((error as ChargeMatchAmbiguousError).candidateIds).toEqual(["ch_svc_1", "ch_svc_2"]);
  });
});
