import { describe, expect, it } from "vitest";
import { WebhookParseError } from "./errors.js";
import { parseWebhook } from "./webhooks.js";

const paid = {
  event: "charge.paid",
  data: {
    uuid: "4b7c1f7e-6a1e-4a53-9f3e-2f8f0c1d2e3f",
    id: "ch_svc_abc123",
    amount: 1990,
    status: "paid",
    method: "pix",
    description: "Order 1001",
    customer: { name: "Maria", email: "maria@example.com" },
    created_at: "2026-03-01T12:00:00Z",
    paid_at: "2026-03-01T12:03:00Z",
  },
};

function parseError(body: unknown): WebhookParseError {
  try {
    parseWebhook(body);
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookParseError);
    return error as WebhookParseError;
  }
  throw new Error("parsed");
}

describe("parseWebhook", () => {
  it("parses a charge.paid body given as a string", () => {
    const event = parseWebhook(JSON.stringify(paid));
    expect(event.event).toBe("charge.paid");
    expect(event.data).toMatchObject({ uuid: paid.data.uuid, amount: 1990 });
  });

  it("parses a body given as bytes", () => {
    expect(parseWebhook(new TextEncoder().encode(JSON.stringify(paid))).event).toBe("charge.paid");
  });

  it.each([
    [
      "charge.expired",
      { uuid: "u1", amount: 500, status: "expired", expired_at: "2026-03-01T13:00:00Z" },
    ],
    [
      "charge.failed",
      { uuid: "u1", amount: 500, status: "failed", failure_reason: "bank_declined" },
    ],
    [
      "transfer.completed",
      { id: "wd_1", amount: 1000, status: "completed", completed_at: "2026-03-01T13:00:00Z" },
    ],
    [
      "transfer.failed",
      { id: "wd_1", amount: 1000, status: "failed", failure_reason: "invalid_key" },
    ],
  ])("parses %s", (event, data) => {
    expect(parseWebhook({ event, data }).event).toBe(event);
  });

  it("rejects an unknown event by name", () => {
    expect(parseError({ event: "charge.refunded", data: {} }).message).toContain("charge.refunded");
  });

  it("rejects a charge.paid whose status is not paid", () => {
    const error = parseError({ ...paid, data: { ...paid.data, status: "pending" } });
    expect(error.issues.map((issue) => issue.path)).toContain("data.status");
  });

  it("rejects an amount in reais", () => {
    const error = parseError({ ...paid, data: { ...paid.data, amount: 19.9 } });
    expect(error.issues.map((issue) => issue.path)).toContain("data.amount");
  });

  it("rejects a body that is not JSON", () => {
    expect(parseError("{not json").code).toBe("invalid_webhook");
  });
});
