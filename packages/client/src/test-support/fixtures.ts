import { randomUUID } from "node:crypto";

/** A key shaped like a real one; tests assert it never appears in errors or logs. */
export const TEST_KEY = "sk_live_test_support_0123456789abcdef";
export const BASE_URL = "https://api.pix.test/v1";
export const ORIGIN = "https://api.pix.test";

/** A valid Variant B charge body, overridable field by field. */
export function chargeB(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: "ch_svc_abc123",
    object: "charge",
    amount: 19.9,
    amount_cents: 1990,
    currency: "BRL",
    method: "pix",
    status: "pending",
    pix: {
      qr_code: "iVBORw0KGgo=",
      copy_paste: "00020126580014br.gov.bcb.pix0136abc5204000053039865406019.905802BR6304ABCD",
      payment_link: "https://pay.pix.test/ch_svc_abc123",
    },
    expires_at: "2026-03-01T13:00:00Z",
    created_at: "2026-03-01T12:00:00.000Z",
    livemode: true,
    ...overrides,
  };
}

/** A valid Variant A Pix creation body. */
export function createdPixA(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    success: true,
    uuid: randomUUID(),
    amount: 1990,
    expires_at: "2026-03-01T13:00:00Z",
    pix_copy_paste: "00020126580014br.gov.bcb.pix0136abc5204000053039865406019.905802BR6304ABCD",
    ...overrides,
  };
}

/** A valid cobrança barcode (44 digits) and its linha digitável (47), computed independently. */
export const BOLETO_LINE = "00190000090114971860168524522114675860000102656";
export const BOLETO_BARCODE = "00196758600001026560000001149718606852452211";

/** A valid boleto charge input (Variant A). */
export function boletoInput(): {
  method: "boleto";
  amountCents: number;
  description: string;
  customer: { name: string; email: string; document: string; phone: string };
  billingAddress: {
    zip: string;
    state: string;
    city: string;
    street: string;
    neighborhood: string;
    number: string;
  };
} {
  return {
    method: "boleto",
    amountCents: 15000,
    description: "Order 1001",
    customer: {
      name: "Maria da Silva",
      email: "maria@example.com",
      document: "529.982.247-25",
      phone: "(11) 98765-4321",
    },
    billingAddress: {
      zip: "01310-100",
      state: "SP",
      city: "São Paulo",
      street: "Avenida Paulista",
      neighborhood: "Bela Vista",
      number: "1000",
    },
  };
}
