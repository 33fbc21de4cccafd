import { Agent as HttpAgent } from "node:http";
import type { IPaymentModuleService, MedusaContainer } from "@medusajs/framework/types";
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils";
import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import type { StoreFixture } from "./store-fixture";

/** Response JSON: shapes are what the tests assert, so they are read loosely. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
export type Json = any;

/** The axios instance medusaIntegrationTestRunner hands to a suite. */
export interface Api {
  request(config: Record<string, unknown>): Promise<{ status: number; data: Json }>;
  defaults: { baseURL?: string };
}

/**
 * A storefront talking to the store API the way @medusajs/js-sdk would; with `from`, from
 * that loopback address (127.0.0.2, ...), so the store sees another client.
 */
export function storefront(
  api: Api,
  store: StoreFixture,
  from?: string,
  /** More headers on every call (a storefront server's signed `x-pix-client`, say). */
  headers: () => Record<string, string> = () => ({}),
) {
  const agent = from ? new HttpAgent({ localAddress: from, keepAlive: false }) : undefined;
  const call = (method: string, url: string, data?: unknown) =>
    api.request({
      method,
      url,
      data,
      headers: { ...headers(), "x-publishable-api-key": store.publishableKey },
      validateStatus: () => true,
      ...(agent ? { httpAgent: agent } : {}),
    });
  return {
    call,
    /** Creates the cart's payment collection and a session of `providerId`; returns the session. */
    async initiate(cartId: string, providerId: string, data: Record<string, unknown> = {}) {
      const collection = await call("post", "/store/payment-collections", { cart_id: cartId });
      if (collection.status !== 200) throw new Error(JSON.stringify(collection.data));
      const id = collection.data.payment_collection.id as string;
      const created = await call("post", `/store/payment-collections/${id}/payment-sessions`, {
        provider_id: providerId,
        data,
      });
      return created;
    },
    complete: (cartId: string) => call("post", `/store/carts/${cartId}/complete`),
    cart: (cartId: string) => call("get", `/store/carts/${cartId}`),
    /** What the element sends once its page shows the session's code. */
    shown: (sessionId: string) =>
      call("post", `/store/pix-checkout/sessions/${sessionId}/shown`, {}),
  };
}

/** Drives the sandbox's control routes over HTTP. */
export async function control(sandboxUrl: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${sandboxUrl}/__sandbox/${path}`, {
    method: body === undefined && path.startsWith("webhooks") ? "GET" : "POST",
    headers: { "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

/** Reads the plugin's tables directly. */
export function db(container: MedusaContainer): Knex {
  return container.resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION);
}

/** The order created from a cart, with its payment collection status. */
export async function orderOfCart(container: MedusaContainer, cartId: string) {
  const query = container.resolve(ContainerRegistrationKeys.QUERY);
  const { data: links } = await query.graph({
    entity: "order_cart",
    fields: ["order_id"],
    filters: { cart_id: cartId },
  });
  const orderId = (links[0] as { order_id?: string } | undefined)?.order_id;
  if (!orderId) return undefined;
  const { data: orders } = await query.graph({
    entity: "order",
    fields: ["id", "status", "payment_collections.status", "payment_collections.id"],
    filters: { id: orderId },
  });
  return orders[0] as
    | { id: string; status: string; payment_collections: { id: string; status: string }[] }
    | undefined;
}

/** The captures recorded on the payments of a session. */
export async function capturesOfSession(
  container: MedusaContainer,
  sessionId: string,
): Promise<number> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY);
  const { data } = await query.graph({
    entity: "payment",
    fields: ["id", "captures.id"],
    filters: { payment_session_id: sessionId },
  });
  return (data as { captures?: unknown[] }[]).reduce(
    (sum, p) => sum + (p.captures?.length ?? 0),
    0,
  );
}

/** What Medusa captured on a session's payments, in cents (its amounts are reais, two decimals). */
export async function capturedCentsOfSession(
  container: MedusaContainer,
  sessionId: string,
): Promise<number> {
  const payments = container.resolve<IPaymentModuleService>(Modules.PAYMENT);
  const list = await payments.listPayments(
    { payment_session_id: sessionId },
    { relations: ["captures"] },
  );
  // Cents on digits, no float sums.
  return list
    .flatMap((p) => p.captures ?? [])
    .reduce((sum, c) => sum + Math.round(Number(c.amount) * 100), 0);
}

/** Payer data a storefront sends for a boleto: what Medusa's address lacks, and the CPF. */
export const BOLETO_PAYER = {
  email: "ana@example.com",
  document: "529.982.247-25",
  phone: "11987654321",
  neighborhood: "Centro",
  number: "100",
  billing_address: {
    first_name: "Ana",
    last_name: "Souza",
    address_1: "Rua Augusta",
    city: "São Paulo",
    province: "SP",
    postal_code: "01310-100",
  },
};
