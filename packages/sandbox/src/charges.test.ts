import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox } from "./index.js";
import { boletoBody, startHarness, type Harness } from "./test-support/harness.js";

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/;

describe("create and read charges, variant A", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ variant: "a" });
  });
  afterAll(() => h.close());

  it("creates a Pix charge with the flat Variant A fields", async () => {
    const reply = await h.call("POST", "/v1/charges", {
      body: { amount: 1990, payment_method: "pix" },
    });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({ success: true, amount: 1990, status: "pending" });
    expect(reply.body.uuid).toMatch(UUID_V4);
    expect(reply.body.expires_at).toMatch(ISO);
    expect(reply.body.pix_copy_paste).toMatch(/^000201/);
  });

  it("expires a Pix charge 30 minutes after creation by default", async () => {
    const body = await h.createPix();
    expect(Date.parse(body.expires_at) - Date.parse(body.created_at)).toBe(30 * 60_000);
  });

  it("creates a boleto charge with its URL, barcode and 3-business-day lifetime", async () => {
    const reply = await h.call("POST", "/v1/charges", { body: boletoBody() });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({ success: true, amount: 4990, status: "pending" });
    expect(reply.body.boleto_url).toBe(`${h.sandbox.url}/boleto/${reply.body.uuid}`);
    expect(reply.body.barcode).toMatch(/^\d{44}$/);
    expect(reply.body.digitable_line).toMatch(/^\d{47}$/);
    // Due at the end of a São Paulo day (02:59:59.999 UTC), three to five calendar days on.
    expect(reply.body.expires_at).toMatch(/T02:59:59\.999Z$/);
    const days =
      (Date.parse(reply.body.expires_at) - Date.parse(reply.body.created_at)) / 86_400_000;
    expect(days).toBeGreaterThan(2);
    expect(days).toBeLessThan(8);
  });

  it.each([499, 0, -5, 10.5, "1000", null])(
    "refuses amount %j with 400 invalid_amount",
    async (amount) => {
      const reply = await h.call("POST", "/v1/charges", {
        body: { amount, payment_method: "pix" },
      });
      expect(reply.status).toBe(400);
      expect(reply.body.error.code).toBe("invalid_amount");
    },
  );

  it("accepts the minimum amount of 500 cents", async () => {
    expect(
      (await h.call("POST", "/v1/charges", { body: { amount: 500, payment_method: "pix" } }))
        .status,
    ).toBe(201);
  });

  it("requires payment_method", async () => {
    const reply = await h.call("POST", "/v1/charges", { body: { amount: 1000 } });
    expect(reply.body.error).toMatchObject({ code: "missing_field", param: "payment_method" });
  });

  it("refuses an unknown payment_method", async () => {
    const reply = await h.call("POST", "/v1/charges", {
      body: { amount: 1000, payment_method: "card" },
    });
    expect(reply.body.error.code).toBe("invalid_payment_method");
  });

  it("refuses an Idempotency-Key header with 400 idempotency_not_supported", async () => {
    const reply = await h.call("POST", "/v1/charges", {
      body: { amount: 1000, payment_method: "pix" },
      headers: { "idempotency-key": "abc" },
    });
    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toBe("idempotency_not_supported");
  });

  it("refuses an idempotency_key body field with 400 idempotency_not_supported", async () => {
    const reply = await h.call("POST", "/v1/charges", {
      body: { amount: 1000, payment_method: "pix", idempotency_key: "abc" },
    });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toMatchObject({
      code: "idempotency_not_supported",
      param: "idempotency_key",
    });
  });

  it("creates a new charge each time the same body is sent", async () => {
    const first = await h.createPix(1234);
    const second = await h.createPix(1234);
    expect(first.uuid).not.toBe(second.uuid);
  });

  describe("boleto fields", () => {
    it.each([
      ["customer.name", { customer: { name: undefined } }],
      ["customer.email", { customer: { email: undefined } }],
      ["customer.document", { customer: { document: undefined } }],
      ["customer.phone", { customer: { phone: undefined } }],
      ["billing_address.zip", { billing_address: { zip: undefined } }],
      ["billing_address.state", { billing_address: { state: undefined } }],
      ["billing_address.city", { billing_address: { city: undefined } }],
      ["billing_address.street", { billing_address: { street: undefined } }],
      ["billing_address.neighborhood", { billing_address: { neighborhood: undefined } }],
      ["billing_address.number", { billing_address: { number: undefined } }],
    ])("answers 400 missing_field naming %s when it is absent", async (param, overrides) => {
      const reply = await h.call("POST", "/v1/charges", { body: boletoBody(overrides) });
      expect(reply.status).toBe(400);
      expect(reply.body.error).toMatchObject({ code: "missing_field", param });
      expect(reply.body.error.message).toContain(param);
    });

    it("answers 400 missing_field for a boleto without any customer", async () => {
      const { customer: _customer, ...body } = boletoBody();
      const reply = await h.call("POST", "/v1/charges", { body });
      expect(reply.body.error).toMatchObject({ code: "missing_field", param: "customer" });
    });

    it.each([
      ["123.456.789-00", "a CPF with wrong check digits"],
      ["11.222.333/0001-00", "a CNPJ with wrong check digits"],
      ["111.111.111-11", "a reserved CPF"],
      ["12345", "too few digits"],
    ])("answers 400 invalid_document to %s (%s)", async (document) => {
      const reply = await h.call("POST", "/v1/charges", {
        body: boletoBody({ customer: { document } }),
      });
      expect(reply.body.error).toMatchObject({
        code: "invalid_document",
        param: "customer.document",
      });
    });

    it.each([
      ["a CPF", "123.456.789-09"],
      ["a numeric CNPJ", "11.222.333/0001-81"],
      ["an alphanumeric CNPJ", "Q0.SLF.MBD/7VX4-39"],
    ])("accepts %s as the document", async (_label, document) => {
      const reply = await h.call("POST", "/v1/charges", {
        body: boletoBody({ customer: { document } }),
      });
      expect(reply.status).toBe(201);
    });

    it.each(["119876543", "119876543210", "11 9876-543a"])(
      "answers 400 invalid_phone to %j",
      async (phone) => {
        const reply = await h.call("POST", "/v1/charges", {
          body: boletoBody({ customer: { phone } }),
        });
        expect(reply.body.error).toMatchObject({ code: "invalid_phone", param: "customer.phone" });
      },
    );

    it.each(["1133334444", "11987654321"])("accepts the %s-digit phone", async (phone) => {
      expect(
        (await h.call("POST", "/v1/charges", { body: boletoBody({ customer: { phone } }) })).status,
      ).toBe(201);
    });

    it.each(["0131010", "013101000", "ABCDEFGH"])("answers 400 invalid_zip to %j", async (zip) => {
      const reply = await h.call("POST", "/v1/charges", {
        body: boletoBody({ billing_address: { zip } }),
      });
      expect(reply.body.error).toMatchObject({ code: "invalid_zip", param: "billing_address.zip" });
    });

    it.each(["XX", "S", "SPP", "São"])("answers 400 invalid_state to %j", async (state) => {
      const reply = await h.call("POST", "/v1/charges", {
        body: boletoBody({ billing_address: { state } }),
      });
      expect(reply.body.error).toMatchObject({
        code: "invalid_state",
        param: "billing_address.state",
      });
    });

    it("answers 400 invalid_email to a malformed e-mail", async () => {
      const reply = await h.call("POST", "/v1/charges", {
        body: boletoBody({ customer: { email: "ana@" } }),
      });
      expect(reply.body.error).toMatchObject({ code: "invalid_email", param: "customer.email" });
    });

    it("lists every problem of a body in issues", async () => {
      const reply = await h.call("POST", "/v1/charges", {
        body: boletoBody({ customer: { phone: "1" }, billing_address: { zip: "1" } }),
      });
      expect(reply.body.error.issues.map((issue: { param: string }) => issue.param)).toEqual([
        "customer.phone",
        "billing_address.zip",
      ]);
    });

    it("refuses a boleto below 500 cents with invalid_amount", async () => {
      const reply = await h.call("POST", "/v1/charges", { body: boletoBody({ amount: 499 }) });
      expect(reply.body.error.code).toBe("invalid_amount");
    });
  });

  it("reads a Pix charge back with status", async () => {
    const created = await h.createPix(2500);
    const reply = await h.call("GET", `/v1/charges/${created.uuid}`);
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      success: true,
      uuid: created.uuid,
      amount: 2500,
      status: "pending",
      expires_at: created.expires_at,
      pix_copy_paste: created.pix_copy_paste,
    });
  });

  it("reads a boleto charge back with its URL and barcode", async () => {
    const created = (await h.call("POST", "/v1/charges", { body: boletoBody() })).body;
    const reply = await h.call("GET", `/v1/charges/${created.uuid}`);
    expect(reply.body).toMatchObject({
      uuid: created.uuid,
      boleto_url: created.boleto_url,
      barcode: created.barcode,
      status: "pending",
    });
  });

  it("answers the status route with only uuid, status and paid", async () => {
    const created = await h.createPix();
    const reply = await h.call("GET", `/v1/charges/${created.uuid}/status`);
    expect(reply.body).toEqual({ uuid: created.uuid, status: "pending", paid: false });
  });

  it("answers 404 charge_not_found to an unknown uuid", async () => {
    const reply = await h.call("GET", "/v1/charges/3f1c7a52-0000-4000-8000-000000000000");
    expect(reply.status).toBe(404);
    expect(reply.body.error.code).toBe("charge_not_found");
  });

  it("does not accept Variant B's ch_svc_ form", async () => {
    const created = await h.createPix();
    const reply = await h.call("GET", `/v1/charges/ch_svc_${created.uuid.replaceAll("-", "")}`);
    expect(reply.status).toBe(404);
  });

  it.each(["/v1/charges", "/v1/charges/", "/v1/charges//status"])(
    "answers 400 missing_id to GET %s",
    async (path) => {
      const reply = await h.call("GET", path);
      expect(reply.status).toBe(400);
      expect(reply.body.error.code).toBe("missing_id");
    },
  );
});

describe("create and read charges, variant B", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ variant: "b" });
  });
  afterAll(() => h.close());

  it("creates a pending Pix charge with object, reais and cents, pix data and livemode", async () => {
    const reply = await h.call("POST", "/v1/charges", {
      body: {
        amount: 1990,
        description: "T-shirt",
        customer: { name: "Ana", email: "ana@example.com", document: "12345678909" },
      },
    });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({
      object: "charge",
      amount: 19.9,
      amount_cents: 1990,
      currency: "BRL",
      method: "pix",
      status: "pending",
      livemode: true,
      description: "T-shirt",
      customer: { name: "Ana", email: "ana@example.com", document: "12345678909" },
    });
    expect(reply.body.id).toMatch(/^ch_svc_[0-9a-f]{32}$/);
    expect(reply.body.created_at).toMatch(ISO);
    expect(reply.body.expires_at).toMatch(ISO);
    expect(reply.body.pix.copy_paste).toMatch(/^000201/);
    expect(reply.body.pix.qr_code).toMatch(/^iVBORw0KGgo/);
    expect(reply.body.pix.payment_link).toBe(`${h.sandbox.url}/pay/${reply.body.id}`);
  });

  it("reports the Pix fee of 0.99% in reais and cents", async () => {
    const body = await h.createPix(10_000);
    expect(body.fee).toEqual({
      amount: 0.99,
      amount_cents: 99,
      net_amount: 99.01,
      net_amount_cents: 9901,
    });
  });

  it.each([1, 499])("accepts any positive amount such as %i", async (amount) => {
    expect((await h.createPix(amount)).amount_cents).toBe(amount);
  });

  it.each([0, -1, 1.5, "10"])("refuses amount %j with 400 invalid_amount", async (amount) => {
    const reply = await h.call("POST", "/v1/charges", { body: { amount } });
    expect(reply.body.error.code).toBe("invalid_amount");
  });

  it("refuses boleto, which Variant B does not offer", async () => {
    const reply = await h.call("POST", "/v1/charges", {
      body: { amount: 1000, payment_method: "boleto" },
    });
    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toBe("invalid_payment_method");
  });

  it("refuses a Pix customer document with wrong check digits", async () => {
    const reply = await h.call("POST", "/v1/charges", {
      body: { amount: 1000, customer: { document: "12345678900" } },
    });
    expect(reply.body.error).toMatchObject({
      code: "invalid_document",
      param: "customer.document",
    });
  });

  it("echoes metadata on read", async () => {
    const created = await h.createPix(1000, { metadata: { order: "1001" } });
    expect((await h.call("GET", `/v1/charges/${created.id}`)).body.metadata).toEqual({
      order: "1001",
    });
  });

  it.each([
    ["the ch_svc_ id", (body: { id: string; uuid: string }) => body.id],
    ["the full UUID", (body: { id: string; uuid: string }) => body.uuid],
    ["a partial id", (body: { id: string; uuid: string }) => body.id.slice(7, 19)],
    ["a partial ch_svc_ id", (body: { id: string; uuid: string }) => body.id.slice(0, 20)],
  ])("reads a charge by %s", async (_label, pick) => {
    const created = await h.createPix(3000);
    const reply = await h.call("GET", `/v1/charges/${pick(created)}`);
    expect(reply.status).toBe(200);
    expect(reply.body.id).toBe(created.id);
  });

  it("answers 400 ambiguous_id when a partial id matches several charges", async () => {
    // 17 ids over 16 hex digits: two of them share their first opaque character.
    const firsts = new Map<string, number>();
    let shared = "";
    for (let i = 0; i < 17 && !shared; i++) {
      const first = ((await h.createPix()).id as string)[7] as string;
      firsts.set(first, (firsts.get(first) ?? 0) + 1);
      if ((firsts.get(first) ?? 0) > 1) shared = first;
    }
    const reply = await h.call("GET", `/v1/charges/ch_svc_${shared}`);
    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toBe("ambiguous_id");
  });

  it("does not read a charge by a partial id shorter than 8 characters", async () => {
    const created = await h.createPix();
    expect((await h.call("GET", `/v1/charges/${created.uuid.slice(0, 7)}`)).status).toBe(404);
  });

  it("answers the status route with id, status, paid, object and livemode", async () => {
    const created = await h.createPix();
    const reply = await h.call("GET", `/v1/charges/${created.id}/status`);
    expect(reply.body).toEqual({
      id: created.id,
      object: "charge_status",
      status: "pending",
      paid: false,
      livemode: true,
    });
  });

  it("answers 404 charge_not_found to an unknown id", async () => {
    const reply = await h.call("GET", "/v1/charges/ch_svc_doesnotexist");
    expect(reply.body.error.code).toBe("charge_not_found");
  });
});

describe("a boleto's due date counts bank business days", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ variant: "a" });
  });
  afterAll(() => h.close());

  /** Creates a boleto at `wall` (São Paulo) and returns its `expires_at`. */
  async function dueOfBoletoMadeAt(wall: string): Promise<string> {
    expect((await h.control("POST", "/clock", { now: `${wall}-03:00` })).status).toBe(200);
    const reply = await h.call("POST", "/v1/charges", { body: boletoBody() });
    expect(reply.status).toBe(201);
    return reply.body.expires_at;
  }

  // Dates far ahead, since the clock only moves forward.
  it("made on a Thursday, due at the end of the Tuesday after: Friday, Monday, Tuesday", async () => {
    // Thursday 26/11/2037 → Tuesday 01/12/2037, 23:59:59.999 in São Paulo.
    expect(await dueOfBoletoMadeAt("2037-11-26T13:00:00")).toBe("2037-12-02T02:59:59.999Z");
  });

  it("made on a Friday evening, due on the Wednesday after", async () => {
    expect(await dueOfBoletoMadeAt("2037-11-27T22:30:00")).toBe("2037-12-03T02:59:59.999Z");
  });

  it("made before Carnaval, skips Monday and Tuesday of Carnaval", async () => {
    // Easter 2038 is 25/04: Carnaval 08–09/03. Wednesday 03/03 → Wednesday 10/03.
    expect(await dueOfBoletoMadeAt("2038-03-03T10:00:00")).toBe("2038-03-11T02:59:59.999Z");
  });

  it("honours boletoDueDays", async () => {
    const one = await startHarness({ variant: "a", boletoDueDays: 1 });
    try {
      await one.control("POST", "/clock", { now: "2037-11-27T10:00:00-03:00" });
      const reply = await one.call("POST", "/v1/charges", { body: boletoBody() });
      // Friday → Monday.
      expect(reply.body.expires_at).toBe("2037-12-01T02:59:59.999Z");
    } finally {
      await one.close();
    }
  });

  it("skips 31 December, when FEBRABAN closes banks to the public", async () => {
    const one = await startHarness({ variant: "a", boletoDueDays: 1 });
    try {
      // Wednesday 30/12/2037 → Thursday 31 (no bank hours), Friday 1 January, the weekend →
      // Monday 04/01/2038.
      await one.control("POST", "/clock", { now: "2037-12-30T10:00:00-03:00" });
      const reply = await one.call("POST", "/v1/charges", { body: boletoBody() });
      expect(reply.body.expires_at).toBe("2038-01-05T02:59:59.999Z");
    } finally {
      await one.close();
    }
  });

  it("skips the extra bank holidays it was started with, one day or every year", async () => {
    const one = await startHarness({ variant: "a", bankHolidays: ["2037-12-02", "12-01"] });
    try {
      // Thursday 26/11/2037 → Friday 27, Monday 30, (Tuesday 01/12 every year, Wednesday 02/12
      // that year), Thursday 03/12.
      await one.control("POST", "/clock", { now: "2037-11-26T13:00:00-03:00" });
      const reply = await one.call("POST", "/v1/charges", { body: boletoBody() });
      expect(reply.body.expires_at).toBe("2037-12-04T02:59:59.999Z");
    } finally {
      await one.close();
    }
  });

  it("refuses to start with an extra holiday that is not a day, naming it", async () => {
    await expect(startSandbox({ variant: "a", bankHolidays: ["2037-02-30"] })).rejects.toThrow(
      /"2037-02-30" is not a calendar day written YYYY-MM-DD \(one day\) or MM-DD \(every year\)/,
    );
  });
});
