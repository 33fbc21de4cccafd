import { expect } from "@esm-bundle/chai";
import { parseSession } from "./parse-session.js";
import { readEventData } from "./sse.js";

function body(...chunks: string[]) {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

async function collect(stream: ReadableStream<Uint8Array>) {
  const out: string[] = [];
  let bytes = 0;
  for await (const data of readEventData(stream, () => bytes++)) out.push(data);
  return { out, bytes };
}

describe("readEventData", () => {
  it("yields each event's data and skips comments", async () => {
    const { out } = await collect(
      body(': keep-alive\n\ndata: {"a":1}\n\nevent: x\ndata: {"a":2}\n\n'),
    );
    expect(out).to.deep.equal(['{"a":1}', '{"a":2}']);
  });

  it("joins an event split across chunks, even inside a multi-byte character", async () => {
    const bytes = new TextEncoder().encode('data: {"t":"ã"}\n\n');
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, 12));
        controller.enqueue(bytes.slice(12));
        controller.close();
      },
    });
    expect((await collect(stream)).out).to.deep.equal(['{"t":"ã"}']);
  });

  it("accepts CRLF line endings", async () => {
    expect((await collect(body('data: {"a":1}\r\n\r\n'))).out).to.deep.equal(['{"a":1}']);
  });

  it("joins multi-line data with newlines", async () => {
    expect((await collect(body("data: a\ndata: b\n\n"))).out).to.deep.equal(["a\nb"]);
  });

  it("reports bytes for keep-alives that carry no event, so a quiet stream is not taken for dead", async () => {
    expect((await collect(body(": ping\n\n", ": ping\n\n"))).bytes).to.equal(2);
  });
});

describe("parseSession", () => {
  const pix = {
    session_id: "payses_1",
    method: "pix",
    status: "pending",
    amount: 100,
    currency: "BRL",
    expires_at: "2030-01-01T00:00:00Z",
    paid_at: null,
    server_time: "2029-12-31T23:50:00Z",
    pix: { copy_paste: "000201..." },
  };

  it("accepts a Pix session and keeps fields it does not know", () => {
    expect(parseSession({ ...pix, extra: 1 })).to.deep.equal({ ...pix, extra: 1 });
  });

  it("accepts a superseded session without a code, which the store no longer offers", () => {
    const superseded = { ...pix, status: "superseded", pix: undefined, replaced_by: "payses_2" };
    expect(parseSession(superseded)).to.deep.equal(superseded);
  });

  it("accepts a refund due with its amount and reason", () => {
    const refundDue = {
      ...pix,
      status: "refund_due",
      refund: { amount: 100, reason: "paid_twice" },
    };
    expect(parseSession(refundDue)).to.deep.equal(refundDue);
  });

  for (const [name, patch] of [
    ["a refund due without its amount", { status: "refund_due" }],
    ["a refund due with a float amount", { status: "refund_due", refund: { amount: 1.5 } }],
    ["a float amount", { amount: 1.5 }],
    ["an unknown status", { status: "authorized" }],
    ["a missing Pix code", { pix: {} }],
    ["boleto method without boleto data", { method: "boleto" }],
    ["an unreadable expiry", { expires_at: "soon" }],
    ["no server time", { server_time: undefined }],
  ] as const) {
    it(`refuses ${name}`, () => {
      expect(parseSession({ ...pix, ...patch })).to.equal(null);
    });
  }

  it("refuses what is not an object", () => {
    expect(parseSession("paid")).to.equal(null);
    expect(parseSession(null)).to.equal(null);
  });
});
