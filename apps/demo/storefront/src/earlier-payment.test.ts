import { createServer, type IncomingMessage, type Server } from "node:http";
import Medusa from "@medusajs/js-sdk";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { readEarlierPayment } from "./earlier-payment";

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
describe("readEarlierPayment", () => {
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

  it("reads the order's earlier payment with the storefront's publishable key", async () => {
    answer = {
      status: 200,
      body: { order_id: "order_1", earlier_payment: { amount: 5290, order_paid: true } },
    };
    expect(await readEarlierPayment(client, "order_1")).toEqual({ amount: 5290, order_paid: true });
    expect(requests[0]?.url).toBe("/store/pix-checkout/orders/order_1");
    expect(requests[0]?.headers["x-publishable-api-key"]).toBe("pk_test_demo");
  });

  it("is null when the store has nothing to say", async () => {
    answer = { status: 200, body: { order_id: "order_1", earlier_payment: null } };
    expect(await readEarlierPayment(client, "order_1")).toBeNull();
  });

  it("is null, not a failure, when the store does not know the order (404)", async () => {
    answer = { status: 404, body: { code: "order_not_found", message: "Order not found." } };
    await expect(readEarlierPayment(client, "order_1")).resolves.toBeNull();
  });

  it("is null, not a failure, when the store cannot be reached", async () => {
    const gone = createServer();
    const baseUrl = await listen(gone);
    await new Promise((resolve) => gone.close(resolve));
    const unreachable = new Medusa({ baseUrl, publishableKey: "pk_test_demo" }).client;
    await expect(readEarlierPayment(unreachable, "order_1")).resolves.toBeNull();
  });

  it("is null for an amount that is no whole number of cents", async () => {
    for (const amount of ["52,90", 52.9, -5290, 0]) {
      answer = { status: 200, body: { earlier_payment: { amount, order_paid: true } } };
      expect(await readEarlierPayment(client, "order_1")).toBeNull();
    }
  });

  it("keeps an order id inside its path segment", async () => {
    answer = { status: 200, body: { earlier_payment: null } };
    await readEarlierPayment(client, "../carts/cart_1");
    expect(requests[0]?.url).toBe("/store/pix-checkout/orders/..%2Fcarts%2Fcart_1");
  });
});
