import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  startHarness,
  startReceiver,
  type Harness,
  type Receiver,
} from "./test-support/harness.js";

describe.each(["a", "b"] as const)("fault injection, variant %s", (variant) => {
  let h: Harness;
  let receiver: Receiver;
  beforeAll(async () => {
    h = await startHarness({ variant, webhookRetryDelaysMs: [20] });
  });
  afterAll(() => h.close());
  beforeEach(async () => {
    receiver = await startReceiver();
    await h.control("POST", "/reset");
    await h.control("DELETE", "/webhook-urls");
    await h.control("POST", "/webhook-urls", { url: receiver.url });
  });
  afterEach(async () => {
    await h.control("DELETE", "/faults");
    await h.sandbox.webhooksIdle();
    await receiver.close();
  });

  const pay = async () => {
    const created = await h.createPix();
    await h.control("POST", `/charges/${h.idOf(created)}/pay`);
    return created;
  };

  it("answers every API call with 500 internal_error in the envelope at a 5xx rate of 1, changing nothing", async () => {
    await h.control("POST", "/faults", { http_5xx_rate: 1 });
    const reply = await h.call("POST", "/v1/charges", {
      body: { amount: 1000, payment_method: "pix" },
    });
    expect(reply.status).toBe(500);
    expect(reply.body.error.code).toBe("internal_error");
    expect(reply.headers.get("x-frame-options")).toBe("DENY");
    await h.control("DELETE", "/faults");
    expect((await h.control("GET", "/charges")).body).toEqual([]);
  });

  it("loses exactly the next N create responses after creating the charges", async () => {
    await h.control("POST", "/faults", { http_5xx_after_creates: 2 });
    const create = () =>
      h.call("POST", "/v1/charges", { body: { amount: 1000, payment_method: "pix" } });
    expect((await create()).status).toBe(500);
    // Reads are not counted.
    expect((await h.call("GET", "/v1/balance")).status).toBe(200);
    expect((await create()).status).toBe(500);
    expect((await create()).status).toBe(201);
    expect((await h.control("GET", "/charges")).body).toHaveLength(3);
    expect((await h.control("GET", "/faults")).body.http_5xx_after_creates).toBe(0);
  });

  it("fails exactly the next N creates before creating anything", async () => {
    await h.control("POST", "/faults", { http_5xx_before_creates: 1 });
    const create = () =>
      h.call("POST", "/v1/charges", { body: { amount: 1000, payment_method: "pix" } });
    expect((await create()).status).toBe(500);
    expect((await h.control("GET", "/charges")).body).toHaveLength(0);
    expect((await create()).status).toBe(201);
  });

  it("leaves control routes alone at a 5xx rate of 1", async () => {
    await h.control("POST", "/faults", { http_5xx_rate: 1 });
    expect((await h.control("GET", "/charges")).status).toBe(200);
  });

  it("adds the configured latency to API calls", async () => {
    await h.control("POST", "/faults", { latency_ms: [150, 150] });
    const started = performance.now();
    await h.call("GET", "/v1/balance");
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
  });

  it("drops every delivery at a drop rate of 1, and logs the drop", async () => {
    await h.control("POST", "/faults", { webhook_drop_rate: 1 });
    await pay();
    await h.sandbox.webhooksIdle();
    expect(receiver.received).toHaveLength(0);
    expect(h.sandbox.deliveries()[0]?.error).toMatch(/dropped/);
  });

  it("delivers every event twice at a duplicate rate of 1", async () => {
    await h.control("POST", "/faults", { webhook_duplicate_rate: 1 });
    await pay();
    const received = await receiver.waitFor(2);
    expect(received[0]?.body).toEqual(received[1]?.body);
  });

  it("holds deliveries back by the configured delay", async () => {
    await h.control("POST", "/faults", { webhook_delay_ms: [200, 200] });
    await pay();
    expect(receiver.received).toHaveLength(0);
    await receiver.waitFor(1);
  });

  it("delivers events of one burst in reverse order when reordering", async () => {
    await h.control("POST", "/faults", { webhook_reorder: true });
    const first = await h.createPix(1000);
    const second = await h.createPix(2000);
    await h.control("POST", `/charges/${h.idOf(first)}/pay`);
    await h.control("POST", `/charges/${h.idOf(second)}/pay`);
    const received = await receiver.waitFor(2);
    expect(received.map((r) => r.body.data.uuid)).toEqual([second.uuid, first.uuid]);
  });

  it.each([
    [{ webhook_drop_rate: 2 }, "webhook_drop_rate"],
    [{ latency_ms: [500, 100] }, "latency_ms"],
    [{ http_5xx_rate: "often" }, "http_5xx_rate"],
    [{ unknown_fault: true }, "body"],
  ])("refuses %j with 400 invalid_faults", async (body, param) => {
    const reply = await h.control("POST", "/faults", body);
    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toBe("invalid_faults");
    expect(reply.body.error.param).toBe(param);
  });

  it("clears faults with DELETE", async () => {
    await h.control("POST", "/faults", { http_5xx_rate: 1 });
    await h.control("DELETE", "/faults");
    expect((await h.call("GET", "/v1/balance")).status).toBe(200);
  });
});

describe("fault injection after processing", () => {
  it("creates the charge but answers 500 at an after-processing 5xx rate of 1", async () => {
    const h = await startHarness({ variant: "b" });
    try {
      await h.control("POST", "/faults", { http_5xx_after_rate: 1 });
      const reply = await h.call("POST", "/v1/charges", { body: { amount: 1000 } });
      expect(reply.status).toBe(500);
      expect(reply.body.error.code).toBe("internal_error");
      await h.control("DELETE", "/faults");
      expect((await h.control("GET", "/charges")).body).toHaveLength(1);
    } finally {
      await h.close();
    }
  });
});
