import { getStates, isValidCnpj, isValidCpf } from "@brazilian-utils/brazilian-utils";
import { z } from "zod";
import { InvalidRequestError, type FieldIssue } from "../errors.js";
import type { PaymentMethod } from "../models.js";

/** Create input after validation: documents, phone and CEP reduced to their characters. */
export interface ValidCreateInput {
  method: PaymentMethod;
  amountCents: number;
  description?: string;
  customer?: { name?: string; email?: string; document?: string; phone?: string };
  billingAddress?: {
    zip: string;
    state: string;
    city: string;
    street: string;
    neighborhood: string;
    number: string;
    complement?: string;
  };
}

const UF_CODES: ReadonlySet<string> = new Set(getStates().map((state) => state.code));
/** Variant A's stated minimum. */
export const VARIANT_A_MIN_CENTS = 500;

// Documents: strip the mask; an alphanumeric CNPJ keeps its letters, upper-cased.
const normalizeDocument = (value: string): string => value.replace(/[\s./-]/g, "").toUpperCase();

const documentSchema = z
  .string()
  .trim()
  .refine(
    (value) => isValidCpf(value) || isValidCnpj(value, { version: 2 }),
    "must be a valid CPF (11 digits) or CNPJ (14 characters, alphanumeric allowed); check digits do not match",
  )
  .transform(normalizeDocument);

const requiredText = (what: string) =>
  z.string(`${what} is required`).trim().min(1, `${what} is required`);

const emailSchema = z.email("must be a valid e-mail address");

const phoneSchema = z
  .string("phone is required")
  .transform((value) => value.replace(/[\s()+.-]/g, ""))
  .refine((digits) => /^\d{10,11}$/.test(digits), "must be area code plus number, 10 or 11 digits");

const zipSchema = z
  .string("zip is required")
  .transform((value) => value.replace(/[\s.-]/g, ""))
  .refine((digits) => /^\d{8}$/.test(digits), "must be a CEP of 8 digits");

const stateSchema = z
  .string("state is required")
  .trim()
  .transform((value) => value.toUpperCase())
  .refine((code) => UF_CODES.has(code), "must be a Brazilian state's 2-letter code (UF), e.g. SP");

const descriptionSchema = z.string("description must be a string").optional();

const pixSchema = z.object({
  method: z.literal("pix"),
  amountCents: z.number(),
  description: descriptionSchema,
  customer: z
    .object({
      name: z.string().optional(),
      email: emailSchema.optional(),
      document: documentSchema.optional(),
    })
    .optional(),
});

const boletoSchema = z.object({
  method: z.literal("boleto"),
  amountCents: z.number(),
  description: descriptionSchema,
  customer: z.object(
    {
      name: requiredText("name"),
      email: emailSchema,
      document: documentSchema,
      phone: phoneSchema,
    },
    "customer is required for boleto",
  ),
  billingAddress: z.object(
    {
      zip: zipSchema,
      state: stateSchema,
      city: requiredText("city"),
      street: requiredText("street"),
      neighborhood: requiredText("neighborhood"),
      number: requiredText("number"),
      complement: z.string().optional(),
    },
    "billingAddress is required for boleto",
  ),
});

function amountIssues(amount: unknown, variant: "a" | "b"): FieldIssue[] {
  if (typeof amount !== "number" || !Number.isSafeInteger(amount) || amount <= 0) {
    return [
      {
        path: "amountCents",
        message: "must be a positive integer number of cents (R$ 10,00 is 1000)",
      },
    ];
  }
  if (variant === "a" && amount < VARIANT_A_MIN_CENTS) {
    return [
      {
        path: "amountCents",
        message: `must be at least ${VARIANT_A_MIN_CENTS} cents in Variant A`,
      },
    ];
  }
  return [];
}

function fail(issues: FieldIssue[]): never {
  const summary = issues.map((issue) => `${issue.path} ${issue.message}`).join("; ");
  throw new InvalidRequestError(`Invalid charge: ${summary}`, { code: "invalid_request", issues });
}

/**
 * Checks a create input before anything is sent. Throws `InvalidRequestError` with one issue per
 * bad field (code `invalid_request`), and returns the input with masks removed.
 */
export function validateCreateInput(input: unknown, variant: "a" | "b"): ValidCreateInput {
  if (input === null || typeof input !== "object") {
    fail([{ path: "(input)", message: "must be an object { method, amountCents, ... }" }]);
  }
  const method = (input as { method?: unknown }).method;
  if (method !== "pix" && method !== "boleto") {
    fail([{ path: "method", message: 'must be "pix" or "boleto"' }]);
  }
  if (method === "boleto" && variant === "b") {
    fail([
      {
        path: "method",
        message: "boleto exists only in Variant A; this client is configured for Variant B",
      },
    ]);
  }
  const schema = method === "pix" ? pixSchema : boletoSchema;
  const result = schema.safeParse(input);
  const issues = amountIssues((input as { amountCents?: unknown }).amountCents, variant);
  if (!result.success) {
    for (const issue of result.error.issues) {
      const path = issue.path.map(String).join(".");
      if (path === "amountCents") continue;
      issues.push({ path, message: issue.message });
    }
  }
  if (issues.length > 0 || !result.success) fail(issues);
  return result.data as ValidCreateInput;
}
