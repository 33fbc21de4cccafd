import { isValidPixPayload } from "@brazilian-utils/brazilian-utils";
import { centsToDecimalString } from "./money.js";

// `generatePixPayload` of @brazilian-utils builds dynamic codes only without an amount and a
// txid, while the charges here need both (the payer's app must show the charge's amount). So the
// few TLV objects are written here, and the library's `isValidPixPayload` checks the result.

/** Receiver name and city printed into every sandbox BR Code (ASCII, within the EMV limits). */
export const MERCHANT_NAME = "PIX CHECKOUT SANDBOX";
/** Receiver city of every sandbox BR Code. */
export const MERCHANT_CITY = "SAO PAULO";
/**
 * Host of the PSP location of sandbox codes. `.invalid` is reserved (RFC 2606), so a real
 * banking app can never fetch it: a sandbox code cannot be paid with real money.
 */
export const LOCATION_HOST = "qr.pix-checkout.invalid";

function tlv(id: string, value: string): string {
  return `${id}${String(value.length).padStart(2, "0")}${value}`;
}

/** CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF) over the UTF-8 bytes, as the BR Code manual says. */
export function crc16(payload: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(payload, "utf8")) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
  }
  return crc.toString(16).toUpperCase().padStart(4, "0");
}

/**
 * A dynamic Pix BR Code (EMV MPM): point of initiation `12` (single use), merchant account
 * template with GUI `br.gov.bcb.pix` and a PSP location, amount, merchant name and city, the
 * txid in the additional data field, and the CRC16 over everything before it.
 */
export function buildPixCopyPaste(input: { amountCents: number; txid: string }): string {
  const merchantAccount =
    tlv("00", "br.gov.bcb.pix") + tlv("25", `${LOCATION_HOST}/v2/${input.txid}`);
  const body =
    tlv("00", "01") +
    tlv("01", "12") +
    tlv("26", merchantAccount) +
    tlv("52", "0000") +
    tlv("53", "986") +
    tlv("54", centsToDecimalString(input.amountCents)) +
    tlv("58", "BR") +
    tlv("59", MERCHANT_NAME) +
    tlv("60", MERCHANT_CITY) +
    tlv("62", tlv("05", input.txid)) +
    "6304";
  const payload = body + crc16(body);
  if (!isValidPixPayload(payload)) {
    // Only reachable through a bug in the builder above; never hand out a code a bank would refuse.
    throw new Error("Built an invalid BR Code");
  }
  return payload;
}
