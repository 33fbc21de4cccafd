import { z } from "zod";
import { ResponseValidationError } from "../errors.js";
import type { Charge, PaymentMethod } from "../models.js";
import {
  chargeStatus,
  checkPaidFlag,
  isoTimestamp,
  parseOrThrow,
  type VariantAdapter,
} from "./adapter.js";
import { boletoForms } from "./boleto.js";
import { parseTransactionPage } from "./transactions.js";
import type { ValidCreateInput } from "./validate-input.js";

// Variant A (integration guide): flat bodies, `uuid` ids, integer cents in `amount`.
const chargeFields = {
  success: z.boolean().optional(),
  uuid: z.uuid(),
  amount: z.int().positive(),
  expires_at: isoTimestamp,
  pix_copy_paste: z.string().min(1).optional(),
  boleto_url: z.string().min(1).optional(),
  barcode: z.string().min(1).optional(),
  // Not in the spec's Variant A tables, but read when a service sends them.
  payment_method: z.enum(["pix", "boleto"]).optional(),
  digitable_line: z.string().min(1).optional(),
  created_at: isoTimestamp.optional(),
  paid_at: isoTimestamp.nullish(),
};
const createdSchema = z.object(chargeFields);
const readSchema = z.object({ ...chargeFields, status: chargeStatus });
const statusSchema = z.object({ uuid: z.string().min(1), status: chargeStatus, paid: z.boolean() });

type ParsedA = z.infer<typeof createdSchema> & { status?: z.infer<typeof chargeStatus> };

function toCharge(parsed: ParsedA, method: PaymentMethod, body: unknown, what: string): Charge {
  if (parsed.success === false) {
    throw new ResponseValidationError(`${what} says success: false on a 2xx`, {
      code: "invalid_response",
      issues: [{ path: "success", message: "is false" }],
    });
  }
  const charge: Charge = {
    id: parsed.uuid,
    method,
    // A's create response carries no status; a charge that was just created is pending.
    status: parsed.status ?? "pending",
    amountCents: parsed.amount,
    currency: "BRL",
    expiresAt: parsed.expires_at,
    raw: body,
  };
  if (parsed.created_at) charge.createdAt = parsed.created_at;
  if (parsed.paid_at) charge.paidAt = parsed.paid_at;
  if (method === "pix") {
    if (!parsed.pix_copy_paste) {
      throw new ResponseValidationError(`${what} has no pix_copy_paste for a Pix charge`, {
        code: "invalid_response",
        issues: [{ path: "pix_copy_paste", message: "is required for Pix" }],
      });
    }
    charge.pix = { copyPaste: parsed.pix_copy_paste };
    return charge;
  }
  const forms = parsed.barcode === undefined ? undefined : boletoForms(parsed.barcode);
  if (!parsed.boleto_url || !forms) {
    throw new ResponseValidationError(
      `${what} has no valid boleto_url and barcode (a 44-digit barcode or 47-digit line) for a boleto charge`,
      {
        code: "invalid_response",
        issues: [
          { path: parsed.boleto_url ? "barcode" : "boleto_url", message: "is missing or invalid" },
        ],
      },
    );
  }
  if (parsed.digitable_line && parsed.digitable_line.replace(/\D/g, "") !== forms.digitableLine) {
    throw new ResponseValidationError(`${what}: digitable_line does not belong to barcode`, {
      code: "invalid_response",
      issues: [{ path: "digitable_line", message: "disagrees with barcode" }],
    });
  }
  charge.boleto = { url: parsed.boleto_url, ...forms };
  return charge;
}

/** Variant A's adapter. */
export const variantA: VariantAdapter = {
  variant: "a",

  createBody(input: ValidCreateInput): Record<string, unknown> {
    // Never an idempotency_key here: Variant A must not receive one, in a header or the body.
    const body: Record<string, unknown> = {
      amount: input.amountCents,
      payment_method: input.method,
    };
    if (input.description !== undefined) body.description = input.description;
    if (input.customer !== undefined) body.customer = input.customer;
    if (input.billingAddress !== undefined) body.billing_address = input.billingAddress;
    return body;
  },

  parseCreated(body, method) {
    const what = "POST /charges response";
    return toCharge(parseOrThrow(createdSchema, body, what), method, body, what);
  },

  parseCharge(body) {
    const what = "GET /charges/{id} response";
    const parsed = parseOrThrow(readSchema, body, what);
    // The spec's A read response has no method field: the method data present tells which.
    const method: PaymentMethod =
      parsed.payment_method ?? (parsed.pix_copy_paste ? "pix" : "boleto");
    return toCharge(parsed, method, body, what);
  },

  parseStatus(body) {
    const what = "GET /charges/{id}/status response";
    const parsed = parseOrThrow(statusSchema, body, what);
    checkPaidFlag(parsed.status, parsed.paid, what);
    return { id: parsed.uuid, status: parsed.status, paid: parsed.paid, raw: body };
  },

  parseTransactions(body) {
    return parseTransactionPage(body, "a");
  },
};
