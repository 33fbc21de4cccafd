import { isValidBoleto, isValidPixPayload } from "@brazilian-utils/brazilian-utils";
import * as jsqrModule from "jsqr";
import { PNG } from "pngjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { boletoBody, startHarness, type Harness } from "./test-support/harness.js";

// jsqr is CommonJS with an ES-style `export default` in its types; depending on the loader the
// default export is the function or an object holding it.
type Decode = (data: Uint8ClampedArray, width: number, height: number) => { data: string } | null;
const jsqrDefault = (jsqrModule as unknown as { default: Decode | { default: Decode } }).default;
const jsQR: Decode = typeof jsqrDefault === "function" ? jsqrDefault : jsqrDefault.default;

function decodeQr(base64: string): string | undefined {
  const png = PNG.sync.read(Buffer.from(base64, "base64"));
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data;
}

describe("payment data, variant B", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ variant: "b" });
  });
  afterAll(() => h.close());

  it("gives a copy-and-paste code that is a valid BR Code carrying the amount", async () => {
    const body = await h.createPix(12_345);
    expect(isValidPixPayload(body.pix.copy_paste)).toBe(true);
    expect(body.pix.copy_paste).toContain("5406123.45");
  });

  it("gives a QR PNG that decodes to exactly the copy-and-paste code", async () => {
    const body = await h.createPix(1990);
    expect(decodeQr(body.pix.qr_code)).toBe(body.pix.copy_paste);
  });

  it("gives the same QR on read as on create", async () => {
    const created = await h.createPix(1990);
    const read = (await h.call("GET", `/v1/charges/${created.id}`)).body;
    expect(read.pix.qr_code).toBe(created.pix.qr_code);
  });

  it("serves a pay page at payment_link with the QR and the code", async () => {
    const created = await h.createPix(1990, { description: "<script>alert(1)</script>" });
    const response = await fetch(created.pix.payment_link);
    const html = await response.text();
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    expect(html).toContain(created.pix.copy_paste);
    expect(html).toContain(created.pix.qr_code);
    expect(html).not.toContain("<script>alert(1)</script>");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
  });
});

describe("payment data, variant A", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ variant: "a" });
  });
  afterAll(() => h.close());

  it("gives a Pix copy-and-paste code that is a valid BR Code", async () => {
    expect(isValidPixPayload((await h.createPix(990)).pix_copy_paste)).toBe(true);
  });

  it("gives a boleto whose digitable line validates and whose barcode carries the amount", async () => {
    const body = (await h.call("POST", "/v1/charges", { body: boletoBody({ amount: 4990 }) })).body;
    expect(isValidBoleto(body.digitable_line)).toBe(true);
    expect(body.barcode.slice(9, 19)).toBe("0000004990");
  });

  it("serves a printable boleto page at boleto_url with the digitable line and the payer, the CPF and CEP as a bank prints them", async () => {
    const body = (
      await h.call("POST", "/v1/charges", {
        body: boletoBody({
          customer: { document: "52998224725" },
          billing_address: { zip: "01310100" },
        }),
      })
    ).body;
    const response = await fetch(body.boleto_url);
    const html = await response.text();
    expect(response.status).toBe(200);
    expect(html).toContain(body.barcode);
    expect(html).toContain("Ana Souza · 529.982.247-25");
    expect(html).toContain("CEP 01310-100");
    expect(html).toContain("<svg");
  });

  it("answers 404 for the boleto page of a Pix charge", async () => {
    const created = await h.createPix();
    const response = await fetch(`${h.sandbox.url}/boleto/${created.uuid}`);
    expect(response.status).toBe(404);
  });
});
