import { createServer, type IncomingMessage, type Server } from "node:http";
import Medusa from "@medusajs/js-sdk";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { readOrderPayment } from "./order-payment";

/** What the fake store answers next, and the requests it was sent. */
let answer: { status: number; body: unknown };
const requests: IncomingMessage[] = [];

function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      resolve(`http://127.0.0.1:${port}`);
    }),
  );
}

// The real Medusa JS SDK against a store on this machine that answers as the plugin's route.
describe("readOrderPayment", () => {
  const store = createServer((req, res) => {
    requests.push(req);
    res.writeHead(answer.status, { "content-type": "application/json" });
    res.end(JSON.stringify(answer.body));
  });
  let client: Medusa["client"];

  beforeAll(async () => {
    client = new Medusa({ baseUrl: await listen(store), publishableKey: "pk_test_demo" }).client;
  });
  afterAll(() => new Promise((resolve) => store.close(resolve)));
  beforeEach(() => {
    requests.length = 0;
  });

  it("reads the order's payment and earlier payment with the storefront's publishable key", async () => {
    answer = {
      status: 200,
      body: {
        order_id: "order_1",
        display_id: 3,
        payment: "awaiting",
        earlier_payment: { amount: 20945, order_paid: false },
      },
    };
    expect(await readOrderPayment(client, "order_1")).toEqual({
      payment: "awaiting",
      earlier_payment: { amount: 20945, order_paid: false },
    });
    expect(requests[0]?.url).toBe("/store/pix-checkout/orders/order_1");
    expect(requests[0]?.headers["x-publishable-api-key"]).toBe("pk_test_demo");
  });

  it("reads a paid order with nothing owed back", async () => {
    answer = { status: 200, body: { order_id: "order_1", payment: "paid", earlier_payment: null } };
    expect(await readOrderPayment(client, "order_1")).toEqual({
      payment: "paid",
      earlier_payment: null,
    });
  });

  it("claims no state the store did not name: an unknown or missing payment is null", async () => {
    for (const payment of [undefined, "captured", "PAID", true]) {
      answer = { status: 200, body: { order_id: "order_1", payment, earlier_payment: null } };
      expect((await readOrderPayment(client, "order_1"))?.payment).toBeNull();
    }
  });

  it("is null, not a failure, when the store does not know the order (404)", async () => {
    answer = { status: 404, body: { code: "order_not_found", message: "Order not found." } };
    await expect(readOrderPayment(client, "order_1")).resolves.toBeNull();
  });

  it("is null, not a failure, when the store cannot be reached", async () => {
    const gone = createServer();
    const baseUrl = await listen(gone);
    await new Promise((resolve) => gone.close(resolve));
    const unreachable = new Medusa({ baseUrl, publishableKey: "pk_test_demo" }).client;
    await expect(readOrderPayment(unreachable, "order_1")).resolves.toBeNull();
  });

  it("drops an earlier payment whose amount is no whole number of cents", async () => {
    for (const amount of ["52,90", 52.9, -5290, 0]) {
      answer = {
        status: 200,
        body: { payment: "paid", earlier_payment: { amount, order_paid: true } },
      };
      expect((await readOrderPayment(client, "order_1"))?.earlier_payment).toBeNull();
    }
  });

  it("keeps an order id inside its path segment", async () => {
    answer = { status: 200, body: { payment: "paid", earlier_payment: null } };
    await readOrderPayment(client, "../carts/cart_1");
    expect(requests[0]?.url).toBe("/store/pix-checkout/orders/..%2Fcarts%2Fcart_1");
  });
});
