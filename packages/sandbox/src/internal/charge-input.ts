import { getStates, isValidCnpj, isValidCpf } from "@brazilian-utils/brazilian-utils";
import { z } from "zod";
import { ApiError } from "./api-error.js";
import type { Variant } from "./context.js";

/** Largest amount: a boleto's value field holds 10 digits of cents. */
export const MAX_AMOUNT_CENTS = 9_999_999_999;
/** Variant A's minimum charge. */
export const MIN_AMOUNT_CENTS_A = 500;

const UFS = new Set<string>(getStates().map((state) => state.code));

// Masks people paste ("(11) 98765-4321", "01310-100", "123.456.789-09") are accepted and
// stripped; what is left must be the digits the spec asks for.
const stripMask = (value: string): string => value.replace(/[\s().\-/+]/g, "");

const documentField = z
  .string()
  .transform((value) => stripMask(value).toUpperCase())
  .refine(
    (value) => isValidCpf(value) || isValidCnpj(value, { version: 2 }),
    "must be a valid CPF (11 digits) or CNPJ (14 characters, numeric or alphanumeric) with matching check digits",
  );
const text = (max: number) =>
  z.string().trim().min(1, "must not be empty").max(max, `must be at most ${max} characters`);
const email = z.email("must be an e-mail address such as ana@example.com").max(254);

const pixCustomer = z.object({
  name: text(200).optional(),
  email: email.optional(),
  document: documentField.optional(),
});

const boletoCustomer = z.object({
  name: text(200),
  email,
  document: documentField,
  phone: z
    .string()
    .transform(stripMask)
    .refine(
      (value) => /^\d{10,11}$/.test(value),
      "must be an area code plus number: 10 or 11 digits",
    ),
});

const billingAddress = z.object({
  zip: z
    .string()
    .transform(stripMask)
    .refine((value) => /^\d{8}$/.test(value), "must be a postal code (CEP) of 8 digits"),
  state: z
    .string()
    .transform((value) => value.trim().toUpperCase())
    .refine((value) => UFS.has(value), "must be a Brazilian state code (UF) such as SP or RJ"),
  city: text(100),
  street: text(200),
  neighborhood: text(100),
  number: text(20),
  complement: text(100).optional(),
});

const description = text(500).optional();
const metadata = z.record(z.string(), z.unknown()).optional();

/** A validated create-charge request, in cents, with masks stripped. */
export type CreateChargeInput =
  | {
      method: "pix";
      amount: number;
      description?: string;
      customer?: { name?: string; email?: string; document?: string };
      metadata?: Record<string, unknown>;
    }
  | {
      method: "boleto";
      amount: number;
      description?: string;
      customer: { name: string; email: string; document: string; phone: string };
      billingAddress: z.infer<typeof billingAddress>;
    };

// The issue path's last segment decides the stable code, so clients can branch per field.
const FIELD_CODES: Record<string, string> = {
  document: "invalid_document",
  phone: "invalid_phone",
  zip: "invalid_zip",
  state: "invalid_state",
  email: "invalid_email",
};

function valueAt(body: unknown, path: readonly PropertyKey[]): unknown {
  let current: unknown = body;
  for (const segment of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return current;
}

function fail(body: unknown, issues: z.core.$ZodIssue[]): never {
  const mapped = issues.map((issue) => {
    const param = issue.path.join(".");
    const missing = valueAt(body, issue.path) === undefined;
    const last = String(issue.path.at(-1) ?? "");
    const code = missing ? "missing_field" : (FIELD_CODES[last] ?? "invalid_field");
    const message = missing ? `\`${param}\` is required.` : `\`${param}\` ${issue.message}.`;
    return { param, code, message };
  });
  const first = mapped[0] as { param: string; code: string; message: string };
  throw new ApiError(400, first.code, first.message, {
    extra: { param: first.param, issues: mapped },
  });
}

function parseAmount(variant: Variant, amount: unknown): number {
  const min = variant === "a" ? MIN_AMOUNT_CENTS_A : 1;
  if (
    typeof amount !== "number" ||
    !Number.isInteger(amount) ||
    amount < min ||
    amount > MAX_AMOUNT_CENTS
  ) {
    throw new ApiError(
      400,
      "invalid_amount",
      variant === "a"
        ? `\`amount\` must be an integer number of cents from ${MIN_AMOUNT_CENTS_A} (R$ 5.00) to ${MAX_AMOUNT_CENTS}, e.g. 1990 for R$ 19.90.`
        : `\`amount\` must be a positive integer number of cents up to ${MAX_AMOUNT_CENTS}, e.g. 1990 for R$ 19.90.`,
      { extra: { param: "amount" } },
    );
  }
  return amount;
}

/**
 * Validates a create-charge body for the variant. Variant A requires `payment_method` (`pix` or
 * `boleto`) and refuses `idempotency_key`; Variant B takes only Pix (`payment_method` optional).
 * Fields the spec does not name are ignored.
 */
export function parseCreateCharge(variant: Variant, body: unknown): CreateChargeInput {
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw new ApiError(400, "invalid_body", "The request body must be a JSON object.");
  }
  const raw = body as Record<string, unknown>;
  if (variant === "a" && "idempotency_key" in raw) {
    throw new ApiError(
      400,
      "idempotency_not_supported",
      "Variant A takes no `idempotency_key`: remove the field. Each create is a new operation.",
      { extra: { param: "idempotency_key" } },
    );
  }
  const method = raw.payment_method ?? (variant === "b" ? "pix" : undefined);
  if (method === undefined) {
    throw new ApiError(400, "missing_field", "`payment_method` is required: `pix` or `boleto`.", {
      extra: { param: "payment_method" },
    });
  }
  if (method !== "pix" && method !== "boleto") {
    throw new ApiError(
      400,
      "invalid_payment_method",
      "`payment_method` must be `pix` or `boleto`.",
      {
        extra: { param: "payment_method" },
      },
    );
  }
  if (variant === "b" && method === "boleto") {
    throw new ApiError(
      400,
      "invalid_payment_method",
      "This API takes only `pix`; boleto is not available.",
      {
        extra: { param: "payment_method" },
      },
    );
  }
  const amount = parseAmount(variant, raw.amount);

  if (method === "pix") {
    const schema = z.object({
      description,
      customer: pixCustomer.optional(),
      metadata: variant === "b" ? metadata : z.unknown().optional(),
    });
    const result = schema.safeParse(raw);
    if (!result.success) fail(raw, result.error.issues);
    const { description: desc, customer } = result.data;
    const input: CreateChargeInput = { method: "pix", amount };
    if (desc !== undefined) input.description = desc;
    if (customer !== undefined) input.customer = dropUndefined(customer);
    if (variant === "b" && result.data.metadata !== undefined) {
      input.metadata = result.data.metadata as Record<string, unknown>;
    }
    return input;
  }
  const schema = z.object({
    description,
    customer: boletoCustomer,
    billing_address: billingAddress,
  });
  const result = schema.safeParse(raw);
  if (!result.success) fail(raw, result.error.issues);
  const input: CreateChargeInput = {
    method: "boleto",
    amount,
    customer: result.data.customer,
    billingAddress: dropUndefined(result.data.billing_address),
  };
  if (result.data.description !== undefined) input.description = result.data.description;
  return input;
}

function dropUndefined<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
