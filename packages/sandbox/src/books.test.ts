import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./test-support/harness.js";

// Control routes that make the service's books disagree with a store's, for reconciliation
// tests. The service must stay consistent with itself: list, read and balance agree.
describe.each(["a", "b"] as const)("books that disagree, variant %s", (variant) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ variant, releaseDelayMs: 0 });
  });
  afterAll(() => h.close());
  beforeEach(async () => {
    await h.control("POST", "/reset");
  });

  const paid = async (amount: number) => {
    const id = h.idOf(await h.createPix(amount));
    await h.control("POST", `/charges/${id}/pay`);
    return id;
  };
  const available = async () => (await h.call("GET", "/v1/balance")).body.available[0].amount;
  const listedIds = async () =>
    (await h.call("GET", "/v1/transactions?limit=100")).body.data.map(
      (item: { uuid?: string; id?: string }) => h.idOf(item),
    );

  it("drops a paid charge from the list, the read and the balance", async () => {
    const kept = await paid(10_000);
    const dropped = await paid(5_000);
    const answer = await h.control("POST", `/transactions/${dropped}/drop`);
    expect(answer.body).toEqual({ dropped });
    expect(await listedIds()).toEqual([kept]);
    expect((await h.call("GET", `/v1/charges/${dropped}`)).status).toBe(404);
    expect(await available()).toBe(10_000 - 99);
  });

  it("records another amount for a charge, with its fee, in the list and the balance", async () => {
    const id = await paid(10_000);
    const answer = await h.control("POST", `/transactions/${id}/amount`, { amount: 5_000 });
    expect(answer.status).toBe(200);
    const [item] = (await h.call("GET", "/v1/transactions")).body.data;
    const cents = variant === "a" ? item.amount : item.amount_cents;
    const fee = variant === "a" ? item.fee.amount : item.fee.amount_cents;
    expect([cents, fee]).toEqual([5_000, 50]);
    expect(await available()).toBe(5_000 - 50);
  });

  it("refuses an amount that is not positive integer cents", async () => {
    const id = await paid(1_000);
    const answer = await h.control("POST", `/transactions/${id}/amount`, { amount: 10.5 });
    expect([answer.status, answer.body.error.code]).toEqual([400, "invalid_field"]);
  });

  it("answers 404 charge_not_found for an unknown charge", async () => {
    const answer = await h.control(
      "POST",
      "/transactions/00000000-0000-4000-8000-000000000000/drop",
    );
    expect([answer.status, answer.body.error.code]).toEqual([404, "charge_not_found"]);
  });
});
