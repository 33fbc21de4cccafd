import { z } from "zod";
import type { Charge } from "../models.js";
import {
  chargeStatus,
  checkAmounts,
  checkPaidFlag,
  feeCents,
  feeSchema,
  isoTimestamp,
  parseOrThrow,
  type VariantAdapter,
} from "./adapter.js";
import { parseTransactionPage } from "./transactions.js";
import type { ValidCreateInput } from "./validate-input.js";

// Variant B (endpoint reference): `ch_svc_` ids, float reais plus integer `_cents` companions.
const chargeSchema = z.object({
  id: z.string().startsWith("ch_svc_"),
  object: z.literal("charge"),
  amount: z.number(),
  amount_cents: z.int().positive(),
  currency: z.string().refine((value) => value.toUpperCase() === "BRL", "must be BRL"),
  method: z.literal("pix"),
  status: chargeStatus,
  pix: z.object({
    qr_code: z.string().min(1).optional(),
    copy_paste: z.string().min(1),
    payment_link: z.string().min(1).optional(),
  }),
  expires_at: isoTimestamp,
  created_at: isoTimestamp.optional(),
  livemode: z.boolean().optional(),
  description: z.string().nullish(),
  customer: z
    .object({
      name: z.string().nullish(),
      email: z.string().nullish(),
      document: z.string().nullish(),
    })
    .nullish(),
  fee: feeSchema.nullish(),
  paid_at: isoTimestamp.nullish(),
});
const statusSchema = z.object({ id: z.string().min(1), status: chargeStatus, paid: z.boolean() });

function toCharge(body: unknown, what: string): Charge {
  const parsed = parseOrThrow(chargeSchema, body, what);
  checkAmounts(
    parsed.amount,
    parsed.amount_cents,
    { reais: "amount", cents: "amount_cents" },
    what,
  );
  const charge: Charge = {
    id: parsed.id,
    method: "pix",
    status: parsed.status,
    amountCents: parsed.amount_cents,
    currency: "BRL",
    expiresAt: parsed.expires_at,
    pix: {
      copyPaste: parsed.pix.copy_paste,
      ...(parsed.pix.qr_code ? { qrCodePng: parsed.pix.qr_code } : {}),
      ...(parsed.pix.payment_link ? { paymentLink: parsed.pix.payment_link } : {}),
    },
    raw: body,
  };
  if (parsed.created_at) charge.createdAt = parsed.created_at;
  if (parsed.paid_at) charge.paidAt = parsed.paid_at;
  if (parsed.description != null) charge.description = parsed.description;
  if (parsed.customer) {
    const { name, email, document } = parsed.customer;
    charge.customer = {
      ...(name == null ? {} : { name }),
      ...(email == null ? {} : { email }),
      ...(document == null ? {} : { document }),
    };
  }
  if (parsed.fee) Object.assign(charge, feeCents(parsed.fee, "b", "fee", what));
  return charge;
}

/** Variant B's adapter. */
export const variantB: VariantAdapter = {
  variant: "b",

  createBody(input: ValidCreateInput): Record<string, unknown> {
    const body: Record<string, unknown> = { amount: input.amountCents };
    if (input.description !== undefined) body.description = input.description;
    if (input.customer !== undefined) body.customer = input.customer;
    return body;
  },

  parseCreated(body) {
    return toCharge(body, "POST /charges response");
  },

  parseCharge(body) {
    return toCharge(body, "GET /charges/{id} response");
  },

  parseStatus(body) {
    const what = "GET /charges/{id}/status response";
    const parsed = parseOrThrow(statusSchema, body, what);
    checkPaidFlag(parsed.status, parsed.paid, what);
    return { id: parsed.id, status: parsed.status, paid: parsed.paid, raw: body };
  },

  parseTransactions(body) {
    return parseTransactionPage(body, "b");
  },
};
