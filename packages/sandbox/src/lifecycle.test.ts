import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { boletoBody, startHarness, type Harness } from "./test-support/harness.js";

describe.each(["a", "b"] as const)("charge lifecycle and control routes, variant %s", (variant) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ variant });
  });
  afterAll(() => h.close());
  beforeEach(async () => {
    await h.control("POST", "/reset");
  });

  const status = async (id: string) => (await h.call("GET", `/v1/charges/${id}/status`)).body;

  it("marks a charge paid through the pay control route", async () => {
    const id = h.idOf(await h.createPix());
    const reply = await h.control("POST", `/charges/${id}/pay`);
    expect(reply.status).toBe(200);
    expect(reply.body.status).toBe("paid");
    expect(await status(id)).toMatchObject({ status: "paid", paid: true });
  });

  it("sets paid_at on a paid charge", async () => {
    const id = h.idOf(await h.createPix());
    await h.control("POST", `/charges/${id}/pay`);
    expect((await h.call("GET", `/v1/charges/${id}`)).body.paid_at).toMatch(/^\d{4}-/);
  });

  it.each([
    ["expire", "expired"],
    ["fail", "failed"],
  ])("moves a charge with the %s control route to %s, with paid false", async (action, final) => {
    const id = h.idOf(await h.createPix());
    await h.control("POST", `/charges/${id}/${action}`);
    expect(await status(id)).toMatchObject({ status: final, paid: false });
  });

  it.each(["paid", "expired", "failed"])(
    "keeps a %s charge final: every further move is 409 charge_not_pending",
    async (final) => {
      const id = h.idOf(await h.createPix());
      const action = { paid: "pay", expired: "expire", failed: "fail" }[final] as string;
      await h.control("POST", `/charges/${id}/${action}`);
      for (const next of ["pay", "expire", "fail"]) {
        const reply = await h.control("POST", `/charges/${id}/${next}`);
        expect(reply.status).toBe(409);
        expect(reply.body.error.code).toBe("charge_not_pending");
      }
      expect((await status(id)).status).toBe(final);
    },
  );

  if (variant === "a") {
    it("pays an expired boleto late, as a bank confirming a payment made on its due date", async () => {
      const id = h.idOf((await h.call("POST", "/v1/charges", { body: boletoBody() })).body);
      await h.control("POST", `/charges/${id}/expire`);
      const reply = await h.control("POST", `/charges/${id}/pay`, { late: true });
      expect(reply.status).toBe(200);
      expect(await status(id)).toMatchObject({ status: "paid", paid: true });
    });

    it("refuses to pay a Pix late: only a boleto's bank confirms after expiry", async () => {
      const id = h.idOf(await h.createPix());
      await h.control("POST", `/charges/${id}/expire`);
      const reply = await h.control("POST", `/charges/${id}/pay`, { late: true });
      expect(reply.status).toBe(409);
      expect(reply.body.error.code).toBe("charge_not_pending");
      expect((await status(id)).status).toBe("expired");
    });
  }

  it("answers 404 charge_not_found when moving an unknown charge", async () => {
    const reply = await h.control("POST", "/charges/00000000-0000-4000-8000-000000000000/pay");
    expect(reply.status).toBe(404);
    expect(reply.body.error.code).toBe("charge_not_found");
  });

  it("keeps a charge pending until the clock reaches expires_at", async () => {
    const id = h.idOf(await h.createPix());
    await h.control("POST", "/clock", { advance_ms: 30 * 60_000 - 5_000 });
    expect((await status(id)).status).toBe("pending");
  });

  it("expires a Pix charge when the clock passes expires_at", async () => {
    const id = h.idOf(await h.createPix());
    await h.control("POST", "/clock", { advance_ms: 30 * 60_000 + 1 });
    expect(await status(id)).toMatchObject({ status: "expired", paid: false });
  });

  it("expires a charge when the clock is set past expires_at with an ISO time", async () => {
    const created = await h.createPix();
    const later = new Date(Date.parse(created.expires_at) + 1_000).toISOString();
    const reply = await h.control("POST", "/clock", { now: later });
    expect(Date.parse(reply.body.now)).toBeGreaterThanOrEqual(Date.parse(later));
    expect((await status(h.idOf(created))).status).toBe("expired");
  });

  it("refuses to pay a charge the clock has already expired", async () => {
    const id = h.idOf(await h.createPix());
    h.sandbox.clock.advance(31 * 60_000);
    const reply = await h.control("POST", `/charges/${id}/pay`);
    expect(reply.status).toBe(409);
    expect((await status(id)).status).toBe("expired");
  });

  it("refuses a clock move backwards with 400 clock_backwards", async () => {
    const reply = await h.control("POST", "/clock", { now: "2001-01-01T00:00:00Z" });
    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toBe("clock_backwards");
  });

  it("refuses a malformed clock body with 400 invalid_clock", async () => {
    const reply = await h.control("POST", "/clock", { advance_ms: -1 });
    expect(reply.body.error.code).toBe("invalid_clock");
  });

  it("lists every charge newest first on the control route", async () => {
    const first = await h.createPix(1000);
    const second = await h.createPix(2000);
    const reply = await h.control("GET", "/charges");
    expect(reply.body.map((charge: { uuid?: string; id?: string }) => h.idOf(charge))).toEqual([
      h.idOf(second),
      h.idOf(first),
    ]);
  });

  it("tells the payer a charge was created with, its document too, on the control route", async () => {
    const created = await h.createPix(1000, {
      customer: { name: "Ana", document: "12ABC34501DE35" },
    });
    const reply = await h.control("GET", `/charges/${h.idOf(created)}/payer`);
    expect(reply.body).toEqual({ name: "Ana", document: "12ABC34501DE35" });
    expect((await h.control("GET", `/charges/${h.idOf(await h.createPix())}/payer`)).body).toEqual(
      {},
    );
  });

  it("forgets every charge on reset", async () => {
    const id = h.idOf(await h.createPix());
    await h.control("POST", "/reset");
    expect((await h.call("GET", `/v1/charges/${id}`)).status).toBe(404);
  });
});
