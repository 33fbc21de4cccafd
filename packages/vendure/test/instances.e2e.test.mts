// One store run as a merchant runs it under load: two Vendure servers and a worker on one
// database. The service delivers every webhook to both servers at the same moment (as a load
// balancer's retries and the service's own do), and the worker runs reconciliation from
// Vendure's scheduler. Each payment settles its order once.
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { DefaultJobQueuePlugin, DefaultSchedulerPlugin } from "@vendure/core";
import { gql } from "graphql-tag";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  freePort,
  orderByCode,
  orderWithPixCode,
  pay,
  startTestStore,
  webhookUrl,
  withWebhooksLost,
  WEBHOOK_SECRET,
  type TestStore,
} from "./store-under-test.mjs";

let store: TestStore;
let secondPort: number;
let secondServer: ChildProcess;
const instances: ChildProcess[] = [];

/** Starts `role` as a process of its own on the store's database; resolves once it serves. */
async function startInstance(role: "server" | "worker", port: number): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [fileURLToPath(new URL("./fixtures/instance.mjs", import.meta.url))],
    {
      env: {
        ...process.env,
        PIX_INSTANCE: JSON.stringify({
          role,
          port,
          database: store.database,
          sandbox: { baseUrl: store.sandbox.baseUrl, apiKey: store.sandbox.defaultKey },
          webhookSecret: WEBHOOK_SECRET,
        }),
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  instances.push(child);
  const errors: string[] = [];
  child.stderr!.on("data", (chunk: Buffer) => errors.push(chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on("line", (line) => {
      if (line === "ready") resolve();
    });
    child.once("exit", (code) =>
      reject(new Error(`the ${role} exited (${code}) before it served:\n${errors.join("")}`)),
    );
  });
  return child;
}

beforeAll(async () => {
  secondPort = await freePort();
  store = await startTestStore(import.meta.url, {
    alsoDeliverTo: [secondPort],
    plugins: [
      DefaultJobQueuePlugin.init({ pollInterval: 200 }),
      DefaultSchedulerPlugin.init({ manualTriggerCheckInterval: 250 }),
    ],
  });
  [secondServer] = await Promise.all([
    startInstance("server", secondPort),
    startInstance("worker", 0),
  ]);
}, 240_000);

afterAll(async () => {
  await Promise.all(
    instances.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          const kill = setTimeout(() => child.kill("SIGKILL"), 25_000);
          child.once("exit", () => {
            clearTimeout(kill);
            resolve();
          });
          child.kill("SIGTERM");
        }),
    ),
  );
  await store?.close();
});

type HistoryEntry = { type: string; data: { to?: string } };

/** How many times the order moved to PaymentSettled, and its payments moved to Settled. */
async function settlements(code: string) {
  const order = await orderByCode(code);
  const entries: HistoryEntry[] = order.history.items;
  return {
    state: order.state as string,
    orderSettled: entries.filter(
      (e) => e.type === "ORDER_STATE_TRANSITION" && e.data.to === "PaymentSettled",
    ).length,
    paymentsSettled: entries.filter(
      (e) => e.type === "ORDER_PAYMENT_TRANSITION" && e.data.to === "Settled",
    ).length,
    payments: order.payments.map((p: { state: string }) => p.state) as string[],
  };
}

/** The service's delivery of `chargeId` paid, as it retries it: the same body to both servers. */
function deliverToBoth(chargeId: string, amount: number) {
  const body = JSON.stringify({
    event: "charge.paid",
    data: { uuid: chargeId, amount, status: "paid" },
  });
  return Promise.all(
    [store.storeUrl, `http://127.0.0.1:${secondPort}`].map(async (base) => {
      const port = Number(new URL(base).port);
      const answer = await fetch(webhookUrl(port), {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      });
      return { status: answer.status, ...((await answer.json()) as { outcome?: string }) };
    }),
  );
}

/** What an order paid once shows: settled once, by one payment settled once. */
const SETTLED_ONCE = {
  state: "PaymentSettled",
  orderSettled: 1,
  paymentsSettled: 1,
  payments: ["Settled"],
};

/** `read()` again every 250 ms until `done` says yes or `within` ms passed; its last value. */
async function eventually<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  within = 30_000,
): Promise<T> {
  const deadline = Date.now() + within;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const untilSettled = (code: string) =>
  eventually(
    () => settlements(code),
    (now) => now.state === "PaymentSettled",
  );

/** What the worker's last reconciliation pass reported, once it has one (Vendure's task list). */
const reconcileResult = () =>
  eventually(
    async () => {
      const { scheduledTasks } = await store.env.adminClient.query(gql`
        {
          scheduledTasks {
            id
            lastResult
          }
        }
      `);
      const task = scheduledTasks.find((t: { id: string }) => t.id === "pix-checkout-reconcile");
      return (task?.lastResult ?? null) as Record<string, number> | null;
    },
    (result) => result !== null,
  );

describe("two servers and a worker on one database", () => {
  it("six codes paid at once, each delivery reaching both servers at the same moment and again: every order settled once, its payment once", async () => {
    const orders: Awaited<ReturnType<typeof orderWithPixCode>>[] = [];
    for (let i = 0; i < 6; i++) orders.push(await orderWithPixCode(`par${i}@example.com`));
    await Promise.all(orders.map((order) => pay(order.payments[0].transactionId)));
    // The service's retries, to both servers at once, for every code.
    const again = await Promise.all(
      orders.map((order) => deliverToBoth(order.payments[0].transactionId, order.totalWithTax)),
    );
    expect(again.flat().map((a) => [a.status, a.outcome])).toEqual(
      Array.from({ length: 12 }, () => [200, "duplicate"]),
    );
    for (const order of orders) {
      expect(await settlements(order.code)).toEqual(SETTLED_ONCE);
    }
  });

  it("codes whose every webhook was lost: the worker's reconciliation, started from the admin, settles them, racing late deliveries to both servers, once each", async () => {
    const orders: Awaited<ReturnType<typeof orderWithPixCode>>[] = [];
    for (let i = 0; i < 3; i++) orders.push(await orderWithPixCode(`perdido${i}@example.com`));
    await withWebhooksLost(async () => {
      for (const order of orders) await pay(order.payments[0].transactionId);
    });
    for (const order of orders)
      expect((await settlements(order.code)).state).toBe("ArrangingPayment");

    // The worker alone runs scheduled tasks (Vendure's default); the admin asks it to run now,
    // and the service's late deliveries for two of the three arrive at both servers meanwhile.
    const { runScheduledTask } = await store.env.adminClient.query(gql`
      mutation {
        runScheduledTask(id: "pix-checkout-reconcile") {
          success
        }
      }
    `);
    expect(runScheduledTask).toEqual({ success: true });
    await Promise.all(
      orders
        .slice(0, 2)
        .map((order) => deliverToBoth(order.payments[0].transactionId, order.totalWithTax)),
    );

    for (const order of orders) {
      expect(await untilSettled(order.code)).toEqual(SETTLED_ONCE);
    }
    // The third had no delivery at all: the worker's pass settled it, and says so once it ends.
    expect(await reconcileResult()).toMatchObject({
      settled: expect.toSatisfy((settled: number) => settled >= 1),
      unreachable: 0,
    });
  });

  // Last: it stops the second server.
  it("a server told to stop (a deploy) ends its shoppers' open streams cleanly at the signal, and the page's next read is served by the other server", async () => {
    const order = await orderWithPixCode("deploy@example.com");
    const sessionId = encodeURIComponent(order.payments[0].metadata.public.sessionId);
    const stream = await fetch(
      `http://127.0.0.1:${secondPort}/store/pix-checkout/sessions/${sessionId}/stream`,
    );
    expect(stream.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const reader = stream.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toMatch(/"status":"pending"/);

    const exited = new Promise((resolve) => secondServer.once("exit", resolve));
    secondServer.kill("SIGTERM");
    // The stream ends cleanly at the signal (cut mid-stream, the read would throw "terminated"
    // once GraphQL's drain gave up on it); the element then reads the session again.
    for (;;) if ((await reader.read()).done) break;
    await exited;

    const read = await fetch(`${store.storeUrl}/store/pix-checkout/sessions/${sessionId}`);
    expect(await read.json()).toMatchObject({ status: "pending" });
  });
});
