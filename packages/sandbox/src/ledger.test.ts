import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { boletoBody, startHarness, type Harness } from "./test-support/harness.js";

const DAY = 86_400_000;

describe.each(["a", "b"] as const)("balance, variant %s", (variant) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ variant });
  });
  afterAll(() => h.close());
  beforeEach(async () => {
    await h.control("POST", "/reset");
  });

  const balance = async () => (await h.call("GET", "/v1/balance")).body;
  const paidPix = async (amount: number) => {
    const id = h.idOf(await h.createPix(amount));
    await h.control("POST", `/charges/${id}/pay`);
  };
  const withdrawal = async (amount: number, end?: "complete" | "fail") => {
    const body = (await h.control("POST", "/withdrawals", { amount })).body;
    if (end)
      await h.control("POST", `/withdrawals/${variant === "a" ? body.uuid : body.id}/${end}`);
  };

  it("starts at zero with the spec's shape", async () => {
    expect(await balance()).toEqual({
      object: "balance",
      available: [{ amount: 0, currency: "brl" }],
      pending: [{ amount: 0, currency: "brl" }],
      summary: {
        available_balance: 0,
        pending_balance: 0,
        total_earned: 0,
        total_withdrawn: 0,
        currency: "BRL",
      },
      livemode: true,
    });
  });

  it("holds a paid charge's net amount as pending until the release delay passes", async () => {
    await paidPix(10_000);
    const before = await balance();
    expect(before.pending[0].amount).toBe(9_901);
    expect(before.available[0].amount).toBe(0);
    h.sandbox.clock.advance(DAY);
    const after = await balance();
    expect(after.pending[0].amount).toBe(0);
    expect(after.available[0].amount).toBe(9_901);
  });

  it("ignores charges that are pending, expired or failed", async () => {
    await h.createPix(5_000);
    await h.control("POST", `/charges/${h.idOf(await h.createPix(6_000))}/expire`);
    await h.control("POST", `/charges/${h.idOf(await h.createPix(7_000))}/fail`);
    h.sandbox.clock.advance(DAY);
    expect((await balance()).available[0].amount).toBe(0);
  });

  it("subtracts completed and processing withdrawals from available, but not failed ones", async () => {
    await paidPix(100_000); // net 99_010
    h.sandbox.clock.advance(DAY);
    await withdrawal(10_000, "complete");
    await withdrawal(20_000);
    await withdrawal(40_000, "fail");
    const body = await balance();
    expect(body.available[0].amount).toBe(99_010 - 10_000 - 20_000);
    expect(body.summary).toMatchObject({
      available_balance: 690.1,
      total_withdrawn: 100,
      total_earned: 990.1,
    });
  });

  it("rounds the Pix fee half up to the cent", async () => {
    await paidPix(5_051); // 0.99 % = 50.0049 -> 50
    await paidPix(5_000); // exactly 49.5 -> 50 (half up)
    await paidPix(1_516); // 15.0084 -> 15
    await paidPix(2_273); // 22.5027 -> 23
    expect((await balance()).pending[0].amount).toBe(
      5_051 - 50 + 5_000 - 50 + 1_516 - 15 + 2_273 - 23,
    );
  });

  if (variant === "a") {
    it("takes a fixed R$ 3.49 fee from a paid boleto", async () => {
      const body = (await h.call("POST", "/v1/charges", { body: boletoBody({ amount: 10_000 }) }))
        .body;
      await h.control("POST", `/charges/${body.uuid}/pay`);
      expect((await balance()).pending[0].amount).toBe(10_000 - 349);
    });
  }

  it("creates a withdrawal in processing through the API when the balance covers it", async () => {
    await paidPix(10_000);
    h.sandbox.clock.advance(DAY);
    const reply = await h.call("POST", "/v1/withdrawals", {
      body: { amount: 5_000, pix_key: "ana@example.com" },
    });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject(
      variant === "a"
        ? { success: true, amount: 5_000, status: "processing", pix_key: "ana@example.com" }
        : {
            object: "withdrawal",
            amount: 50,
            amount_cents: 5_000,
            currency: "BRL",
            status: "processing",
            livemode: true,
          },
    );
    expect((await balance()).available[0].amount).toBe(9_901 - 5_000);
  });

  it("refuses a withdrawal above the available balance with 400 insufficient_balance", async () => {
    await paidPix(10_000); // still pending: nothing available yet
    const reply = await h.call("POST", "/v1/withdrawals", { body: { amount: 100 } });
    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toBe("insufficient_balance");
  });

  it.each([0, -1, 2.5, "100"])(
    "refuses a withdrawal amount of %j with 400 invalid_amount",
    async (amount) => {
      const reply = await h.call("POST", "/v1/withdrawals", { body: { amount } });
      expect(reply.body.error.code).toBe("invalid_amount");
    },
  );

  it("lists withdrawals newest first on the control route", async () => {
    const first = (await h.control("POST", "/withdrawals", { amount: 100 })).body;
    const second = (await h.control("POST", "/withdrawals", { amount: 200 })).body;
    const listed = (await h.control("GET", "/withdrawals")).body;
    expect(listed.map((w: { amount: number }) => w.amount)).toEqual([second.amount, first.amount]);
  });

  it("answers 409 withdrawal_not_processing when finishing a finished withdrawal", async () => {
    const body = (await h.control("POST", "/withdrawals", { amount: 100 })).body;
    const id = variant === "a" ? body.uuid : body.id;
    await h.control("POST", `/withdrawals/${id}/complete`);
    const reply = await h.control("POST", `/withdrawals/${id}/fail`);
    expect(reply.status).toBe(409);
    expect(reply.body.error.code).toBe("withdrawal_not_processing");
  });
});

describe.each(["a", "b"] as const)("transactions, variant %s", (variant) => {
  let h: Harness;
  const ids: string[] = []; // newest first
  let withdrawalId = "";
  beforeAll(async () => {
    h = await startHarness({ variant });
    // 25 charges a minute apart: every 5th paid, every 7th failed; then one withdrawal.
    for (let i = 0; i < 25; i++) {
      const id = h.idOf(await h.createPix(1_000 + i, { description: `charge ${i}` }));
      if (i % 5 === 0) await h.control("POST", `/charges/${id}/pay`);
      else if (i % 7 === 0) await h.control("POST", `/charges/${id}/fail`);
      ids.unshift(id);
      h.sandbox.clock.advance(60_000);
    }
    const body = (await h.control("POST", "/withdrawals", { amount: 500 })).body;
    withdrawalId = variant === "a" ? body.uuid : body.id;
  });
  afterAll(() => h.close());

  const list = async (query = "") => (await h.call("GET", `/v1/transactions${query}`)).body;
  const idOfItem = (item: { uuid?: string; id?: string }) => h.idOf(item);

  it("returns 10 items newest first by default, with has_more and the endpoint's url", async () => {
    const body = await list();
    expect(body.object).toBe("list");
    expect(body.url).toBe("/v1/transactions");
    expect(body.has_more).toBe(true);
    expect(body.data.map(idOfItem)).toEqual([withdrawalId, ...ids.slice(0, 9)]);
  });

  it("walks every page with starting_after until has_more is false", async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    for (;;) {
      const body = await list(`?limit=7${cursor ? `&starting_after=${cursor}` : ""}`);
      pages += 1;
      seen.push(...body.data.map(idOfItem));
      if (!body.has_more) break;
      cursor = seen.at(-1);
    }
    expect(pages).toBe(4);
    expect(seen).toEqual([withdrawalId, ...ids]);
  });

  it("answers has_more false when the last page is exactly full", async () => {
    expect((await list("?limit=26")).has_more).toBe(false);
    expect((await list("?limit=25")).has_more).toBe(true);
  });

  it.each(["0", "101", "-1", "abc", "2.5"])(
    "refuses limit=%s with 400 invalid_limit",
    async (limit) => {
      const reply = await h.call("GET", `/v1/transactions?limit=${limit}`);
      expect(reply.status).toBe(400);
      expect(reply.body.error.code).toBe("invalid_limit");
    },
  );

  it.each(["1", "100"])("accepts limit=%s", async (limit) => {
    expect((await h.call("GET", `/v1/transactions?limit=${limit}`)).status).toBe(200);
  });

  it("filters by type", async () => {
    const withdrawals = await list("?type=withdrawal");
    expect(withdrawals.data.map(idOfItem)).toEqual([withdrawalId]);
    expect(withdrawals.data[0].object).toBe("withdrawal");
    const charges = await list("?type=charge&limit=100");
    expect(charges.data).toHaveLength(25);
    expect(charges.data.every((item: { object: string }) => item.object === "charge")).toBe(true);
  });

  it.each([
    ["paid", 5],
    ["failed", 3],
    ["pending", 17],
    ["processing", 1],
    ["expired", 0],
  ])("filters by status=%s", async (status, count) => {
    const body = await list(`?status=${status}&limit=100`);
    expect(body.data).toHaveLength(count);
    expect(body.data.every((item: { status: string }) => item.status === status)).toBe(true);
  });

  it("filters by created[gte] and created[lte], inclusive", async () => {
    const all = (await list("?type=charge&limit=100")).data;
    const from = all[14].created_at;
    const to = all[10].created_at;
    const body = await list(`?type=charge&created[gte]=${from}&created[lte]=${to}`);
    expect(body.data.map(idOfItem)).toEqual(ids.slice(10, 15));
  });

  it("combines filters with pagination", async () => {
    const first = await list("?status=paid&limit=2");
    expect(first.has_more).toBe(true);
    const second = await list(`?status=paid&limit=2&starting_after=${idOfItem(first.data[1])}`);
    const third = await list(`?status=paid&limit=2&starting_after=${idOfItem(second.data[1])}`);
    expect(third.has_more).toBe(false);
    expect([...first.data, ...second.data, ...third.data]).toHaveLength(5);
  });

  it.each([
    ["type=refund", "invalid_type"],
    ["status=done", "invalid_status"],
    ["created[gte]=yesterday", "invalid_created"],
    ["starting_after=nope", "invalid_starting_after"],
  ])("refuses %s with 400 %s", async (query, code) => {
    const reply = await h.call("GET", `/v1/transactions?${query}`);
    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toBe(code);
  });

  it("gives charge items the spec's fields", async () => {
    const item = (await list("?status=paid&limit=1")).data[0];
    if (variant === "b") {
      expect(Object.keys(item)).toEqual(
        expect.arrayContaining([
          "id",
          "object",
          "amount",
          "amount_cents",
          "currency",
          "status",
          "description",
          "fee",
          "created_at",
          "paid_at",
          "livemode",
        ]),
      );
      expect(item.fee).toEqual({
        amount: expect.any(Number),
        amount_cents: expect.any(Number),
        net_amount: expect.any(Number),
        net_amount_cents: expect.any(Number),
      });
    } else {
      expect(item).toMatchObject({
        object: "charge",
        currency: "BRL",
        status: "paid",
        fee: { amount: expect.any(Number), net_amount: expect.any(Number) },
      });
      expect(Number.isInteger(item.amount)).toBe(true);
    }
  });
});
