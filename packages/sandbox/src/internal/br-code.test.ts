import { isValidPixPayload } from "@brazilian-utils/brazilian-utils";
import { describe, expect, it } from "vitest";
import { buildPixCopyPaste, crc16 } from "./br-code.js";

/** Reads EMV TLV objects into a map of id -> value (nested templates stay strings). */
function readTlv(payload: string): Map<string, string> {
  const objects = new Map<string, string>();
  let at = 0;
  while (at < payload.length) {
    const id = payload.slice(at, at + 2);
    const length = Number(payload.slice(at + 2, at + 4));
    objects.set(id, payload.slice(at + 4, at + 4 + length));
    at += 4 + length;
  }
  return objects;
}

describe("Pix BR Code", () => {
  const code = buildPixCopyPaste({ amountCents: 123_456, txid: "abc123DEF456ghi789JKL0123" });
  const objects = readTlv(code);

  it("computes the CRC16/CCITT-FALSE check value of the manual's test vector", () => {
    expect(crc16("123456789")).toBe("29B1");
  });

  it("ends with a CRC16 that verifies over the rest of the payload", () => {
    expect(code.slice(-8, -4)).toBe("6304");
    expect(code.slice(-4)).toBe(crc16(code.slice(0, -4)));
  });

  it("passes the @brazilian-utils BR Code validator", () => {
    expect(isValidPixPayload(code)).toBe(true);
  });

  it("fails the validator once one character changes", () => {
    const tampered = code.replace("1234.56", "1234.57");
    expect(isValidPixPayload(tampered)).toBe(false);
  });

  it("is dynamic: point of initiation 12 and a PSP location under GUI br.gov.bcb.pix", () => {
    expect(objects.get("00")).toBe("01");
    expect(objects.get("01")).toBe("12");
    const account = readTlv(objects.get("26") ?? "");
    expect(account.get("00")).toBe("br.gov.bcb.pix");
    expect(account.get("25")).toMatch(/^qr\.pix-checkout\.invalid\/v2\//);
  });

  it("carries the amount in reais with two decimals, BRL and BR", () => {
    expect(objects.get("54")).toBe("1234.56");
    expect(objects.get("53")).toBe("986");
    expect(objects.get("58")).toBe("BR");
  });

  it("carries the merchant name and city and the txid", () => {
    expect(objects.get("59")).toBe("PIX CHECKOUT SANDBOX");
    expect(objects.get("60")).toBe("SAO PAULO");
    expect(readTlv(objects.get("62") ?? "").get("05")).toBe("abc123DEF456ghi789JKL0123");
  });

  it("writes small amounts with leading zero and two decimals", () => {
    expect(readTlv(buildPixCopyPaste({ amountCents: 5, txid: "t1" })).get("54")).toBe("0.05");
  });
});
