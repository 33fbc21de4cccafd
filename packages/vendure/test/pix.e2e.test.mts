// A Vendure store selling by Pix through the plugin, driven as a storefront and an admin drive
// it (the Shop and Admin GraphQL APIs), the payment service played by the sandbox over HTTP.
import { ConfigService, EventBus } from "@vendure/core";
import { E2E_DEFAULT_CHANNEL_TOKEN } from "@vendure/testing";
import type { Sandbox } from "@pix-checkout/sandbox";
import { gql } from "graphql-tag";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { businessDayBefore } from "@pix-checkout/client/bank-days";
import { atSaoPauloHour, nextDay, saoPauloDay, saoPauloHour } from "@pix-checkout/client/books";
import { realDueDay } from "@pix-checkout/client/reminders";
import {
  boletoOrderHeldUntil,
  PixCheckoutReminderEvent,
  PixCheckoutReminders,
  PixCheckoutService,
  reminderWords,
} from "../dist/index.js";
import {
  control,
  ORDER,
  orderByCode,
  orderWithPixCode,
  pay,
  startTestStore,
  WEBHOOK_SECRET,
  withWebhooksLost,
  type TestStore,
} from "./store-under-test.mjs";

let sandbox: Sandbox;
let env: TestStore["env"];
let storeUrl: string;
let store: TestStore;

beforeAll(async () => {
  store = await startTestStore(import.meta.url);
  ({ env, sandbox, storeUrl } = store);
}, 180_000);

afterAll(async () => {
  await store?.close();
});

/** The shopper's page's read of a code (`GET /store/pix-checkout/sessions/:id`). */
function sessionOf(sessionId: string) {
  return fetch(`${storeUrl}/store/pix-checkout/sessions/${encodeURIComponent(sessionId)}`);
}

/**
 * The shopper's stream of a code (`GET …/sessions/:id/stream`), read as the element reads it:
 * `next()` is the next session event's object (keep-alive comments skipped).
 */
async function openStream(sessionId: string) {
  const abort = new AbortController();
  const response = await fetch(
    `${storeUrl}/store/pix-checkout/sessions/${encodeURIComponent(sessionId)}/stream`,
    { signal: abort.signal },
  );
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  const next = async (): Promise<Record<string, unknown>> => {
    for (;;) {
      const end = buffer.indexOf("\n\n");
      if (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = block
          .split("\n")
          .filter((line) => line.startsWith("data: "))
          .map((line) => line.slice(6))
          .join("");
        if (data) return JSON.parse(data) as Record<string, unknown>;
        continue;
      }
      const { value, done } = await reader.read();
      if (done) throw new Error("the stream ended");
      buffer += decoder.decode(value, { stream: true });
    }
  };
  return { response, next, close: () => abort.abort() };
}

const reconcile = () => env.server.app.get(PixCheckoutService).reconcile();

describe("Pix on Vendure", () => {
  it("gives the shopper the order's Pix code, for its whole total, and keeps the order waiting for it", async () => {
    const order = await orderWithPixCode("ana@example.com");
    expect(order.state).toBe("ArrangingPayment");
    expect(order.totalWithTax).toBe(2 * 4990 + 1500);
    const [payment] = order.payments;
    expect(payment).toMatchObject({
      state: "AwaitingPix",
      amount: order.totalWithTax,
      method: "pix",
    });
    expect(payment.metadata.public.copyPaste).toMatch(/^000201/);
    // The shop sees the code, never the plugin's own notes nor the key.
    expect(JSON.stringify(payment.metadata)).not.toContain(sandbox.defaultKey);
    expect(payment.metadata.channelToken).toBeUndefined();

    // What `<pix-checkout session-id>` reads, as on Medusa: the code, never who asked for it.
    const session = await sessionOf(payment.metadata.public.sessionId);
    expect(session.status).toBe(200);
    const body = await session.json();
    expect(body).toMatchObject({
      method: "pix",
      status: "pending",
      amount: order.totalWithTax,
      currency: "BRL",
      pix: { copy_paste: payment.metadata.public.copyPaste },
    });
    expect(JSON.stringify(body)).not.toMatch(/ana@example\.com|Souza|Paulista/);
    // A storefront on another origin may read it (the element sends its key header).
    const preflight = await fetch(
      `${storeUrl}/store/pix-checkout/sessions/${encodeURIComponent(payment.metadata.public.sessionId)}`,
      {
        method: "OPTIONS",
        headers: {
          origin: "http://127.0.0.1:5173",
          "access-control-request-method": "GET",
          "access-control-request-headers": "x-publishable-api-key",
        },
      },
    );
    expect(preflight.status).toBeLessThan(300);
    expect(["*", "http://127.0.0.1:5173"]).toContain(
      preflight.headers.get("access-control-allow-origin"),
    );
    expect(preflight.headers.get("access-control-allow-headers")).toMatch(/x-publishable-api-key/i);
    // The charge's id alone, or with another MAC, finds nothing, before anything is read.
    expect((await sessionOf(payment.transactionId)).status).toBe(404);
    const forged = `${payment.transactionId}.${"A".repeat(22)}`;
    const refused = await sessionOf(forged);
    expect(refused.status).toBe(404);
    expect(await refused.json()).toMatchObject({ code: "session_not_found" });
  });

  it("settles the order once when its Pix is paid: the webhook asks the service, and a second delivery moves nothing", async () => {
    const order = await orderWithPixCode("bia@example.com");
    const chargeId = order.payments[0].transactionId;
    await pay(chargeId);
    const settled = await orderByCode(order.code);
    expect(settled.state).toBe("PaymentSettled");
    expect(settled.payments.map((p: { state: string }) => p.state)).toEqual(["Settled"]);
    // "Pago" once the order is paid.
    const answer = await sessionOf(order.payments[0].metadata.public.sessionId);
    const session = (await answer.json()) as { pix?: unknown };
    expect(session).toMatchObject({ status: "paid", order: { payment: "paid" } });
    expect(session.pix).toBeUndefined();

    // The same delivery again, as the service retries it.
    const again = await fetch(`${storeUrl}/pix-checkout/webhook?token=${WEBHOOK_SECRET}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        event: "charge.paid",
        data: { uuid: chargeId, amount: order.totalWithTax, status: "paid" },
      }),
    });
    expect(await again.json()).toEqual({ outcome: "duplicate" });
    const after = await orderByCode(order.code);
    const settledEntries = after.history.items.filter(
      (entry: { type: string; data: { to?: string } }) =>
        entry.type === "ORDER_PAYMENT_TRANSITION" && entry.data.to === "Settled",
    );
    expect(settledEntries).toHaveLength(1);
  });

  it("streams the shopper's session: the code at once, then 'paid' with the order paid the moment the webhook settles it", async () => {
    const order = await orderWithPixCode("sara@example.com");
    const payment = order.payments[0];
    const stream = await openStream(payment.metadata.public.sessionId);
    try {
      expect(stream.response.status).toBe(200);
      expect(stream.response.headers.get("content-type")).toMatch(/^text\/event-stream/);
      expect(await stream.next()).toMatchObject({
        status: "pending",
        amount: order.totalWithTax,
        pix: { copy_paste: payment.metadata.public.copyPaste },
      });
      await pay(payment.transactionId);
      expect(await stream.next()).toMatchObject({ status: "paid", order: { payment: "paid" } });
    } finally {
      stream.close();
    }
    // An id that is not this store's opens nothing.
    const refused = await openStream(`${payment.transactionId}.${"A".repeat(22)}`).catch(
      () => undefined,
    );
    expect(refused?.response.status).toBe(404);
    refused?.close();
  });

  it("streams a replaced code's news: superseded when the shopper lets it go, then refund_due when the bank pays it anyway", async () => {
    const order = await orderWithPixCode("tania@example.com");
    const first = order.payments[0];
    const stream = await openStream(first.metadata.public.sessionId);
    try {
      expect((await stream.next()).status).toBe("pending");
      expect((await replaceCode()).outcome).toBe("replaced");
      expect(await stream.next()).toMatchObject({ status: "superseded", replaced_by: null });
      const second = await addPixCode([first.transactionId]);
      expect(await stream.next()).toMatchObject({
        status: "superseded",
        replaced_by: expect.stringMatching(new RegExp(`^${second.transactionId}\\.`)),
      });
      // Paid anyway: held with no state moved, so only the plugin's own news says it.
      await pay(first.transactionId);
      expect(await stream.next()).toMatchObject({
        status: "refund_due",
        refund: { reason: "paid_replaced", amount: order.totalWithTax },
      });
    } finally {
      stream.close();
    }
  });

  it("moves nothing on a forged webhook: a wrong token is refused, and a right token's claim of a payment the service has not seen changes no order", async () => {
    const order = await orderWithPixCode("carla@example.com");
    const chargeId = order.payments[0].transactionId;
    const forged = {
      event: "charge.paid",
      data: { uuid: chargeId, status: "paid", amount: order.totalWithTax },
    };
    const wrong = await fetch(`${storeUrl}/pix-checkout/webhook?token=not-the-token-at-all`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(forged),
    });
    expect(wrong.status).toBe(401);
    const claimed = await fetch(`${storeUrl}/pix-checkout/webhook?token=${WEBHOOK_SECRET}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(forged),
    });
    expect(await claimed.json()).toEqual({ outcome: "not_paid" });
    const still = await orderByCode(order.code);
    expect(still.state).toBe("ArrangingPayment");
    expect(still.payments.map((p: { state: string }) => p.state)).toEqual(["AwaitingPix"]);
  });

  it("settles an order whose webhook was lost at reconciliation's next pass, once", async () => {
    const order = await orderWithPixCode("dora@example.com");
    const chargeId = order.payments[0].transactionId;
    await withWebhooksLost(() => pay(chargeId));
    expect((await orderByCode(order.code)).state).toBe("ArrangingPayment");

    const report = await reconcile();
    expect(report).toMatchObject({ settled: 1, unreachable: 0 });
    const settled = await orderByCode(order.code);
    expect(settled.state).toBe("PaymentSettled");
    // The next pass finds nothing left to do for it.
    expect((await reconcile()).settled).toBe(0);
    // Run every minute by Vendure's scheduler, as one of the config's tasks.
    const tasks = env.server.app.get(ConfigService).schedulerOptions.tasks ?? [];
    expect(tasks.map((task) => task.id)).toContain("pix-checkout-reconcile");
  });

  it("cancels an expired code's payment, keeps the order waiting, and gives the shopper a new code for it", async () => {
    const order = await orderWithPixCode("eva@example.com");
    const first = order.payments[0].transactionId;
    await control(first, "expire");
    const waiting = await orderByCode(order.code);
    expect(waiting.state).toBe("ArrangingPayment");
    expect(waiting.payments.map((p: { state: string }) => p.state)).toEqual(["Cancelled"]);

    const { addPaymentToOrder: renewed } = await env.shopClient.query(gql`
      mutation {
        addPaymentToOrder(input: { method: "pix", metadata: {} }) {
          ... on Order {
            payments {
              state
              transactionId
            }
          }
        }
      }
    `);
    const fresh = renewed.payments.find((p: { state: string }) => p.state === "AwaitingPix");
    expect(fresh.transactionId).not.toBe(first);
    await pay(fresh.transactionId);
    expect((await orderByCode(order.code)).state).toBe("PaymentSettled");
  });

  it("a second code while the first waits is refused, in Portuguese, and makes no charge", async () => {
    const order = await orderWithPixCode("fabi@example.com");
    const before = await chargesAtService();
    const { addPaymentToOrder } = await env.shopClient.query(gql`
      mutation {
        addPaymentToOrder(input: { method: "pix", metadata: {} }) {
          ... on ErrorResult {
            errorCode
          }
          ... on PaymentDeclinedError {
            paymentErrorMessage
          }
        }
      }
    `);
    expect(addPaymentToOrder.errorCode).toBe("PAYMENT_DECLINED_ERROR");
    expect(addPaymentToOrder.paymentErrorMessage).toMatch(/já tem um código Pix aguardando/);
    expect(await chargesAtService()).toBe(before);
    expect((await orderByCode(order.code)).state).toBe("ArrangingPayment");
  });

  it("an order that grew after its code is paid by that code and a second one for the difference, each settled once", async () => {
    const order = await orderWithPixCode("gabi@example.com");
    const firstCode = order.payments[0].transactionId;
    await changeQuantity(3);
    const second = await addPixCode([firstCode]);
    expect(second.amount).toBe(4990);
    await pay(firstCode);
    const halfway = await orderByCode(order.code);
    expect(halfway.state).toBe("ArrangingPayment");
    await pay(second.transactionId);
    const paid = await orderByCode(order.code);
    expect(paid.state).toBe("PaymentSettled");
    expect(paid.totalWithTax).toBe(3 * 4990 + 1500);
    expect(
      paid.payments
        .map((p: { amount: number; state: string }) => [p.amount, p.state])
        // The largest first: the payments list has no order of its own.
        .sort((a: [number], b: [number]) => b[0] - a[0]),
    ).toEqual([
      [2 * 4990 + 1500, "Settled"],
      [4990, "Settled"],
    ]);
  });

  it("a code paid more than it asked, for an order that grew after it, past what the order costs now: all of it held and listed, the order still waiting, never PaymentSettled on money owed back", async () => {
    const order = await orderWithPixCode("ivone@example.com");
    const firstCode = order.payments[0].transactionId;
    await changeQuantity(3);
    // Paid R$ 170,00 for a code of R$ 114,80, for an order now of R$ 164,70.
    const changed = await fetch(`${sandbox.url}/__sandbox/transactions/${firstCode}/amount`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ amount: 17_000 }),
    });
    expect(changed.status).toBe(200);
    await pay(firstCode);
    const after = await orderByCode(order.code);
    expect(after.state).toBe("ArrangingPayment");
    expect(after.payments.map((p: { state: string }) => p.state)).toEqual(["Declined"]);
    expect(await heldPayments()).toContainEqual(
      expect.objectContaining({ orderCode: order.code, chargeId: firstCode, amount: 17_000 }),
    );
    // A new code asks the whole of what the order costs now, and pays it.
    const fresh = await addPixCode([firstCode]);
    expect(fresh.amount).toBe(3 * 4990 + 1500);
    await pay(fresh.transactionId);
    expect((await orderByCode(order.code)).state).toBe("PaymentSettled");
  });

  it("a code paid with another amount settles nothing: declined for its order, listed for the merchant with why; a new code pays the order", async () => {
    const order = await orderWithPixCode("hana@example.com");
    const code = order.payments[0].transactionId;
    const changed = await fetch(`${sandbox.url}/__sandbox/transactions/${code}/amount`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ amount: 9000 }),
    });
    expect(changed.status).toBe(200);
    await pay(code);
    const after = await orderByCode(order.code);
    expect(after.state).toBe("ArrangingPayment");
    expect(after.payments.map((p: { state: string }) => p.state)).toEqual(["Declined"]);
    expect(await heldPayments()).toContainEqual(
      expect.objectContaining({
        orderCode: order.code,
        chargeId: code,
        // What arrived is what goes back, by Pix for 90 days.
        amount: 9000,
        why: expect.stringMatching(/^o Pix pago é de R\$\s90,00 e o código pedia R\$\s114,80$/),
        devolucao: { deadline: saoPauloDayPlus(new Date(), 90), daysLeft: 90, state: "ok" },
      }),
    );
    // The shopper's page: short of the code, waiting for the store's decision.
    const shown = await (await sessionOf(order.payments[0].metadata.public.sessionId)).json();
    expect(shown).toMatchObject({ status: "held", received: { amount: 9000 } });
    // Declined, it covers nothing of the order: a new code asks the whole total.
    const fresh = await addPixCode([code]);
    expect(fresh.amount).toBe(order.totalWithTax);
    await pay(fresh.transactionId);
    expect((await orderByCode(order.code)).state).toBe("PaymentSettled");
  });

  it("a code paid more than it asked settles its order once: Vendure's payment is what the bank paid, the excess a refund owed (Pending) and listed; the shopper's page says 'pago' and what comes back", async () => {
    const order = await orderWithPixCode("olga@example.com");
    const payment = order.payments[0];
    const code = payment.transactionId;
    const asked: number = payment.amount;
    const received = asked + 520;
    const changed = await fetch(`${sandbox.url}/__sandbox/transactions/${code}/amount`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ amount: received }),
    });
    expect(changed.status).toBe(200);
    await pay(code);
    // The delivery again, as the service retries it: nothing more is owed.
    const again = await fetch(`${storeUrl}/pix-checkout/webhook?token=${WEBHOOK_SECRET}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        event: "charge.paid",
        data: { uuid: code, amount: received, status: "paid" },
      }),
    });
    expect(await again.json()).toEqual({ outcome: "duplicate" });

    const after = await orderByCode(order.code);
    expect(after.state).toBe("PaymentSettled");
    expect(
      after.payments.map((p: { state: string; amount: number }) => [p.state, p.amount]),
    ).toEqual([["Settled", received]]);
    expect(await refundsOf(order.id)).toEqual([
      {
        total: 520,
        state: "Pending",
        transactionId: null,
        reason: expect.stringMatching(
          /^Pix pago a mais: R\$\s5,20 acima dos R\$\s114,80 que o código pedia$/,
        ),
      },
    ]);
    const lastDay = saoPauloDayPlus(new Date(), 90);
    expect(
      (await refundsDue()).filter(
        (refund: { orderCode: string }) => refund.orderCode === order.code,
      ),
    ).toEqual([
      expect.objectContaining({
        amount: 520,
        chargeId: code,
        devolucao: { deadline: lastDay, daysLeft: 90, state: "ok" },
      }),
    ]);
    const [story] = await orderCodes(order.id);
    expect(story).toMatchObject({
      became: "captured",
      asked,
      received,
      captured: asked,
      owedBack: 520,
      returned: 0,
    });
    // Every cent the bank paid is somewhere: paying the order, or owed back.
    expect(story.received).toBe(story.captured + story.owedBack + story.returned);
    // The shopper: paid, the order paid, and the excess the store gives back, with why.
    const shown = await (await sessionOf(payment.metadata.public.sessionId)).json();
    expect(shown).toMatchObject({
      status: "paid",
      amount: asked,
      order: { payment: "paid" },
      refund: { amount: 520, reason: "overpaid" },
    });
  });

  it("shows the merchant each code of an order and where its money went; a held code's return, recorded with the devolução's id, leaves the list and enters the books, once, and only in its channel", async () => {
    const order = await orderWithPixCode("helena@example.com");
    const [first] = order.payments;
    await fetch(`${sandbox.url}/__sandbox/transactions/${first.transactionId}/amount`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ amount: 9000 }),
    });
    await pay(first.transactionId);
    const fresh = await addPixCode([first.transactionId]);
    await pay(fresh.transactionId);
    expect((await orderByCode(order.code)).state).toBe("PaymentSettled");
    const held = (await heldPayments()).find(
      (entry: { chargeId: string }) => entry.chargeId === first.transactionId,
    );
    const lastDay = saoPauloDayPlus(new Date(), 90);

    // Oldest first: the code paid short, held and owed back whole; the new one paying it all.
    const codes = await orderCodes(order.id);
    expect(codes).toEqual([
      {
        paymentId: first.id,
        method: "pix",
        chargeId: first.transactionId,
        createdAt: expect.any(String),
        asked: order.totalWithTax,
        received: 9000,
        captured: 0,
        owedBack: 9000,
        returned: 0,
        became: "held",
        words: expect.stringContaining(held.why),
        devolucao: { deadline: lastDay, daysLeft: 90, state: "ok" },
      },
      {
        paymentId: expect.anything(),
        method: "pix",
        chargeId: fresh.transactionId,
        createdAt: expect.any(String),
        asked: order.totalWithTax,
        received: order.totalWithTax,
        captured: order.totalWithTax,
        owedBack: 0,
        returned: 0,
        became: "captured",
        words: expect.stringMatching(/^Pago: R\$\s114,80 pagam o pedido\.$/),
        devolucao: null,
      },
    ]);
    for (const code of codes) {
      expect(code.received).toBe(code.captured + code.owedBack + code.returned);
    }

    // Another channel's admin sees none of it, and records nothing on it.
    const channel = await secondChannel();
    env.adminClient.setChannelToken(channel.token);
    try {
      expect(await orderCodes(order.id)).toEqual([]);
      expect(await refusalOf(recordHeldReturn(first.id, "E2E-DEV-ALHEIA"))).toMatchObject({
        refusal: "not_found",
      });
    } finally {
      env.adminClient.setChannelToken(E2E_DEFAULT_CHANNEL_TOKEN);
    }
    // Nothing to record without the devolução's id, nor for a code that paid the order.
    expect(await refusalOf(recordHeldReturn(first.id, "   "))).toMatchObject({
      refusal: "reference_required",
      message: expect.stringMatching(/^Informe o identificador da devolução/),
    });
    expect(await refusalOf(recordHeldReturn(first.id, "E".repeat(121)))).toMatchObject({
      refusal: "reference_required",
    });
    expect(await refusalOf(recordHeldReturn(codes[1].paymentId, "E2E-DEV-2"))).toMatchObject({
      refusal: "not_held",
    });

    // She returned the R$ 90,00 at the service's dashboard, and records it with its id; a
    // second click at the same moment waits for the order's lock, then finds it recorded.
    const both = await Promise.all([
      refusalOf(recordHeldReturn(first.id, "  E2E-DEV-1  ")),
      refusalOf(recordHeldReturn(first.id, "E2E-DEV-1")),
    ]);
    expect(both.map((answer) => answer.refusal ?? "recorded").sort()).toEqual([
      "already_returned",
      "recorded",
    ]);
    const recorded = both.find((answer) => "answered" in answer)?.answered;
    expect(recorded).toMatchObject({
      paymentId: first.id,
      orderCode: order.code,
      amount: 9000,
      chargeId: first.transactionId,
      devolucao: null,
    });
    expect(
      (await heldPayments()).map((entry: { chargeId: string }) => entry.chargeId),
    ).not.toContain(first.transactionId);
    const [returned] = await orderCodes(order.id);
    expect(returned).toMatchObject({
      became: "held",
      received: 9000,
      captured: 0,
      owedBack: 0,
      returned: 9000,
      words: expect.stringContaining("(devolução E2E-DEV-1)"),
      devolucao: null,
    });
    expect(await refusalOf(recordHeldReturn(first.id, "E2E-DEV-3"))).toMatchObject({
      refusal: "already_returned",
      message: expect.stringContaining("E2E-DEV-1"),
    });
    // Her page: the store decided, the money goes back; no longer "the store will check".
    const page = await (await sessionOf(first.metadata.public.sessionId)).json();
    expect(page).toMatchObject({ status: "refund_due", refund: { amount: 9000, reason: "other" } });

    // The books: returned, with the devolução's id, in the "Devolvido" column.
    const today = new Date().toLocaleDateString("en-CA", { timeZone: "America/Sao_Paulo" });
    const books = await (
      await env.adminClient.fetch(
        `${storeUrl}/admin/pix-checkout/books.csv?from=${today}&to=${today}`,
      )
    ).text();
    const returnedRows = books
      .split("\r\n")
      .map((line) => line.split(";"))
      .filter((row) => row[1] === order.code && row[4] === "Devolução feita");
    expect(returnedRows.map((row) => row.slice(5))).toEqual([
      ["", "", "", "", "90,00", held.why, "E2E-DEV-1"],
    ]);
  });

  it("acts on another channel's order in that channel only: its code settles it there, and that channel's admin lists its held codes and no other channel's", async () => {
    const channel = await secondChannel();
    const foreignHeld = (await heldPayments()).map((held: { chargeId: string }) => held.chargeId);
    expect(foreignHeld.length).toBeGreaterThan(0);
    env.shopClient.setChannelToken(channel.token);
    env.adminClient.setChannelToken(channel.token);
    try {
      const paid = await orderWithPixCode("iris@example.com");
      await pay(paid.payments[0].transactionId);
      expect((await orderByCode(paid.code)).state).toBe("PaymentSettled");

      const held = await orderWithPixCode("julia@example.com");
      const heldCode = held.payments[0].transactionId;
      await fetch(`${sandbox.url}/__sandbox/transactions/${heldCode}/amount`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ amount: 9000 }),
      });
      await pay(heldCode);
      const listed = (await heldPayments()).map((entry: { chargeId: string }) => entry.chargeId);
      expect(listed).toEqual([heldCode]);
    } finally {
      env.shopClient.setChannelToken(E2E_DEFAULT_CHANNEL_TOKEN);
      env.adminClient.setChannelToken(E2E_DEFAULT_CHANNEL_TOKEN);
    }
  });

  it("two codes of one order waiting at once and paid at the same moment: decided one at a time under the order's lock, never more than the order costs, the rest owed back and listed", async () => {
    const order = await orderWithPixCode("paula@example.com");
    const first = order.payments[0].transactionId;
    await changeQuantity(3);
    const second = await addPixCode([first]);
    // Back to two shirts: the first code pays it all, and the second is now too much.
    await changeQuantity(2);
    await withWebhooksLost(async () => {
      await pay(first);
      await pay(second.transactionId);
    });
    const service = env.server.app.get(PixCheckoutService);
    const outcomes = await Promise.all([
      service.settleCharge(first),
      service.settleCharge(second.transactionId),
    ]);
    // Whichever is decided first, the order takes what it costs, to the cent, and the rest is
    // owed back and listed: the other code whole (held, paid_twice) when the first paid it all,
    // or the first code's part beyond what the second left to pay (a refund owed,
    // amount_lowered), as on Medusa (@pix-checkout/client/settlement).
    expect(outcomes).toContain("settled");
    const after = await orderByCode(order.code);
    expect(after.state).toBe("PaymentSettled");
    const paid = after.payments
      .filter((p: { state: string }) => p.state === "Settled")
      .reduce((sum: number, p: { amount: number }) => sum + p.amount, 0);
    const owedOnOrder = (await refundsOf(order.id)).reduce(
      (sum: number, refund: { total: number }) => sum + refund.total,
      0,
    );
    expect(paid - owedOnOrder).toBe(after.totalWithTax);
    const held = (await heldPayments()).filter(
      (entry: { orderCode: string }) => entry.orderCode === order.code,
    );
    const due = (await refundsDue()).filter(
      (refund: { orderCode: string }) => refund.orderCode === order.code,
    );
    expect(held.length + due.length).toBe(1);
    const owed = [...held, ...due].reduce(
      (sum: number, entry: { amount: number }) => sum + entry.amount,
      0,
    );
    expect(owed).toBe(
      after.payments.reduce((sum: number, p: { amount: number }) => sum + p.amount, 0) -
        after.totalWithTax,
    );
  });

  describe("an order modified after payment", () => {
    it("costing more: the admin's Pix asks the difference, is given again while it waits, and settles the order once when paid", async () => {
      const order = await orderWithPixCode("quezia@example.com");
      await pay(order.payments[0].transactionId);
      expect((await orderByCode(order.code)).state).toBe("PaymentSettled");
      // Nothing is owed yet: no code, and the merchant is told why.
      await expect(collectDifference(order.id)).rejects.toThrow(
        /só um pedido alterado que aguarda pagamento adicional/,
      );

      const total = await modifyOrder(order.id, 3, "ArrangingAdditionalPayment");
      expect(total).toBe(3 * 4990 + 1500);
      const { pixCheckoutCollectDifference: code } = await collectDifference(order.id);
      expect(code).toMatchObject({ orderCode: order.code, amount: 4990, created: true });
      expect(code.copyPaste).toMatch(/^000201/);
      const again = (await collectDifference(order.id)).pixCheckoutCollectDifference;
      expect(again).toMatchObject({ sessionId: code.sessionId, created: false });
      // The shopper's page (the link the merchant sends) shows it, for the difference only.
      expect(await (await sessionOf(code.sessionId)).json()).toMatchObject({
        status: "pending",
        amount: 4990,
        pix: { copy_paste: code.copyPaste },
      });

      const waiting = (await orderByCode(order.code)).payments.find(
        (p: { state: string }) => p.state === "AwaitingPix",
      );
      await pay(waiting.transactionId);
      const paid = await orderByCode(order.code);
      expect(paid.state).toBe("PaymentSettled");
      expect(moneyOf(paid)).toEqual({ settled: total, held: 0 });
      expect(await (await sessionOf(code.sessionId)).json()).toMatchObject({
        status: "paid",
        order: { payment: "paid" },
      });
    });

    it("costing less: the excess is a refund owed (Pending, never marked done by the plugin), listed for the merchant until she records the devolução", async () => {
      const order = await orderWithPixCode("rita@example.com");
      const payment = order.payments[0];
      await pay(payment.transactionId);
      const total = await modifyOrder(order.id, 1, "PaymentSettled", [
        { paymentId: payment.id, amount: 4990, reason: "Uma camisa a menos" },
      ]);
      expect(total).toBe(4990 + 1500);
      const due = (await refundsDue()).filter(
        (refund: { orderCode: string }) => refund.orderCode === order.code,
      );
      const lastDay = saoPauloDayPlus(new Date(), 90);
      expect(due).toEqual([
        {
          refundId: expect.anything(),
          orderCode: order.code,
          amount: 4990,
          chargeId: payment.transactionId,
          reason: "Uma camisa a menos",
          instructions: expect.stringMatching(
            new RegExp(
              `^Devolva R\\$\\s49,90 do pedido ${order.code} ao pagador pelo painel do serviço de pagamento \\(cobrança ${payment.transactionId}\\).* Pelo Pix, até ${lastDay.split("-").reverse().join("/")} \\(prazo de 90 dias do pagamento\\)\\.$`,
            ),
          ),
          // Paid today: a Pix devolução may go back for 90 days (Regulamento Pix).
          devolucao: { deadline: lastDay, daysLeft: 90, state: "ok" },
        },
      ]);
      // The order's code: what pays the order now, and what is owed back, under the same clock.
      expect(await orderCodes(order.id)).toEqual([
        expect.objectContaining({
          chargeId: payment.transactionId,
          became: "captured",
          asked: 2 * 4990 + 1500,
          received: 2 * 4990 + 1500,
          captured: total,
          owedBack: 4990,
          returned: 0,
          words: expect.stringMatching(/R\$\s49,90 a devolver ao pagador \(reembolso pendente\)/),
          devolucao: { deadline: lastDay, daysLeft: 90, state: "ok" },
        }),
      ]);
      // She returned it at the service's dashboard, and records it with its id.
      const { settleRefund } = await env.adminClient.query(
        gql`
          mutation ($id: ID!) {
            settleRefund(input: { id: $id, transactionId: "devolucao-e2e-1" }) {
              ... on Refund {
                state
              }
            }
          }
        `,
        { id: due[0].refundId },
      );
      expect(settleRefund).toEqual({ state: "Settled" });
      expect(await orderCodes(order.id)).toEqual([
        expect.objectContaining({ captured: total, owedBack: 0, returned: 4990, devolucao: null }),
      ]);
      expect(
        (await refundsDue()).filter(
          (refund: { orderCode: string }) => refund.orderCode === order.code,
        ),
      ).toEqual([]);
    });
  });

  describe("MED 2.0: a payer's bank blocks money of a paid Pix, and the institution decides", () => {
    it("a Pix paid: part of it blocked (one case at a time, under the order's lock), contested and listed; returned in part as a Settled refund on Vendure's order; a boleto, too much, or another channel's admin refused", async () => {
      const order = await orderWithPixCode("medusa-nao@example.com");
      const [payment] = order.payments;
      await pay(payment.transactionId);
      expect((await orderByCode(order.code)).state).toBe("PaymentSettled");
      const deadline = saoPauloDayPlus(new Date(), 10);

      // More than the Pix holds, or no MED at all, is refused before anything is kept.
      expect(
        await refusalOf(recordMed(payment.id, "MED-E2E-1", deadline, order.totalWithTax + 1)),
      ).toMatchObject({ refusal: "med_amount_exceeds_captured" });
      expect(await refusalOf(recordMed(payment.id, "  ", deadline, 3000))).toMatchObject({
        refusal: "invalid_med",
      });
      expect(await refusalOf(recordMed(payment.id, "MED-E2E-1", "2026-02-30", 3000))).toMatchObject(
        { refusal: "invalid_med" },
      );
      // Another channel's admin finds no such payment, and lists none of its cases.
      const channel = await secondChannel();
      env.adminClient.setChannelToken(channel.token);
      try {
        expect(await refusalOf(recordMed(payment.id, "MED-ALHEIO", deadline, 3000))).toMatchObject({
          refusal: "not_found",
        });
      } finally {
        env.adminClient.setChannelToken(E2E_DEFAULT_CHANNEL_TOKEN);
      }

      // Two clicks of "Registrar MED" at the same moment: one case, the other refused.
      const both = await Promise.all([
        refusalOf(recordMed(payment.id, "MED-E2E-1", deadline, 3000)),
        refusalOf(recordMed(payment.id, "MED-E2E-1B", deadline, 2000)),
      ]);
      expect(both.map((answer) => answer.refusal ?? "recorded").sort()).toEqual([
        "med_already_open",
        "recorded",
      ]);
      const [open] = await medCodes(order.id);
      const protocol = open.med.protocol as string;
      const blocked = protocol === "MED-E2E-1" ? 3000 : 2000;
      expect(open).toMatchObject({
        paymentId: payment.id,
        received: order.totalWithTax,
        captured: order.totalWithTax - blocked,
        contested: blocked,
        owedBack: 0,
        returned: 0,
        words: expect.stringContaining(
          `MED aberto (protocolo ${protocol}): R$ ${blocked / 100},00 bloqueados até ${deadline.split("-").reverse().join("/")}.`,
        ),
        med: {
          protocol,
          deadline,
          blocked,
          blockedOwed: 0,
          contested: blocked,
          state: "open",
          returned: null,
          decidedAt: null,
          deadlineState: "ok",
        },
      });
      expectAddsUp(open);
      expect(await openMeds(channel.token)).not.toContainEqual(
        expect.objectContaining({ orderCode: order.code }),
      );
      expect(await openMeds()).toContainEqual({
        paymentId: payment.id,
        orderId: order.id,
        orderCode: order.code,
        chargeId: payment.transactionId,
        med: expect.objectContaining({ protocol, blocked, state: "open" }),
      });
      expect(await refusalOf(recordMed(payment.id, "MED-E2E-2", deadline, 1000))).toMatchObject({
        refusal: "med_already_open",
        message: expect.stringContaining(protocol),
      });

      // The institution returned R$ 15,00 of it to the payer: a refund on Vendure's order,
      // Settled with the MED's protocol; the rest is income again.
      expect(await refusalOf(recordMedOutcome(payment.id, "returned", blocked + 1))).toMatchObject({
        refusal: "invalid_med",
      });
      const decided = await recordMedOutcome(payment.id, "returned", 1500);
      expect(decided).toMatchObject({
        captured: order.totalWithTax - 1500,
        contested: 0,
        owedBack: 0,
        returned: 1500,
        words: expect.stringContaining(`Devolvido pelo MED: R$ 15,00 dos`),
        med: { protocol, state: "returned", returned: 1500, deadlineState: null },
      });
      expectAddsUp(decided);
      expect(await refundsOf(order.id)).toEqual([
        {
          total: 1500,
          state: "Settled",
          transactionId: `MED ${protocol}`,
          reason: `Devolvido pelo MED (protocolo ${protocol})`,
        },
      ]);
      expect(await openMeds()).not.toContainEqual(
        expect.objectContaining({ orderCode: order.code }),
      );
      expect(await refusalOf(recordMedOutcome(payment.id, "kept"))).toMatchObject({
        refusal: "med_not_open",
      });

      // The books: the MED's return, with its protocol, in the "Devolvido" column.
      const today = new Date().toLocaleDateString("en-CA", { timeZone: "America/Sao_Paulo" });
      const books = await (
        await env.adminClient.fetch(
          `${storeUrl}/admin/pix-checkout/books.csv?from=${today}&to=${today}`,
        )
      ).text();
      expect(
        books
          .split("\r\n")
          .map((line) => line.split(";"))
          .filter((row) => row[1] === order.code && row[4] === "Devolução feita")
          .map((row) => [row[9], row[11]]),
      ).toEqual([["15,00", `MED ${protocol}`]]);

      // A boleto has no MED.
      const boleto = await orderWithPixCode("med-boleto@example.com", "boleto", {
        document: "529.982.247-25",
        neighborhood: "Bela Vista",
        number: "1000",
        phone: "(11) 98765-4321",
      });
      await pay(boleto.payments[0].transactionId);
      expect(
        await refusalOf(recordMed(boleto.payments[0].id, "MED-E2E-3", deadline, 1000)),
      ).toMatchObject({
        refusal: "med_not_contestable",
        message: expect.stringMatching(/^Boleto não tem MED/),
      });
    });

    it("an order made cheaper, its refund owed: a MED blocks that refund first (off the refunds to make while open), then captured money; returned in part, the refund is settled for that part and the rest stays owed", async () => {
      const order = await orderWithPixCode("med-refund@example.com");
      const [payment] = order.payments;
      await pay(payment.transactionId);
      await modifyOrder(order.id, 1, "PaymentSettled", [
        { paymentId: payment.id, amount: 4990, reason: "Uma camisa a menos" },
      ]);
      const due = async () =>
        (await refundsDue()).filter(
          (refund: { orderCode: string }) => refund.orderCode === order.code,
        );
      expect(await due()).toMatchObject([{ amount: 4990 }]);

      const deadline = saoPauloDayPlus(new Date(), 10);
      const open = await recordMed(payment.id, "MED-E2E-R1", deadline, 6000);
      expect(open).toMatchObject({
        received: order.totalWithTax,
        captured: order.totalWithTax - 6000,
        contested: 1010,
        owedBack: 4990,
        devolucao: null,
        med: { blockedOwed: 4990, contested: 1010 },
      });
      expectAddsUp(open);
      expect(await due()).toEqual([]);

      // R$ 30,00 returned: all of it from the owed R$ 49,90; the contested R$ 10,10 is income again.
      const decided = await recordMedOutcome(payment.id, "returned", 3000);
      expect(decided).toMatchObject({
        captured: order.totalWithTax - 4990,
        contested: 0,
        owedBack: 1990,
        returned: 3000,
        devolucao: { state: "ok" },
      });
      expectAddsUp(decided);
      expect(await due()).toMatchObject([{ amount: 1990, reason: "Uma camisa a menos" }]);
      expect(
        (await refundsOf(order.id)).map((refund: { total: number; state: string }) => [
          refund.state,
          refund.total,
        ]),
      ).toEqual(
        expect.arrayContaining([
          ["Pending", 1990],
          ["Settled", 3000],
        ]),
      );
    });

    it("a code paid short, held: a MED blocking its owed money takes it off the held list while open (no devolução asked), and 'Mantido' puts it back; a later MED returning part of it is that part's return", async () => {
      const order = await orderWithPixCode("med-held@example.com");
      const [first] = order.payments;
      await fetch(`${sandbox.url}/__sandbox/transactions/${first.transactionId}/amount`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ amount: 9000 }),
      });
      await pay(first.transactionId);
      const listed = async () =>
        (await heldPayments()).filter(
          (held: { chargeId: string }) => held.chargeId === first.transactionId,
        );
      expect(await listed()).toMatchObject([{ amount: 9000 }]);
      const deadline = saoPauloDayPlus(new Date(), 10);

      expect(await refusalOf(recordMed(first.id, "MED-E2E-H1", deadline, 9001))).toMatchObject({
        refusal: "med_amount_exceeds_captured",
      });
      const blocked = await recordMed(first.id, "MED-E2E-H1", deadline, 9000);
      expect(blocked).toMatchObject({
        became: "held",
        received: 9000,
        captured: 0,
        contested: 0,
        owedBack: 9000,
        devolucao: null,
        med: { blocked: 9000, blockedOwed: 9000, contested: 0, state: "open" },
      });
      expectAddsUp(blocked);
      expect(await listed()).toEqual([]);
      // Nothing of it is the merchant's to return while the case is open.
      expect(await refusalOf(recordHeldReturn(first.id, "E2E-DEV-MED"))).toMatchObject({
        refusal: "med_open",
      });

      const kept = await recordMedOutcome(first.id, "kept");
      expect(kept).toMatchObject({
        owedBack: 9000,
        devolucao: { state: "ok" },
        med: { state: "kept", returned: null },
        words: expect.stringContaining("MED mantido (protocolo MED-E2E-H1)"),
      });
      expect(await listed()).toMatchObject([{ amount: 9000 }]);

      // A second case blocks R$ 40,00 and the institution returns it: that part is returned,
      // the rest still the merchant's to return.
      await recordMed(first.id, "MED-E2E-H2", deadline, 4000);
      expect(await listed()).toMatchObject([{ amount: 5000 }]);
      const returned = await recordMedOutcome(first.id, "returned");
      expect(returned).toMatchObject({ owedBack: 5000, returned: 4000, med: { returned: 4000 } });
      expectAddsUp(returned);
      expect(await listed()).toMatchObject([{ amount: 5000 }]);
    });
  });

  describe("boleto", () => {
    const payer = {
      document: "529.982.247-25",
      neighborhood: "Bela Vista",
      number: "1000",
      phone: "(11) 98765-4321",
    };

    it("a shopper who moves from Pix to boleto: the Pix is let go (its page names the boleto), the boleto places the order and settles it once; the old Pix paid anyway is owed back and listed", async () => {
      const order = await orderWithPixCode("mara@example.com");
      const pix = order.payments[0];
      expect(await replaceCode()).toEqual({
        outcome: "replaced",
        message: expect.stringMatching(/^Pronto: o código Pix anterior foi cancelado/),
      });
      const placed = await addBoleto(payer);
      expect(placed.state, JSON.stringify(placed)).toBe("PaymentAuthorized");
      const boleto = placed.payments.find((p: { method: string }) => p.method === "boleto");
      expect(boleto.amount).toBe(order.totalWithTax);
      const boletoSession = boleto.metadata.public.sessionId;
      const old = (await (await sessionOf(pix.metadata.public.sessionId)).json()) as {
        pix?: unknown;
      };
      expect(old).toMatchObject({ status: "superseded", replaced_by: boletoSession });
      expect(old.pix).toBeUndefined();

      // The bank pays the old Pix anyway, then the boleto.
      await pay(pix.transactionId);
      await pay(boleto.transactionId);
      const after = await orderByCode(order.code);
      expect(after.state).toBe("PaymentSettled");
      expect(moneyOf(after)).toEqual({ settled: order.totalWithTax, held: 1 });
      expect(await heldPayments()).toContainEqual(
        expect.objectContaining({
          orderCode: order.code,
          chargeId: pix.transactionId,
          amount: order.totalWithTax,
          why: "este código foi trocado por outro antes de ser pago",
        }),
      );
      expect(await (await sessionOf(pix.metadata.public.sessionId)).json()).toMatchObject({
        status: "refund_due",
        refund: { amount: order.totalWithTax, reason: "paid_replaced" },
        replaced_by: null,
      });
      expect(await (await sessionOf(boletoSession)).json()).toMatchObject({
        status: "paid",
        order: { payment: "paid" },
      });
    });

    it("a replaced Pix paid while every webhook is lost is found by reconciliation: the new code settles the order, the old one is held and listed, once", async () => {
      const order = await orderWithPixCode("nadia@example.com");
      const first = order.payments[0].transactionId;
      expect((await replaceCode()).outcome).toBe("replaced");
      const second = await addPixCode([first]);
      expect(second.amount).toBe(order.totalWithTax);
      await withWebhooksLost(async () => {
        await pay(first);
        await pay(second.transactionId);
      });
      expect(await reconcile()).toMatchObject({ settled: 1, held: 1, unreachable: 0 });
      const after = await orderByCode(order.code);
      expect(after.state).toBe("PaymentSettled");
      expect(moneyOf(after)).toEqual({ settled: order.totalWithTax, held: 1 });
      expect(await reconcile()).toMatchObject({ settled: 0, held: 0 });
    });

    it("replacing a Pix the bank already paid replaces nothing: the code pays the order, and the shopper is told so", async () => {
      const order = await orderWithPixCode("olivia@example.com");
      const code = order.payments[0].transactionId;
      await withWebhooksLost(() => pay(code));
      expect(await replaceCode()).toEqual({
        outcome: "already_paid",
        message: "Esse código Pix já foi pago: o pedido está sendo concluído com ele.",
      });
      const after = await orderByCode(order.code);
      expect(after.state).toBe("PaymentSettled");
      expect(after.payments.map((p: { state: string }) => p.state)).toEqual(["Settled"]);
      // Nothing is left waiting on her (now placed) order.
      expect((await replaceCode()).outcome).toBe("nothing_waiting");
    });

    it("places the order at once, authorized, with the boleto line for the whole total; the CPF is kept for the nota fiscal and shown masked", async () => {
      const order = await orderWithPixCode("lia@example.com", "boleto", payer);
      expect(order.state, JSON.stringify(order)).toBe("PaymentAuthorized");
      const [payment] = order.payments;
      expect(payment).toMatchObject({
        state: "Authorized",
        amount: order.totalWithTax,
        method: "boleto",
      });
      expect(payment.metadata.public.digitableLine).toMatch(/^\d{47}$/);
      expect(payment.metadata.public.buyerDocument).toBe("*********25");
      // The Shop API never shows the whole CPF; the admin reads it where the nota needs it.
      expect(JSON.stringify(payment.metadata)).not.toContain("52998224725");
      expect(JSON.stringify(payment.metadata)).not.toContain("529.982.247-25");
      const admin = await orderByCode(order.code);
      expect(admin.payments[0].metadata.buyerDocument).toBe("529.982.247-25");

      const answer = await sessionOf(payment.metadata.public.sessionId);
      const session = (await answer.json()) as { boleto: { due_date: string } };
      expect(session).toMatchObject({
        method: "boleto",
        status: "pending",
        boleto: { digitable_line: payment.metadata.public.digitableLine },
      });
      expect(session.boleto.due_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);

      await pay(payment.transactionId);
      const paid = await orderByCode(order.code);
      expect(paid.state).toBe("PaymentSettled");
      expect(paid.payments.map((p: { state: string }) => p.state)).toEqual(["Settled"]);
      const settledEntries = paid.history.items.filter(
        (entry: { type: string; data: { to?: string } }) =>
          entry.type === "ORDER_PAYMENT_TRANSITION" && entry.data.to === "Settled",
      );
      expect(settledEntries).toHaveLength(1);
    });

    it("refuses, in Portuguese and before any charge, a boleto without a document or with a CPF that is not one", async () => {
      const before = await chargesAtService();
      const missing = await orderWithPixCode("mia@example.com", "boleto", {
        neighborhood: "Bela Vista",
        number: "1000",
      });
      expect(missing).toMatchObject({
        errorCode: "PAYMENT_DECLINED_ERROR",
        paymentErrorMessage: "Informe o CPF ou CNPJ de quem paga o boleto.",
      });
      const wrong = await orderWithPixCode("nina@example.com", "boleto", {
        ...payer,
        document: "111.111.111-11",
      });
      expect(wrong).toMatchObject({
        errorCode: "PAYMENT_DECLINED_ERROR",
        paymentErrorMessage: "Confira o CPF ou CNPJ do boleto.",
      });
      expect(await chargesAtService()).toBe(before);
    });

    it("confirmed by the bank inside the grace after the service called it expired: settles its order as on time", async () => {
      const order = await orderWithPixCode("nina@example.com", "boleto", payer);
      const [payment] = order.payments;
      await control(payment.transactionId, "expire");
      // Its due date passed at the service; the order, placed, keeps waiting for the bank.
      expect(await orderByCode(order.code)).toMatchObject({
        state: "PaymentAuthorized",
        payments: [{ state: "Authorized" }],
      });
      await control(payment.transactionId, "pay", { late: true });
      expect(await orderByCode(order.code)).toMatchObject({
        state: "PaymentSettled",
        payments: [{ state: "Settled" }],
      });
    });

    it("is asked about on the shared schedule, not every minute: at 1 minute of age, 1 hour, 6 hours, then every 12 hours; a pass between asks nothing of it", async () => {
      const order = await orderWithPixCode("paula@example.com", "boleto", payer);
      const service = env.server.app.get(PixCheckoutService);
      const madeAt = Date.now();
      const minute = 60_000;
      const hour = 60 * minute;
      const passAt = async (age: number) => {
        await service.reconcile(new Date(madeAt + age));
        return Date.parse((await orderByCode(order.code)).payments[0].metadata.nextCheckAt);
      };
      const about = (at: number, age: number) =>
        expect(Math.abs(at - (madeAt + age))).toBeLessThan(minute);

      about(await passAt(2 * minute), hour);
      about(await passAt(61 * minute), 6 * hour);
      about(await passAt(7 * hour), 19 * hour);
      // Three hours on, it is not due: the pass does not ask (asked, it would be due at 22 h).
      about(await passAt(10 * hour), 19 * hour);
      // Still waiting for the bank, and its order still placed.
      expect(await orderByCode(order.code)).toMatchObject({
        state: "PaymentAuthorized",
        payments: [{ state: "Authorized" }],
      });
    });

    // Last of the boleto tests: a pass at a day past every grace cancels any boleto still unpaid.
    it("unpaid past its due date and grace: reconciliation cancels the order, saying why; the shopper's page says canceled; paid after that, the money is owed back and listed", async () => {
      const order = await orderWithPixCode("olga@example.com", "boleto", payer);
      const [payment] = order.payments;
      const heldUntil = boletoOrderHeldUntil(payment.metadata.public.expiresAt, 3);
      const reconcileAt = (at: Date) => env.server.app.get(PixCheckoutService).reconcile(at);

      // A pass on the grace's last minute changes nothing, even with the service saying expired.
      await control(payment.transactionId, "expire");
      await reconcileAt(new Date(heldUntil.getTime() - 60_000));
      expect((await orderByCode(order.code)).state).toBe("PaymentAuthorized");

      const report = await reconcileAt(new Date(heldUntil.getTime() + 60_000));
      expect(report.overdueOrders).toBeGreaterThanOrEqual(1);
      const canceled = await orderByCode(order.code);
      expect(canceled).toMatchObject({ state: "Cancelled", payments: [{ state: "Cancelled" }] });
      const cancellation = canceled.history.items.find(
        (entry: { type: string }) => entry.type === "ORDER_CANCELLATION",
      );
      expect(cancellation.data.reason).toBe("Boleto não pago até o fim do prazo de compensação");
      const page = (await (await sessionOf(payment.metadata.public.sessionId)).json()) as {
        boleto?: unknown;
      };
      expect(page).toMatchObject({ status: "canceled", order: { payment: "canceled" } });
      expect(page.boleto).toBeUndefined();
      // A second pass finds nothing more to do for it.
      await reconcileAt(new Date(heldUntil.getTime() + 120_000));
      expect((await orderByCode(order.code)).state).toBe("Cancelled");

      // The bank confirms it anyway, and its webhook is lost: its next check (twice a day for
      // five days) finds it. The money pays no order, and is listed to go back.
      await withWebhooksLost(() => control(payment.transactionId, "pay", { late: true }));
      expect((await orderByCode(order.code)).payments[0].metadata.held).toBeUndefined();
      expect(await reconcileAt(new Date(heldUntil.getTime() + 60 * 60_000))).toMatchObject({
        held: 0,
      });
      expect(await reconcileAt(new Date(heldUntil.getTime() + 13 * 60 * 60_000))).toMatchObject({
        held: 1,
      });
      const after = await orderByCode(order.code);
      expect(after.state).toBe("Cancelled");
      expect(after.payments[0].state).toBe("Cancelled");
      expect(after.payments[0].metadata.held).toMatchObject({
        reason: "paid_after_order_canceled",
        receivedCents: order.totalWithTax,
      });
      const held: { orderCode: string; devolucao: unknown }[] = await heldPayments();
      // A boleto has no Pix devolução window: no clock for its money.
      expect(held.find((entry) => entry.orderCode === order.code)?.devolucao).toBeNull();
      const owed = await (await sessionOf(payment.metadata.public.sessionId)).json();
      expect(owed).toMatchObject({
        status: "refund_due",
        refund: { amount: order.totalWithTax, reason: "paid_after_order_canceled" },
      });
    });
  });
});

/** The shopper takes the active order back to its cart, sets its one line's quantity and returns to payment. */
async function changeQuantity(quantity: number) {
  const shop = env.shopClient;
  await shop.query(gql`
    mutation {
      transitionOrderToState(state: "AddingItems") {
        ... on Order {
          id
        }
      }
    }
  `);
  const { activeOrder } = await shop.query(gql`
    {
      activeOrder {
        lines {
          id
        }
      }
    }
  `);
  await shop.query(
    gql`
      mutation ($line: ID!, $quantity: Int!) {
        adjustOrderLine(orderLineId: $line, quantity: $quantity) {
          ... on Order {
            id
          }
        }
      }
    `,
    { line: activeOrder.lines[0].id, quantity },
  );
  await shop.query(gql`
    mutation {
      transitionOrderToState(state: "ArrangingPayment") {
        ... on Order {
          id
        }
      }
    }
  `);
}

/** How many charges the service holds. */
/** The shopper's "another way to pay" (`pixCheckoutReplaceCode`) on her active order. */
async function replaceCode(): Promise<{ outcome: string; message: string }> {
  const { pixCheckoutReplaceCode } = await env.shopClient.query(gql`
    mutation {
      pixCheckoutReplaceCode {
        outcome
        message
      }
    }
  `);
  return pixCheckoutReplaceCode;
}

/** A boleto for the shopper's active order: the order as the Shop API answers. */
async function addBoleto(metadata: Record<string, string>) {
  const { addPaymentToOrder } = await env.shopClient.query(
    gql`
      ${ORDER}
      mutation ($metadata: JSON!) {
        addPaymentToOrder(input: { method: "boleto", metadata: $metadata }) {
          ...PixOrder
          ... on ErrorResult {
            errorCode
            message
          }
        }
      }
    `,
    { metadata },
  );
  return addPaymentToOrder;
}

/** Settled money of an order, in cents, and how many of its payments hold money back. */
function moneyOf(order: { payments: { state: string; amount: number; metadata: unknown }[] }) {
  return {
    settled: order.payments
      .filter((p) => p.state === "Settled")
      .reduce((sum, p) => sum + p.amount, 0),
    held: order.payments.filter((p) => (p.metadata as { held?: unknown } | null)?.held).length,
  };
}

/**
 * The admin's modification of a placed order (Vendure's Modifying → modifyOrder → the state it
 * leaves to): its first line to `quantity`, with the refunds a lower total asks for.
 */
async function modifyOrder(
  orderId: string,
  quantity: number,
  leaveTo: string,
  refunds: { paymentId: string; amount: number; reason: string }[] = [],
) {
  const admin = env.adminClient;
  const to = async (state: string) => {
    const { transitionOrderToState } = await admin.query(
      gql`
        mutation ($id: ID!, $state: String!) {
          transitionOrderToState(id: $id, state: $state) {
            ... on Order {
              state
            }
            ... on OrderStateTransitionError {
              transitionError
            }
          }
        }
      `,
      { id: orderId, state },
    );
    expect(transitionOrderToState, JSON.stringify(transitionOrderToState)).toEqual({ state });
  };
  await to("Modifying");
  const { order } = await admin.query(
    gql`
      query ($id: ID!) {
        order(id: $id) {
          lines {
            id
          }
        }
      }
    `,
    { id: orderId },
  );
  const { modifyOrder: modified } = await admin.query(
    gql`
      mutation ($input: ModifyOrderInput!) {
        modifyOrder(input: $input) {
          ... on Order {
            totalWithTax
          }
          ... on ErrorResult {
            errorCode
            message
          }
        }
      }
    `,
    {
      input: {
        dryRun: false,
        orderId,
        adjustOrderLines: [{ orderLineId: order.lines[0].id, quantity }],
        ...(refunds.length ? { refunds } : {}),
      },
    },
  );
  expect(modified.totalWithTax, JSON.stringify(modified)).toBeDefined();
  await to(leaveTo);
  return modified.totalWithTax as number;
}

/** The admin's Pix for what a modified order owes (`pixCheckoutCollectDifference`). */
function collectDifference(orderId: string) {
  return env.adminClient.query(
    gql`
      mutation ($orderId: ID!) {
        pixCheckoutCollectDifference(orderId: $orderId) {
          orderCode
          amount
          sessionId
          copyPaste
          created
        }
      }
    `,
    { orderId },
  );
}

/** The São Paulo day of `at`, `days` calendar days on, as `YYYY-MM-DD`. */
function saoPauloDayPlus(at: Date, days: number): string {
  const day = new Date(
    `${at.toLocaleDateString("en-CA", { timeZone: "America/Sao_Paulo" })}T12:00:00Z`,
  );
  day.setUTCDate(day.getUTCDate() + days);
  return day.toISOString().slice(0, 10);
}

async function refundsDue() {
  const { pixCheckoutRefundsDue } = await env.adminClient.query(gql`
    {
      pixCheckoutRefundsDue {
        refundId
        orderCode
        amount
        chargeId
        reason
        instructions
        devolucao {
          deadline
          daysLeft
          state
        }
      }
    }
  `);
  return pixCheckoutRefundsDue;
}

async function chargesAtService(): Promise<number> {
  const answer = await fetch(`${sandbox.url}/__sandbox/charges`);
  return ((await answer.json()) as unknown[]).length;
}

/** Another code for the shopper's active order (none of `earlier`): its payment's amount and charge id. */
async function addPixCode(earlier: string[]): Promise<{ amount: number; transactionId: string }> {
  const { addPaymentToOrder } = await env.shopClient.query(gql`
    mutation {
      addPaymentToOrder(input: { method: "pix", metadata: {} }) {
        ... on Order {
          payments {
            amount
            state
            transactionId
          }
        }
        ... on ErrorResult {
          errorCode
          message
        }
      }
    }
  `);
  expect(addPaymentToOrder.payments, JSON.stringify(addPaymentToOrder)).toBeDefined();
  return addPaymentToOrder.payments.find(
    (payment: { transactionId: string }) => !earlier.includes(payment.transactionId),
  );
}

async function heldPayments() {
  const { pixCheckoutHeldPayments } = await env.adminClient.query(gql`
    {
      pixCheckoutHeldPayments {
        paymentId
        orderCode
        amount
        chargeId
        why
        heldAt
        devolucao {
          deadline
          daysLeft
          state
        }
      }
    }
  `);
  return pixCheckoutHeldPayments;
}

/** The order's codes as the merchant's order screen reads them (`pixCheckoutOrderCodes`). */
async function orderCodes(orderId: string) {
  const { pixCheckoutOrderCodes } = await env.adminClient.query(
    gql`
      query ($orderId: ID!) {
        pixCheckoutOrderCodes(orderId: $orderId) {
          paymentId
          method
          chargeId
          createdAt
          asked
          received
          captured
          owedBack
          returned
          became
          words
          devolucao {
            deadline
            daysLeft
            state
          }
        }
      }
    `,
    { orderId },
  );
  return pixCheckoutOrderCodes;
}

/** The merchant's record of a held code's money returned (`pixCheckoutRecordHeldReturn`). */
async function recordHeldReturn(paymentId: string, reference: string) {
  const { pixCheckoutRecordHeldReturn } = await env.adminClient.query(
    gql`
      mutation ($paymentId: ID!, $reference: String!) {
        pixCheckoutRecordHeldReturn(paymentId: $paymentId, reference: $reference) {
          paymentId
          orderCode
          amount
          chargeId
          devolucao {
            deadline
          }
        }
      }
    `,
    { paymentId, reference },
  );
  return pixCheckoutRecordHeldReturn;
}

/** How the Admin API refused: its message and stable code (`extensions.refusal`). */
async function refusalOf(answer: Promise<unknown>) {
  try {
    return { answered: await answer };
  } catch (error) {
    const [first] =
      (
        error as {
          response?: { errors?: { message: string; extensions?: { refusal?: string } }[] };
        }
      ).response?.errors ?? [];
    return { refusal: first?.extensions?.refusal, message: first?.message ?? String(error) };
  }
}

/** received = captured + contested + owedBack + returned, to the cent. */
function expectAddsUp(code: {
  received: number;
  captured: number;
  contested: number;
  owedBack: number;
  returned: number;
}) {
  expect(code.received).toBe(code.captured + code.contested + code.owedBack + code.returned);
}

const MED = gql`
  fragment Med on PixCheckoutMed {
    protocol
    deadline
    blocked
    blockedOwed
    contested
    openedAt
    state
    returned
    decidedAt
    deadlineState
  }
`;

const MED_CODE = gql`
  ${MED}
  fragment MedCode on PixCheckoutOrderCode {
    paymentId
    became
    received
    captured
    contested
    owedBack
    returned
    words
    devolucao {
      state
    }
    med {
      ...Med
    }
  }
`;

/** An order's codes with their MED cases (`pixCheckoutOrderCodes`). */
async function medCodes(orderId: string) {
  const { pixCheckoutOrderCodes } = await env.adminClient.query(
    gql`
      ${MED_CODE}
      query ($orderId: ID!) {
        pixCheckoutOrderCodes(orderId: $orderId) {
          ...MedCode
        }
      }
    `,
    { orderId },
  );
  return pixCheckoutOrderCodes;
}

/** "Registrar MED" (`pixCheckoutRecordMed`): the code as it stands after. */
async function recordMed(paymentId: string, protocol: string, deadline: string, amount: number) {
  const { pixCheckoutRecordMed } = await env.adminClient.query(
    gql`
      ${MED_CODE}
      mutation ($paymentId: ID!, $protocol: String!, $deadline: String!, $amount: Money!) {
        pixCheckoutRecordMed(
          paymentId: $paymentId
          protocol: $protocol
          deadline: $deadline
          amount: $amount
        ) {
          ...MedCode
        }
      }
    `,
    { paymentId, protocol, deadline, amount },
  );
  return pixCheckoutRecordMed;
}

/** The institution's decision (`pixCheckoutRecordMedOutcome`): the code as it stands after. */
async function recordMedOutcome(paymentId: string, outcome: string, amount?: number) {
  const { pixCheckoutRecordMedOutcome } = await env.adminClient.query(
    gql`
      ${MED_CODE}
      mutation ($paymentId: ID!, $outcome: String!, $amount: Money) {
        pixCheckoutRecordMedOutcome(paymentId: $paymentId, outcome: $outcome, amount: $amount) {
          ...MedCode
        }
      }
    `,
    { paymentId, outcome, amount },
  );
  return pixCheckoutRecordMedOutcome;
}

/** The open cases (`pixCheckoutOpenMeds`), in the default channel or the one of `token`. */
async function openMeds(token?: string) {
  if (token) env.adminClient.setChannelToken(token);
  try {
    const { pixCheckoutOpenMeds } = await env.adminClient.query(gql`
      ${MED}
      {
        pixCheckoutOpenMeds {
          paymentId
          orderId
          orderCode
          chargeId
          med {
            ...Med
          }
        }
      }
    `);
    return pixCheckoutOpenMeds;
  } finally {
    if (token) env.adminClient.setChannelToken(E2E_DEFAULT_CHANNEL_TOKEN);
  }
}

/** Vendure's refunds of an order's payments, as its admin reads them. */
async function refundsOf(orderId: string) {
  const { order } = await env.adminClient.query(
    gql`
      query ($id: ID!) {
        order(id: $id) {
          payments {
            refunds {
              total
              state
              transactionId
              reason
            }
          }
        }
      }
    `,
    { id: orderId },
  );
  return order.payments.flatMap((payment: { refunds: unknown[] }) => payment.refunds);
}

let secondChannelMade: Promise<{ id: string; token: string }> | undefined;

/** A second channel selling the same shirt, with PAC and Pix: made once, for every test asking. */
function secondChannel(): Promise<{ id: string; token: string }> {
  return (secondChannelMade ??= makeSecondChannel());
}

/** A second channel selling the same shirt, with PAC and Pix, in the default channel's currency. */
async function makeSecondChannel(): Promise<{ id: string; token: string }> {
  const admin = env.adminClient;
  const { activeChannel, zones } = await admin.query(gql`
    {
      activeChannel {
        defaultCurrencyCode
      }
      zones {
        items {
          id
        }
      }
    }
  `);
  const token = "segunda-loja-token";
  await admin.query(gql`
    mutation {
      updateGlobalSettings(input: { availableLanguages: [en, pt_BR] }) {
        ... on GlobalSettings {
          id
        }
      }
    }
  `);
  const { createChannel } = await admin.query(
    gql`
      mutation ($input: CreateChannelInput!) {
        createChannel(input: $input) {
          ... on Channel {
            id
          }
          ... on ErrorResult {
            errorCode
            message
          }
        }
      }
    `,
    {
      input: {
        code: "segunda-loja",
        token,
        defaultLanguageCode: "pt_BR",
        pricesIncludeTax: false,
        defaultCurrencyCode: activeChannel.defaultCurrencyCode,
        defaultTaxZoneId: zones.items[0].id,
        defaultShippingZoneId: zones.items[0].id,
      },
    },
  );
  expect(createChannel.id, JSON.stringify(createChannel)).toBeDefined();
  const channelId = createChannel.id;
  // The ids as the database has them: this Vendure does not decode the testing strategy's
  // "T_1" inside these inputs, and decodes "1" to 1 where it does.
  await admin.query(
    gql`
      mutation (
        $products: AssignProductsToChannelInput!
        $shipping: AssignShippingMethodsToChannelInput!
        $payment: AssignPaymentMethodsToChannelInput!
      ) {
        assignProductsToChannel(input: $products) {
          id
        }
        assignShippingMethodsToChannel(input: $shipping) {
          id
        }
        assignPaymentMethodsToChannel(input: $payment) {
          id
        }
      }
    `,
    {
      products: { productIds: ["1"], channelId, priceFactor: 1 },
      shipping: { shippingMethodIds: ["1"], channelId },
      payment: { paymentMethodIds: ["1"], channelId },
    },
  );
  return { id: channelId, token };
}

describe("the books", () => {
  it("lists the channel's movements of a period, each in its column, with totals that add up to the cent; only an administrator reads them", async () => {
    const paid = await orderWithPixCode("ursula@example.com");
    await pay(paid.payments[0].transactionId);
    const short = await orderWithPixCode("vera@example.com");
    await fetch(`${sandbox.url}/__sandbox/transactions/${short.payments[0].transactionId}/amount`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ amount: 9000 }),
    });
    await pay(short.payments[0].transactionId);
    await modifyOrder(paid.id, 1, "PaymentSettled", [
      { paymentId: paid.payments[0].id, amount: 4990, reason: "Uma camisa a menos" },
    ]);

    const today = new Date().toLocaleDateString("en-CA", { timeZone: "America/Sao_Paulo" });
    const answer = await env.adminClient.fetch(
      `${storeUrl}/admin/pix-checkout/books.csv?from=${today}&to=${today}`,
    );
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(answer.headers.get("content-disposition")).toContain(`livro-pix-${today}_${today}.csv`);
    const bytes = Buffer.from(await answer.arrayBuffer());
    // UTF-8 with a BOM, or Excel reads "Devolução" as Windows-1252 (fetch's text() drops it).
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = bytes
      .subarray(3)
      .toString("utf8")
      .split("\r\n")
      .filter(Boolean)
      .map((line) => line.split(";"));
    const of = (code: string) =>
      rows.filter((row) => row[1] === code).map((row) => row.slice(4, 11));
    expect(of(paid.code)).toEqual([
      ["Pago e liquidado no pedido", "114,80", "114,80", "", "", "", ""],
      ["Devolução a fazer", "", "", "", "49,90", "", "Uma camisa a menos"],
    ]);
    expect(of(short.code)).toEqual([
      [
        "Pago e retido (não liquidado)",
        "90,00",
        "",
        "90,00",
        "",
        "",
        "o Pix pago é de R$ 90,00 e o código pedia R$ 114,80",
      ],
    ]);
    // The totals line is the sum of the lines above it, column by column.
    const cents = (cell: string | undefined) =>
      cell ? Number(cell.replace(/\./g, "").replace(",", "")) : 0;
    const lines = rows.slice(1, -1);
    const total = rows.at(-1)!;
    expect(total[0]).toBe("Total");
    for (let column = 5; column <= 9; column++) {
      expect(cents(total[column])).toBe(lines.reduce((sum, row) => sum + cents(row[column]), 0));
    }

    // Without an administrator's session, nothing.
    const anonymous = await fetch(`${storeUrl}/admin/pix-checkout/books.csv`);
    expect(anonymous.status).toBe(403);
    const refused = await env.adminClient.fetch(
      `${storeUrl}/admin/pix-checkout/books.csv?from=ontem`,
    );
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ code: "invalid_period" });
  });
});

// Last in the file: it moves the sandbox's clock to tomorrow's 10:00 in São Paulo (outside the
// quiet hours, 21:00 to 8:00), so every code below is made then, and its reminders' moments are
// known; the clock only moves forward, so nothing after this may count on the real time.
describe("reminders", () => {
  const events: PixCheckoutReminderEvent[] = [];
  let subscription: { unsubscribe(): void } | undefined;
  const payer = {
    document: "529.982.247-25",
    neighborhood: "Bela Vista",
    number: "1000",
    phone: "(11) 98765-4321",
  };

  beforeAll(async () => {
    subscription = env.server.app
      .get(EventBus)
      .ofType(PixCheckoutReminderEvent)
      .subscribe((event) => events.push(event));
    sandbox.clock.set(atSaoPauloHour(nextDay(saoPauloDay(new Date())), 10).getTime());
    // Earlier tests' codes expire with the move; their webhooks land before anything below.
    await sandbox.webhooksIdle();
  });
  afterAll(() => subscription?.unsubscribe());

  const sendReminders = (at: Date) => env.server.app.get(PixCheckoutReminders).sendReminders(at);

  /** The order's events once the bus has handed out `count` of them, and a moment for more. */
  async function eventsOf(code: string, count: number) {
    const mine = () => events.filter((event) => event.order.code === code);
    await vi.waitFor(() => expect(mine().length).toBeGreaterThanOrEqual(count));
    await new Promise((resolve) => setTimeout(resolve, 250));
    return mine();
  }

  it("reminds of a waiting Pix once, at its 'expiring' moment, with the order's e-mail: two passes at once publish one event, a later pass none", async () => {
    const order = await orderWithPixCode("rita@example.com");
    const payment = order.payments[0];
    const at = new Date(Date.parse(payment.metadata.public.expiresAt) - 9 * 60_000);
    expect(saoPauloHour(at)).toBe(10);
    expect(await eventsOf(order.code, 0)).toHaveLength(0);

    // Two passes at the same moment (two instances, or a slow pass overlapping the next): the
    // order's lock has them decide one after the other, and the second finds the step handled.
    // (A pass just before handles the other codes' steps, so that the passes meet on this one.)
    await sendReminders(new Date(at.getTime() - 2 * 60_000));
    await Promise.all([sendReminders(at), sendReminders(at)]);
    const mine = await eventsOf(order.code, 1);
    expect(mine).toHaveLength(1);
    const event = mine[0]!;
    expect(event).toMatchObject({
      step: "pix_expiring",
      emailAddress: "rita@example.com",
      sessionId: payment.metadata.public.sessionId,
      amountCents: order.totalWithTax,
      expiresAt: payment.metadata.public.expiresAt,
      dueDay: null,
    });
    expect(event.ctx.channel.token).toBe(E2E_DEFAULT_CHANNEL_TOKEN);
    expect(reminderWords(event.step, { ...event, orderCode: order.code, now: at }).subject).toMatch(
      /^Seu Pix de R\$ 114,80 vence às \d\d:\d\d$/,
    );

    // Handled once: a later pass (the code still waiting) publishes nothing more.
    await sendReminders(new Date(at.getTime() + 60_000));
    expect(await eventsOf(order.code, 1)).toHaveLength(1);
    const recorded = (await orderByCode(order.code)).payments[0].metadata.reminders;
    expect(recorded).toEqual([{ step: "pix_expiring", at: at.toISOString(), outcome: "sent" }]);

    // The code expires unpaid (its payment cancelled, the order still waiting): 5 minutes later,
    // "take a new code", once, however many passes decide it at the same moment.
    await control(payment.transactionId, "expire");
    const afterExpiry = new Date(Date.parse(payment.metadata.public.expiresAt) + 6 * 60_000);
    await sendReminders(new Date(afterExpiry.getTime() - 2 * 60_000));
    await Promise.all([
      sendReminders(afterExpiry),
      sendReminders(afterExpiry),
      sendReminders(afterExpiry),
    ]);
    const both = await eventsOf(order.code, 2);
    expect(both.map((e) => e.step)).toEqual(["pix_expiring", "pix_expired"]);
    expect(both[1]!.order.state).toBe("ArrangingPayment");
    const expired = (await orderByCode(order.code)).payments[0];
    expect(expired.state).toBe("Cancelled");
    expect(expired.metadata.reminders.map((r: { outcome: string }) => r.outcome)).toEqual([
      "sent",
      "sent",
    ]);

    // Every five minutes by Vendure's scheduler, as one of the config's tasks.
    const tasks = env.server.app.get(ConfigService).schedulerOptions.tasks ?? [];
    expect(tasks.map((task) => task.id)).toContain("pix-checkout-reminders");
  });

  it("sends nothing for a code paid whose webhook was lost: the pass asks the service, settles the order and records 'paid'", async () => {
    const order = await orderWithPixCode("sueli@example.com");
    const payment = order.payments[0];
    await withWebhooksLost(() => pay(payment.transactionId));
    expect((await orderByCode(order.code)).state).toBe("ArrangingPayment");
    const at = new Date(Date.parse(payment.metadata.public.expiresAt) - 9 * 60_000);
    await sendReminders(at);
    expect(await eventsOf(order.code, 0)).toHaveLength(0);
    const after = await orderByCode(order.code);
    expect(after.state).toBe("PaymentSettled");
    expect(after.payments[0].metadata.reminders).toEqual([
      { step: "pix_expiring", at: at.toISOString(), outcome: "paid" },
    ]);
  });

  it("reminds of a boleto on the bank business day before it falls due, at the boleto hour (9:00), not a minute before", async () => {
    const order = await orderWithPixCode("telma@example.com", "boleto", payer);
    const payment = order.payments[0];
    expect(payment.state).toBe("Authorized");
    const dueDay = realDueDay({
      dueDay: null,
      expiresAt: new Date(payment.metadata.public.expiresAt),
    });
    const at = atSaoPauloHour(businessDayBefore(dueDay!), 9);
    await sendReminders(new Date(at.getTime() - 60_000));
    expect(await eventsOf(order.code, 0)).toHaveLength(0);
    await sendReminders(at);
    const mine = await eventsOf(order.code, 1);
    expect(mine).toHaveLength(1);
    const event = mine[0]!;
    expect(event).toMatchObject({
      step: "boleto_due_tomorrow",
      emailAddress: "telma@example.com",
      amountCents: order.totalWithTax,
      dueDay,
    });
    expect(event.order.state).toBe("PaymentAuthorized");
  });
});
