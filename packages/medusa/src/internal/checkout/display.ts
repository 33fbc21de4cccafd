import type { ClientCharge } from "../platform/client-port";
import type { LocalChargeStatus } from "../records/charges";
import { maskDocument } from "@pix-checkout/client";

/**
 * The only fields a payment session's `data` may hold. Session data is public (GET
 * /store/carts/:id returns it), so this is a whitelist: never the API key, never the raw
 * API response, never an unmasked CPF/CNPJ.
 */
export interface SessionDisplayData extends Record<string, unknown> {
  charge_id: string;
  method: "pix" | "boleto";
  status: LocalChargeStatus;
  amount_cents: number;
  expires_at: string;
  pix?: { copy_paste: string; qr_code?: string; payment_link?: string };
  /** `due_date`: `YYYY-MM-DD`, the barcode's due date (see boleto-due-date). */
  boleto?: { url: string; barcode: string; digitable_line: string; due_date?: string };
}

/** Whitelists a charge into session display data. */
export function toDisplayData(charge: ClientCharge): SessionDisplayData {
  return {
    charge_id: charge.id,
    method: charge.method,
    status: charge.status,
    amount_cents: charge.amountCents,
    expires_at: charge.expiresAt,
    ...(charge.pix
      ? {
          pix: {
            copy_paste: charge.pix.copyPaste,
            ...(charge.pix.qrCodePng ? { qr_code: charge.pix.qrCodePng } : {}),
            ...(charge.pix.paymentLink ? { payment_link: charge.pix.paymentLink } : {}),
          },
        }
      : {}),
    ...(charge.boleto
      ? {
          boleto: {
            url: charge.boleto.url,
            barcode: charge.boleto.barcode,
            digitable_line: charge.boleto.digitableLine,
          },
        }
      : {}),
  };
}

/**
 * Medusa stores session data as `{ ...what the storefront sent, ...what the provider
 * returned }`, so the provider must overwrite what the storefront sent that is not public:
 * the payer document becomes masked.
 */
export function publicOverrides(input: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (typeof input.document === "string") out.document = maskDocument(input.document);
  return out;
}
