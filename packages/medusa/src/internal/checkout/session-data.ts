import { z } from "zod";
import { maskDocument } from "@pix-checkout/client";
import { PixCheckoutError } from "../platform/errors";
import type { ChargeRow, LocalChargeStatus } from "../records/charges";
import type { SessionDisplayData } from "./display";

/**
 * A payment session's `data` is written by the storefront (Medusa stores what it sent, then
 * the provider's answer over it) and read back by anyone holding the cart. So it is input on
 * the way in and public on the way out:
 *
 * - in, only the payer's details are read (`parseSessionInput`); a field the plugin owns
 *   (`charge_id`, `status`, ...) is never read from it, whatever the storefront sent;
 * - out, every answer sets every field the plugin owns, `null` where it has none, and every
 *   other key the storefront sent becomes `null` (`sessionData`), so nothing a storefront
 *   planted survives in the session for the next reader.
 */

/** Text of a payer field; a number is read as its digits (a house number sent as 100). */
const text = z
  .union([z.string().max(500), z.number().finite().transform(String)])
  .nullish()
  .transform((value) => value ?? undefined);

/** The billing address in Medusa's spelling, plus the two Brazilian extras. */
const addressSchema = z
  .object({
    first_name: text,
    last_name: text,
    address_1: text,
    address_2: text,
    number: text,
    neighborhood: text,
    city: text,
    province: text,
    postal_code: text,
    phone: text,
  })
  .strip();

/** What a storefront may send in a session's `data`: the payer's details. */
const sessionInputSchema = z
  .object({
    email: text,
    name: text,
    document: text,
    phone: text,
    neighborhood: text,
    number: text,
    complement: text,
    description: text,
    billing_address: addressSchema.nullish().transform((value) => value ?? undefined),
  })
  .strip();

/** The payer's details a storefront sent, parsed; nothing else of its `data` is read. */
export type SessionInput = z.infer<typeof sessionInputSchema>;

/**
 * Reads the payer's details out of a session's `data`. Any other key is ignored here and
 * nulled in the answer (`sessionData`). A payer field of the wrong type is a 400
 * `invalid_payer_data` naming it.
 */
export function parseSessionInput(data: unknown): SessionInput {
  const object = data && typeof data === "object" && !Array.isArray(data) ? data : {};
  const parsed = sessionInputSchema.safeParse(object);
  if (parsed.success) return parsed.data;
  const field = parsed.error.issues[0]?.path.join(".") ?? "data";
  throw new PixCheckoutError(
    "invalid_payer_data",
    `data.${field} must be text (the payer's details are strings).`,
  );
}

/** Every field of a session's `data` the plugin owns, each always present. */
export interface OwnedSessionData {
  session_id: string;
  /** The charge this session's code is, or `null` while it waits in the create line. */
  charge_id: string | null;
  method: "pix" | "boleto";
  /** The charge's status, or `preparing` while it waits in line (`failed` if that failed). */
  status: LocalChargeStatus | "preparing" | "held" | "refund_due";
  amount_cents: number;
  expires_at: string | null;
  /** While the code waits in the create line: when it is expected. */
  ready_at: string | null;
  pix: SessionDisplayData["pix"] | null;
  boleto: SessionDisplayData["boleto"] | null;
}

/**
 * The `data` a provider answers Medusa with: every key the storefront sent nulled, its payer
 * details put back as parsed (the document masked), then every field the plugin owns.
 */
export function sessionData(input: unknown, owned: OwnedSessionData): Record<string, unknown> {
  const sent = input && typeof input === "object" && !Array.isArray(input) ? input : {};
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(sent)) out[key] = null;
  const payer = sessionInputSchema.safeParse(sent);
  if (payer.success) {
    for (const [key, value] of Object.entries(payer.data)) {
      if (value !== undefined)
        out[key] = key === "document" ? maskDocument(value as string) : value;
    }
  }
  return { ...out, ...owned };
}

/** The plugin-owned data of a session whose code is this charge. */
export function ownedOfCharge(
  row: ChargeRow,
  sessionId: string,
  status: OwnedSessionData["status"] = row.status,
): OwnedSessionData {
  const display = (
    typeof row.display === "string" ? JSON.parse(row.display) : row.display
  ) as Partial<SessionDisplayData> | null;
  return {
    session_id: sessionId,
    charge_id: row.charge_id,
    method: row.method,
    status,
    amount_cents: Number(row.amount_cents),
    expires_at: row.expires_at ? new Date(row.expires_at).toISOString() : null,
    ready_at: null,
    pix: display?.pix ?? null,
    boleto: display?.boleto ?? null,
  };
}

/** The plugin-owned data of a session whose code waits in the create line. */
export function ownedOfRequest(request: {
  session_id: string;
  method: "pix" | "boleto";
  amount_cents: number | string;
  state: string;
  readyAt?: Date | null;
}): OwnedSessionData {
  const ended = request.state === "failed" || request.state === "canceled";
  return {
    session_id: request.session_id,
    charge_id: null,
    method: request.method,
    status: ended ? "failed" : "preparing",
    amount_cents: Number(request.amount_cents),
    expires_at: null,
    ready_at: request.readyAt ? request.readyAt.toISOString() : null,
    pix: null,
    boleto: null,
  };
}
