import { ContainerRegistrationKeys } from "@medusajs/framework/utils";
import type { MedusaContainer } from "@medusajs/framework/types";

/*
 * Medusa's payment sessions, payments and captures of one session, read with Query by
 * settlement (capture, its follow-ups) and the merchant's refund.
 */

/** A payment session as Medusa holds it: its raw decimal amount, fractions of a cent included. */
export interface HeldSession {
  rawAmount: string;
  currencyCode: string;
  data: Record<string, unknown>;
}

/** The session `sessionId`; undefined once Medusa no longer has it. */
export async function heldSession(
  container: MedusaContainer,
  sessionId: string,
): Promise<HeldSession | undefined> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY);
  const { data } = await query.graph({
    entity: "payment_session",
    fields: ["id", "amount", "raw_amount", "currency_code", "data"],
    filters: { id: sessionId },
  });
  const session = data[0] as
    | {
        amount?: number | string;
        raw_amount?: { value?: string };
        currency_code: string;
        data: Record<string, unknown> | null;
      }
    | undefined;
  const amount = session?.raw_amount?.value ?? session?.amount;
  if (!session || amount === undefined) return undefined;
  return {
    rawAmount: String(amount),
    currencyCode: session.currency_code,
    data: session.data ?? {},
  };
}

/** A session's payments, with their captures (raw amounts). */
interface PaymentOfSession {
  id: string;
  currency_code: string;
  captured_at: Date | string | null;
  captures?: { id: string; raw_amount: unknown }[];
}

async function paymentsOfSession(
  container: MedusaContainer,
  sessionId: string,
): Promise<PaymentOfSession[]> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY);
  const { data } = await query.graph({
    entity: "payment",
    fields: ["id", "currency_code", "captured_at", "captures.id", "captures.raw_amount"],
    filters: { payment_session_id: sessionId },
  });
  return data as PaymentOfSession[];
}

/** Whether a payment holds any capture: Medusa sets `captured_at` only once it is whole. */
const holdsCapture = (payment: PaymentOfSession) =>
  Boolean(payment.captured_at) || (payment.captures?.length ?? 0) > 0;

/**
 * Whether Medusa holds a capture for a session's payment (made by cart completion or a
 * capture of settlement's).
 */
export async function capturedInMedusa(
  container: MedusaContainer,
  sessionId: string,
): Promise<boolean> {
  return (await paymentsOfSession(container, sessionId)).some(holdsCapture);
}

/** The id of Medusa's payment of a session that holds a capture, if there is one. */
export async function capturedPaymentOf(
  container: MedusaContainer,
  sessionId: string,
): Promise<string | undefined> {
  return (await paymentsOfSession(container, sessionId)).find(holdsCapture)?.id;
}

/** The captures of a session's payment, with its currency; undefined without a payment. */
export async function capturesOfSession(
  container: MedusaContainer,
  sessionId: string,
): Promise<{ currencyCode: string; captures: { id: string; rawAmount: unknown }[] } | undefined> {
  const payment = (await paymentsOfSession(container, sessionId))[0];
  if (!payment) return undefined;
  return {
    currencyCode: payment.currency_code,
    captures: (payment.captures ?? []).map((c) => ({ id: c.id, rawAmount: c.raw_amount })),
  };
}
