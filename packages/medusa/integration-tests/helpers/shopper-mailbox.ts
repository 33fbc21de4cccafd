import type { MedusaContainer } from "@medusajs/framework/types";
import { control, db, orderOfCart, type Api, type Json } from "./checkout";
import { createCartWorkflow } from "@medusajs/medusa/core-flows";
import type { StoreFixture } from "./store-fixture";
import { waitFor } from "./wait-for";

/*
 * Mailboxes as the store meets them: one that proved itself with a paid order, and one a client
 * only typed, into an account made through the store API.
 */

/** The storefront calls `paidOrderFrom` makes (helpers/checkout.ts `storefront`). */
interface Shop {
  call(method: string, url: string, data?: unknown): Promise<{ status: number; data: Json }>;
  initiate(
    cartId: string,
    providerId: string,
    data?: Record<string, unknown>,
  ): Promise<{ status: number; data: Json }>;
}

/**
 * Makes `email` a mailbox with a paid order here, as a returning shopper's is: a cart of that
 * e-mail takes a Pix code, the sandbox pays it, and the order's payment is captured. Returns the
 * order's id. The code is never shown (so never mailed); its "paid" message goes as any does.
 */
export async function paidOrderFrom(
  container: MedusaContainer,
  shop: Shop,
  store: StoreFixture,
  sandboxUrl: string,
  email: string,
): Promise<string> {
  const [orderId] = await paidOrdersFrom(container, store, sandboxUrl, [{ email, shop }]);
  return orderId!;
}

/** Orders `paidOrdersFrom` pays at once: more at once only queue for Medusa's connections. */
const AT_ONCE = 4;

/** `paidOrderFrom` for many mailboxes, a few at a time, each from its own storefront. */
export async function paidOrdersFrom(
  container: MedusaContainer,
  store: StoreFixture,
  sandboxUrl: string,
  buyers: { email: string; shop: Shop }[],
): Promise<string[]> {
  const orders: string[] = [];
  for (let start = 0; start < buyers.length; start += AT_ONCE) {
    orders.push(
      ...(await payOrders(container, store, sandboxUrl, buyers.slice(start, start + AT_ONCE))),
    );
  }
  return orders;
}

async function payOrders(
  container: MedusaContainer,
  store: StoreFixture,
  sandboxUrl: string,
  buyers: { email: string; shop: Shop }[],
): Promise<string[]> {
  return Promise.all(
    buyers.map(async ({ email, shop }) => {
      // The cart is made with its e-mail: Medusa finds or creates the guest customer of that
      // address, which two carts made at once for one address would race for.
      const { result: cart } = await createCartWorkflow(container).run({
        input: {
          region_id: store.regionId,
          sales_channel_id: store.salesChannelId,
          currency_code: "brl",
          email,
          items: [{ title: "Caneca", quantity: 1, unit_price: 12.3, requires_shipping: false }],
        },
      });
      const created = await shop.initiate(cart.id, "pp_pix_a");
      if (created.status !== 200) throw new Error(JSON.stringify(created.data));
      const session = created.data.payment_collection.payment_sessions[0] as { id: string };
      // A create past the service's budget waits in line: the code exists once its charge does.
      const charge = await waitFor(
        async () =>
          (await db(container)("pix_checkout_charge").where({ session_id: session.id }).first()) ??
          false,
        "the proving order's code",
        150_000,
      );
      const paid = await control(sandboxUrl, `charges/${charge.charge_id}/pay`, {});
      if (!paid.ok) throw new Error(`the sandbox did not pay ${charge.charge_id}: ${paid.status}`);
      // Paid in Medusa and in the plugin's ledger, so figures read after this include it.
      const order = await waitFor(
        async () => {
          const found = await orderOfCart(container, cart.id);
          const row = await db(container)("pix_checkout_charge")
            .where({ charge_id: charge.charge_id })
            .first();
          return (
            found?.payment_collections[0]?.status === "completed" &&
            Number(row?.captured_cents) > 0 &&
            found
          );
        },
        "the proving order to be paid",
        60_000,
      );
      return order.id;
    }),
  );
}

/** A customer account a client made through the store API, logged in. */
export interface StoreAccount {
  customerId: string;
  /** The logged-in customer's headers (bearer token and publishable key). */
  headers: Record<string, string>;
}

/**
 * What any client can do with any e-mail, unverified, as a storefront's sign-up does: registers
 * `email` with a password (`POST /auth/customer/emailpass/register`), creates the customer
 * (`POST /store/customers`), and logs in (`POST /auth/customer/emailpass`).
 */
export async function signUpThroughStore(
  api: Api,
  store: StoreFixture,
  email: string,
): Promise<StoreAccount> {
  const password = "s3nha-qualquer";
  const post = async (url: string, data: unknown, headers: Record<string, string> = {}) => {
    const response = await api.request({
      method: "post",
      url,
      data,
      headers: { "x-publishable-api-key": store.publishableKey, ...headers },
      validateStatus: () => true,
    });
    if (response.status !== 200) {
      throw new Error(`${url} answered ${response.status}: ${JSON.stringify(response.data)}`);
    }
    return response.data;
  };
  const registered = await post("/auth/customer/emailpass/register", { email, password });
  const created = await post(
    "/store/customers",
    { email, first_name: "Conta", last_name: "Inventada" },
    { authorization: `Bearer ${registered.token}` },
  );
  const login = await post("/auth/customer/emailpass", { email, password });
  return {
    customerId: created.customer.id as string,
    headers: {
      "x-publishable-api-key": store.publishableKey,
      authorization: `Bearer ${login.token}`,
    },
  };
}

/**
 * The logged-in customer takes the cart, as a storefront does at login
 * (`POST /store/carts/:id/customer`): the cart's e-mail becomes the account's.
 */
export async function takeCart(api: Api, account: StoreAccount, cartId: string): Promise<Json> {
  const response = await api.request({
    method: "post",
    url: `/store/carts/${cartId}/customer`,
    headers: account.headers,
    validateStatus: () => true,
  });
  if (response.status !== 200) throw new Error(JSON.stringify(response.data));
  return response.data.cart;
}
