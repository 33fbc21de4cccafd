import { getStateCodeByName, getStates } from "@brazilian-utils/brazilian-utils";
import { PixCheckoutError } from "../platform/errors";
import type { ClientCreateChargeInput } from "../platform/client-port";
import { readBuyerDocument } from "../platform/buyer-document";

type BoletoCharge = Extract<ClientCreateChargeInput, { method: "boleto" }>;

/** Address fields the storefront may send, in Medusa's address spelling plus the two Brazilian extras. */
interface AddressLike {
  first_name?: unknown;
  last_name?: unknown;
  address_1?: unknown;
  address_2?: unknown;
  number?: unknown;
  neighborhood?: unknown;
  city?: unknown;
  province?: unknown;
  postal_code?: unknown;
  phone?: unknown;
}

/** The customer Medusa passes in the provider context (logged-in shoppers only). */
export interface ContextCustomer {
  email?: string | null;
  first_name?: string | null;
  last_name?: string | null;
  phone?: string | null;
  billing_address?: AddressLike | null;
}

const UF_CODES = new Set(getStates().map((state) => state.code as string));

function text(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const trimmed = value.trim();
  return trimmed === "" ? undefined : trimmed;
}

/** Turns "SP", "sp" or "São Paulo" into the 2-letter UF; undefined when it is none of them. */
export function toUf(province: string): string | undefined {
  const upper = province.trim().toUpperCase();
  // Medusa's own address forms often store ISO 3166-2 subdivisions such as "BR-SP".
  const bare = upper.startsWith("BR-") ? upper.slice(3) : upper;
  if (UF_CODES.has(bare)) return bare;
  const byName = getStateCodeByName(province.trim());
  return typeof byName === "string" && UF_CODES.has(byName) ? byName : undefined;
}

/**
 * Builds the boleto charge input from what the storefront sent in the payment session's
 * `data` (document, phone, neighborhood, number, billing_address) and the logged-in
 * customer, if any. Throws `missing_payer_data` naming every missing field at once, or
 * `invalid_payer_data` naming the field that is wrong.
 */
export function buildBoletoCharge(
  amountCents: number,
  data: Record<string, unknown>,
  customer?: ContextCustomer | null,
  description?: string,
): BoletoCharge {
  const address: AddressLike =
    (data.billing_address as AddressLike | undefined) ?? customer?.billing_address ?? {};
  const fullName = [text(address.first_name), text(address.last_name)].filter(Boolean).join(" ");
  const customerName = [text(customer?.first_name), text(customer?.last_name)]
    .filter(Boolean)
    .join(" ");
  const fields = {
    name: text(data.name) ?? (fullName || undefined) ?? (customerName || undefined),
    email: text(data.email) ?? text(customer?.email),
    document: text(data.document),
    phone: text(data.phone) ?? text(address.phone) ?? text(customer?.phone),
    zip: text(address.postal_code),
    state: text(address.province),
    city: text(address.city),
    street: text(address.address_1),
    neighborhood: text(data.neighborhood) ?? text(address.neighborhood),
    number: text(data.number) ?? text(address.number),
  };
  const where: Record<keyof typeof fields, string> = {
    name: "data.name or billing_address.first_name/last_name",
    email: "data.email",
    document: "data.document (CPF or CNPJ)",
    phone: "data.phone",
    zip: "billing_address.postal_code",
    state: "billing_address.province",
    city: "billing_address.city",
    street: "billing_address.address_1",
    neighborhood: "data.neighborhood",
    number: "data.number",
  };
  const missing = (Object.keys(fields) as (keyof typeof fields)[]).filter((key) => !fields[key]);
  if (missing.length > 0) {
    throw new PixCheckoutError(
      "missing_payer_data",
      `A boleto needs the payer's ${missing.join(", ")}. Send ${missing
        .map((key) => where[key])
        .join(", ")} when creating the payment session.`,
    );
  }
  // One rule for the buyer's document, a boleto's or a Pix's (buyer-document.ts).
  const document = readBuyerDocument(fields.document!)?.number;
  if (!document) {
    throw new PixCheckoutError("invalid_payer_data", "document is not a valid CPF or CNPJ.");
  }
  let phone = fields.phone!.replace(/\D/g, "");
  if ((phone.length === 12 || phone.length === 13) && phone.startsWith("55"))
    phone = phone.slice(2);
  if (phone.length !== 10 && phone.length !== 11) {
    throw new PixCheckoutError(
      "invalid_payer_data",
      "phone must be an area code plus number: 10 or 11 digits (e.g. 11987654321).",
    );
  }
  const zip = fields.zip!.replace(/\D/g, "");
  if (zip.length !== 8) {
    throw new PixCheckoutError(
      "invalid_payer_data",
      "billing_address.postal_code must be a CEP of 8 digits.",
    );
  }
  const state = toUf(fields.state!);
  if (!state) {
    throw new PixCheckoutError(
      "invalid_payer_data",
      `billing_address.province "${fields.state}" is not a Brazilian state; use its 2-letter UF (e.g. SP).`,
    );
  }
  const complement = text(data.complement) ?? text(address.address_2);
  return {
    method: "boleto",
    amountCents,
    ...(description ? { description } : {}),
    customer: { name: fields.name!, email: fields.email!, document, phone },
    billingAddress: {
      zip,
      state,
      city: fields.city!,
      street: fields.street!,
      neighborhood: fields.neighborhood!,
      number: fields.number!,
      ...(complement ? { complement } : {}),
    },
  };
}
