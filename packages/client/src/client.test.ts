import { describe, expect, it } from "vitest";
import { chargeB } from "./test-support/fixtures.js";
import { mockClient } from "./test-support/mock-api.js";
import { parseWebhook } from "./webhooks.js";

const paidEvent = parseWebhook({
  event: "charge.paid",
  data: {
    uuid: "4b7c1f7e-6a1e-4a53-9f3e-2f8f0c1d2e3f",
    id: "ch_svc_abc123",
    amount: 1990,
    status: "paid",
  },
});

describe("verifyWebhook", () => {
  it("confirms a charge.paid the API agrees with", async () => {
    const { client, pool } = mockClient("b");
    pool
      .intercept({ path: "/v1/charges/ch_svc_abc123/status" })
      .reply(200, { id: "ch_svc_abc123", status: "paid", paid: true });
    expect(await client.verifyWebhook(paidEvent)).toEqual({
      event: "charge.paid",
      chargeId: "ch_svc_abc123",
      status: "paid",
      paid: true,
      claimedStatus: "paid",
      verified: true,
    });
  });

  it("reports a forged charge.paid as unverified, with the API's status", async () => {
    const { client, pool } = mockClient("b");
    pool
      .intercept({ path: "/v1/charges/ch_svc_abc123/status" })
      .reply(200, { id: "ch_svc_abc123", status: "pending", paid: false });
    expect(await client.verifyWebhook(paidEvent)).toMatchObject({
      status: "pending",
      paid: false,
      verified: false,
    });
  });

  it("asks Variant A by the event's uuid", async () => {
    const { client, pool } = mockClient("a");
    pool
      .intercept({ path: "/v1/charges/4b7c1f7e-6a1e-4a53-9f3e-2f8f0c1d2e3f/status" })
      .reply(200, { uuid: "4b7c1f7e-6a1e-4a53-9f3e-2f8f0c1d2e3f", status: "paid", paid: true });
    expect((await client.verifyWebhook(paidEvent)).verified).toBe(true);
  });

  it("looks a transfer event up in the withdrawal list", async () => {
    const { client, pool } = mockClient("b");
    pool
      .intercept({
        path: (path: string) =>
          path.startsWith("/v1/transactions?") && path.includes("type=withdrawal"),
      })
      .reply(200, {
        object: "list",
        data: [
          { id: "wd_1", object: "withdrawal", amount: 10, amount_cents: 1000, status: "completed" },
        ],
        has_more: false,
      });
    const event = parseWebhook({
      event: "transfer.completed",
      data: { id: "wd_1", amount: 1000, status: "completed" },
    });
    expect(await client.verifyWebhook(event)).toMatchObject({
      withdrawalId: "wd_1",
      status: "completed",
      verified: true,
    });
  });

  it("retrieve returns the charge's current status", async () => {
    const { client, pool } = mockClient("b");
    pool
      .intercept({ path: "/v1/charges/ch_svc_abc123" })
      .reply(200, chargeB({ status: "expired" }));
    expect((await client.charges.retrieve("ch_svc_abc123")).status).toBe("expired");
  });
});
