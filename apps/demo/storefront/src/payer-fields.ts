// The shopper's contact and address fields, and their validation. A boleto needs all of
// them (the bank prints the payer on it); Pix needs only what shipping needs.
import {
  formatCep,
  formatCnpj,
  formatCpf,
  getStates,
  isValidCep,
  isValidCnpj,
  isValidCpf,
  isValidEmail,
  isValidPhone,
} from "@brazilian-utils/brazilian-utils";

/** Every field the checkout forms ask for, as typed. */
export interface PayerFields {
  email: string;
  firstName: string;
  lastName: string;
  phone: string;
  document: string;
  postalCode: string;
  street: string;
  number: string;
  complement: string;
  neighborhood: string;
  city: string;
  province: string;
}

/** A field name of {@link PayerFields}. */
export type PayerField = keyof PayerFields;

/** An empty form. */
export function emptyPayer(): PayerFields {
  return {
    email: "",
    firstName: "",
    lastName: "",
    phone: "",
    document: "",
    postalCode: "",
    street: "",
    number: "",
    complement: "",
    neighborhood: "",
    city: "",
    province: "",
  };
}

/** The 27 UFs, for the state select. */
export const states: { code: string; name: string }[] = getStates().map((state) => ({
  code: String(state.code),
  name: state.name,
}));
const ufCodes = new Set(states.map((state) => state.code));

/** CPF and CNPJ (numeric or alphanumeric) without punctuation, upper-cased. */
export function normalizeDocument(value: string): string {
  return value.replace(/[.\-/\s]/g, "").toUpperCase();
}

/** Pretty-prints a complete CPF or CNPJ; leaves anything else as typed. */
export function formatDocument(value: string): string {
  const bare = normalizeDocument(value);
  if (bare.length === 11 && isValidCpf(bare)) return formatCpf(bare);
  if (bare.length === 14 && isValidCnpj(bare, { version: 2 })) {
    return formatCnpj(bare, { version: 2 });
  }
  return value;
}

/** "(11) 98765-4321" or "(11) 3333-4444" for a whole number with its area code; else as typed. */
export function formatPhoneNumber(value: string): string {
  const digits = value.replace(/\D/g, "");
  const match = /^(\d{2})(\d{4,5})(\d{4})$/.exec(digits);
  if (!match || !isValidPhone(digits)) return value;
  return `(${match[1]}) ${match[2]}-${match[3]}`;
}

/** Pretty-prints a complete CEP; leaves anything else as typed. */
export function formatPostalCode(value: string): string {
  return isValidCep(value) ? formatCep(value) : value;
}

const required = (label: string) => (value: string) =>
  value.trim() === "" ? `Informe ${label}.` : null;

type Rule = (value: string) => string | null;

const rules: Record<PayerField, Rule | null> = {
  email: (value) =>
    required("o e-mail")(value) ?? (isValidEmail(value.trim()) ? null : "E-mail inválido."),
  firstName: required("o nome"),
  lastName: required("o sobrenome"),
  phone: (value) =>
    required("o telefone com DDD")(value) ??
    (isValidPhone(value.replace(/\D/g, ""))
      ? null
      : "Telefone inválido: DDD e número, ex. (11) 98765-4321."),
  document: (value) => {
    const missing = required("o CPF ou CNPJ")(value);
    if (missing) return missing;
    const bare = normalizeDocument(value);
    if (isValidCpf(bare) || isValidCnpj(bare, { version: 2 })) return null;
    return "CPF ou CNPJ inválido (o CNPJ pode ter letras).";
  },
  postalCode: (value) =>
    required("o CEP")(value) ?? (isValidCep(value.trim()) ? null : "CEP inválido: 8 dígitos."),
  street: required("a rua"),
  number: required("o número (ou S/N)"),
  complement: null,
  neighborhood: required("o bairro"),
  city: required("a cidade"),
  province: (value) => (ufCodes.has(value) ? null : "Escolha o estado (UF)."),
};

/** The fields shipping needs; a boleto needs these plus the CPF/CNPJ. */
export const shippingFields: PayerField[] = [
  "email",
  "firstName",
  "lastName",
  "phone",
  "postalCode",
  "street",
  "number",
  "complement",
  "neighborhood",
  "city",
  "province",
];

/** Every field a boleto needs. */
export const boletoFields: PayerField[] = ["document", ...shippingFields];

/**
 * A boleto payer's address elsewhere than the delivery ("Mesmo endereço da entrega"
 * unchecked): the shipping fields but the e-mail, which stays the order's.
 */
export const billingFields: PayerField[] = shippingFields.filter((field) => field !== "email");

/** What is wrong with one field, in words for the shopper, or null when it is fine. */
export function validateField(field: PayerField, value: string): string | null {
  return rules[field]?.(value) ?? null;
}

/** Errors of the given fields, keyed by field; empty when all are valid. */
export function validatePayer(
  payer: PayerFields,
  fields: PayerField[],
): Partial<Record<PayerField, string>> {
  const errors: Partial<Record<PayerField, string>> = {};
  for (const field of fields) {
    const error = validateField(field, payer[field]);
    if (error) errors[field] = error;
  }
  return errors;
}
