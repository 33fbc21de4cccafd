import path from "node:path";
import { medusaIntegrationTestRunner } from "@medusajs/test-utils";
import type { Sandbox } from "@pix-checkout/sandbox" with { "resolution-mode": "import" };
import type {
  INotificationModuleService,
  IPaymentModuleService,
  MedusaContainer,
} from "@medusajs/framework/types";
import { Modules } from "@medusajs/framework/utils";
import { getOrderDetailWorkflow } from "@medusajs/medusa/core-flows";
import { startAppSandboxes } from "../helpers/sandboxes";
import {
  createCartWithVariant,
  createStockedProduct,
  createStoreFixture,
  type StockedProduct,
  type StoreFixture,
} from "../helpers/store-fixture";
import {
  BOLETO_PAYER,
  control,
  db,
  orderOfCart,
  storefront,
  type Api,
  type Json,
} from "../helpers/checkout";
import { waitFor } from "../helpers/wait-for";
import { reconcilePass } from "../helpers/reconcile-pass";
import { adminLogin } from "../helpers/admin-login";
import { saoPauloDay } from "@pix-checkout/client/books";
import { owedNearDeadline } from "../../src/internal/operations/refund-deadlines";

// The merchant records a refund made in the payment service's dashboard, through the admin
// route the drawer calls: Medusa's order gets a refund only for money Medusa captured, the
// drawer's figures (the charges route's `refund_portions`) say the same beforehand, the note is
// on the charge's timeline and in the books, and the shopper is told "Devolvemos R$ X" through
// Medusa's Notification Module (its local provider records what was sent).

const API_KEY = "sk_live_refunds_5ecret";
const WEBHOOK_SECRET = "whsec-test-a-0123456789";

let sandbox: Sandbox;
let sandboxB: Sandbox;

beforeAll(async () => {
  ({ a: sandbox, b: sandboxB } = await startAppSandboxes(API_KEY, {
    a: { webhookRetryDelaysMs: [300] },
    b: { webhookRetryDelaysMs: [300] },
  }));
  // The plugin's notification subscriber, to Medusa's local notification provider.
  process.env.PIX_NOTIFY = "1";
});

afterAll(async () => {
  await sandbox?.close();
  await sandboxB?.close();
});

medusaIntegrationTestRunner({
  cwd: path.join(__dirname, "..", "app"),
  testSuite: ({ api, getContainer }) => {
    let store: StoreFixture;
    let shop: ReturnType<typeof storefront>;
    let adminHeaders: Record<string, string>;
    let product: StockedProduct;
    const container = (): MedusaContainer => getContainer();
    const http = api as unknown as Api;

    beforeAll(async () => {
      store = await createStoreFixture(container());
      shop = storefront(http, store);
      await control(sandbox.url, "webhook-urls", {
        url: `${http.defaults.baseURL}/hooks/pix-checkout/a?token=${WEBHOOK_SECRET}`,
      });
      adminHeaders = await adminLogin(container(), "lojista@example.com");
      product = await createStockedProduct(container(), store, 50);
    });

    const admin = (method: string, url: string, data?: unknown, extra: Json = {}) =>
      http.request({
        method,
        url,
        data,
        headers: adminHeaders,
        validateStatus: () => true,
        ...extra,
      });
    const rowWhere = (chargeId: string, what: string, test: (row: Json) => boolean) =>
      waitFor(async () => {
        const row = await db(container())("pix_checkout_charge")
          .where({ charge_id: chargeId })
          .first();
        return row && test(row) && row;
      }, what);
    const lastSession = (response: { status: number; data: Json }) => {
      expect(response.status, JSON.stringify(response.data)).toBe(200);
      const sessions = response.data.payment_collection.payment_sessions as Json[];
      return sessions[sessions.length - 1] as { id: string; data: Json };
    };
    const pay = (chargeId: string) => control(sandbox.url, `charges/${chargeId}/pay`, {});
    const notifications = () =>
      container().resolve<INotificationModuleService>(Modules.NOTIFICATION);
    const sentFor = (chargeId: string, template: string, count = 1) =>
      waitFor(async () => {
        const list = (await notifications().listNotifications({ resource_id: chargeId })).filter(
          (n) => n.template === template,
        );
        return list.length >= count && list;
      }, `${count} ${template} for ${chargeId}`);
    /** Medusa's refunds on the payments of a collection, in integer cents. */
    const medusaRefunds = async (collectionId: string) => {
      const payments = await container()
        .resolve<IPaymentModuleService>(Modules.PAYMENT)
        .listPayments(
          { payment_collection_id: collectionId } as Parameters<
            IPaymentModuleService["listPayments"]
          >[0],
          { relations: ["refunds"] },
        );
      return payments
        .flatMap((p) => p.refunds ?? [])
        .map((r) => Math.round(Number(r.amount) * 100));
    };
    const chargeOnList = async (chargeId: string) => {
      const listed = await admin("get", "/admin/pix-checkout/charges?limit=200");
      expect(listed.status).toBe(200);
      return (listed.data.charges as Json[]).find((c) => c.charge_id === chargeId);
    };

    /**
     * A R$ 35,00 code; the shopper doubles the cart (a R$ 70,00 code) and pays the old one, whose
     * money is owed back. The live code is still unpaid.
     */
    const oldCodePaidFirst = async () => {
      const cartId = await createCartWithVariant(container(), store, product.variantId);
      const oldCharge = lastSession(await shop.initiate(cartId, "pp_pix_a")).data
        .charge_id as string;
      const line = (await shop.cart(cartId)).data.cart.items[0];
      await shop.call("post", `/store/carts/${cartId}/line-items/${line.id}`, { quantity: 2 });
      const current = lastSession(await shop.initiate(cartId, "pp_pix_a"));
      const currentCharge = current.data.charge_id as string;
      await pay(oldCharge);
      await rowWhere(oldCharge, "the old code's money owed back", (r) => Number(r.owed_cents) > 0);
      return { cartId, oldCharge, currentSession: current.id, currentCharge };
    };
    /** The live code pays the cart: its order, captured in Medusa. */
    const liveCodePays = async (cartId: string, currentCharge: string) => {
      await pay(currentCharge);
      await rowWhere(currentCharge, "captured", (r) => r.captured_at !== null);
      const order = await waitFor(() => orderOfCart(container(), cartId), "its order");
      await sandbox.webhooksIdle();
      return { order, collectionId: order.payment_collections[0]!.id as string };
    };

    it("a replaced code's money is recorded in the ledger only, the order's captured money in Medusa too; the note is on the timeline and in the books, and the shopper hears 'Devolvemos'", async () => {
      const { cartId, oldCharge, currentCharge } = await oldCodePaidFirst();

      // "Vamos devolver": no order yet, so the message can only say one is made later.
      const [due] = await sentFor(oldCharge, "pix-checkout-refund-due");
      expect(due!.data).toMatchObject({
        event: "refund_due",
        order: null,
        refund: { amount_cents: 3_500, reason: "paid_old_amount" },
      });

      // The live code pays the cart: an order, paid in Medusa.
      const { order, collectionId } = await liveCodePays(cartId, currentCharge);
      await reconcilePass(container());

      // The drawer's figures, before anything is recorded: the old code's money is not Medusa's.
      expect((await chargeOnList(oldCharge)).refund_portions).toEqual([
        { from: "owed", cents: 3_500, in_medusa: false, why: "paid_old_amount" },
      ]);
      expect((await chargeOnList(currentCharge)).refund_portions).toEqual([
        { from: "captured", cents: 7_000, in_medusa: true, why: null },
      ]);

      const note = "Pix devolvido pelo painel em 26/11; comprovante 123";
      const returned = await admin("post", `/admin/pix-checkout/charges/${oldCharge}/refunds`, {
        amount: 3_500,
        note,
      });
      expect(returned.status, JSON.stringify(returned.data)).toBe(200);
      expect(returned.data).toMatchObject({
        recorded_in_medusa_cents: 0,
        ledger_only_cents: 3_500,
        resolved_flag: true,
      });
      // Medusa never captured it: its order gets no refund.
      expect(await medusaRefunds(collectionId)).toEqual([]);

      // The order's own money, returned after the sale: Medusa records it on the order.
      const afterSale = await admin(
        "post",
        `/admin/pix-checkout/charges/${currentCharge}/refunds`,
        { amount: 1_000, note: "desconto combinado por WhatsApp" },
      );
      expect(afterSale.status, JSON.stringify(afterSale.data)).toBe(200);
      expect(afterSale.data).toMatchObject({
        recorded_in_medusa_cents: 1_000,
        ledger_only_cents: 0,
      });
      expect(await medusaRefunds(collectionId)).toEqual([1_000]);

      // The order widget's timeline: where each refund is recorded, and the note.
      const widget = await admin("get", `/admin/pix-checkout/orders/${order.id}`);
      expect(widget.status).toBe(200);
      const timeline = (chargeId: string) =>
        (
          (widget.data.charges as Json[]).find((c) => c.charge_id === chargeId)!.timeline as Json[]
        ).filter((e) => e.kind === "refund_declared");
      expect(timeline(oldCharge)).toEqual([
        expect.objectContaining({ refund: { amount: 3_500, medusa: 0, note } }),
      ]);
      expect(timeline(currentCharge)).toEqual([
        expect.objectContaining({
          refund: { amount: 1_000, medusa: 1_000, note: "desconto combinado por WhatsApp" },
        }),
      ]);

      // The books: the CSV's refund line ends with the note; the OFX memo carries it.
      const today = saoPauloDay(new Date());
      const csv = await admin(
        "get",
        `/admin/pix-checkout/reconciliation.csv?from=${today}&to=${today}`,
        undefined,
        { responseType: "arraybuffer" },
      );
      expect(csv.status).toBe(200);
      const rows = Buffer.from(csv.data as ArrayBuffer)
        .subarray(3)
        .toString("utf8")
        .split("\r\n");
      const refundRow = rows.find((r) => r.includes(`;Devolução;`) && r.includes(oldCharge));
      expect(refundRow).toMatch(/;-35,00;;;0,00;/);
      // The note, then the devolução deadline and the buyer's CPF/CNPJ columns (empty here).
      expect(refundRow?.endsWith(`;"${note}";;`)).toBe(true);
      const ofx = await admin(
        "get",
        `/admin/pix-checkout/reconciliation.ofx?from=${today}&to=${today}`,
        undefined,
        { responseType: "arraybuffer" },
      );
      expect(ofx.status).toBe(200);
      const statement = new TextDecoder("windows-1252").decode(ofx.data as ArrayBuffer);
      expect(statement).toContain("Pix devolvido pelo painel em 26/11; comprovante 123");

      // The shopper: "Devolvemos R$ 35,00" about the replaced code, the order paid in Medusa;
      // and "Devolvemos R$ 10,00" of the order.
      const [back] = await sentFor(oldCharge, "pix-checkout-refunded");
      expect(back!.to).toBe("ana@example.com");
      expect(back!.data).toMatchObject({
        event: "refunded",
        refund: { amount_cents: 3_500, reason: "paid_old_amount" },
        order: { id: order.id, display_id: expect.any(Number), payment: "paid" },
      });
      expect((back!.data as Json).refund.amount).toMatch(/^R\$\s35,00$/);
      expect(back!.data).not.toHaveProperty("pix");
      const [ofOrder] = await sentFor(currentCharge, "pix-checkout-refunded");
      expect(ofOrder!.data).toMatchObject({
        refund: { amount_cents: 1_000, reason: "order_refund" },
        order: { id: order.id },
      });

      // A second refund of the same charge is its own message.
      const again = await admin("post", `/admin/pix-checkout/charges/${currentCharge}/refunds`, {
        amount: 500,
        note: "mais um acerto",
      });
      expect(again.status, JSON.stringify(again.data)).toBe(200);
      const both = await sentFor(currentCharge, "pix-checkout-refunded", 2);
      expect(
        both.map((n) => (n.data as Json).refund.amount_cents as number).sort((a, b) => a - b),
      ).toEqual([500, 1_000]);
    });

    it("a refund of the session's captured money is recorded in Medusa though an older code the session once adopted is owed back on it (#69)", async () => {
      // The money model's case: an older code paid first is adopted by the live session, the
      // live code's own payment is captured instead, and the older one is owed back, still
      // marked adopted (capture_session_id). Playing the race that leaves the mark takes the
      // model's timing; the mark is set here on a code owed back beside the captured one.
      const { cartId, oldCharge, currentSession, currentCharge } = await oldCodePaidFirst();
      const { collectionId } = await liveCodePays(cartId, currentCharge);
      await db(container())("pix_checkout_charge")
        .where({ charge_id: oldCharge })
        .update({ capture_session_id: currentSession });

      const refund = await admin("post", `/admin/pix-checkout/charges/${currentCharge}/refunds`, {
        amount: 1_000,
        note: "desconto combinado",
      });
      expect(refund.status, JSON.stringify(refund.data)).toBe(200);
      expect(refund.data.recorded_in_medusa_cents).toBe(1_000);
      expect(await medusaRefunds(collectionId)).toEqual([1_000]);
      // The books name the charge Medusa captured and refunded: the live code, once each.
      const today = saoPauloDay(new Date());
      const csv = await admin(
        "get",
        `/admin/pix-checkout/reconciliation.csv?from=${today}&to=${today}`,
        undefined,
        { responseType: "arraybuffer" },
      );
      const lines = Buffer.from(csv.data as ArrayBuffer)
        .subarray(3)
        .toString("utf8")
        .split("\r\n");
      const line = (type: string, chargeId: string) =>
        lines.filter((l) => l.includes(`;${type};`) && l.includes(`;${chargeId};`));
      expect(line("Cobrança", currentCharge)).toEqual([
        expect.stringContaining(";70,00;0,69;69,31;70,00;"),
      ]);
      expect(line("Cobrança", oldCharge)).toEqual([
        expect.stringContaining(";35,00;0,35;34,65;;35,00;"),
      ]);
      expect(line("Devolução", currentCharge)).toEqual([
        expect.stringContaining(";-10,00;;;-10,00;"),
      ]);
      expect(line("Devolução", oldCharge)).toEqual([]);
      expect(lines.find((l) => l.startsWith(";Total de devoluções;"))).toContain(
        ";-10,00;;;-10,00;",
      );
    });

    describe("Pix returned by the MED", () => {
      /** The month's Pix figures of the overview. */
      const pixMonth = async () => {
        const overview = await admin("get", "/admin/pix-checkout/overview");
        expect(overview.status).toBe(200);
        return overview.data.periods.month.pix as Json;
      };
      const orderDetail = async (orderId: string) => {
        const { result } = await getOrderDetailWorkflow(container()).run({
          input: { order_id: orderId, fields: ["id", "payment_status", "summary.*"] },
        });
        return result as unknown as { payment_status: string; summary: Json };
      };
      /**
       * A R$ 35,00 cart paid by Pix: its order, captured in Medusa and in the ledger. `paidCents`:
       * what the shopper paid, when more (the excess owed back, `overpaid`). `boleto`: paid by a
       * boleto instead.
       */
      const paidOrder = async (paidCents?: number, boleto = false) => {
        const cartId = await createCartWithVariant(container(), store, product.variantId);
        const created = boleto
          ? await shop.initiate(cartId, "pp_boleto_a", BOLETO_PAYER)
          : await shop.initiate(cartId, "pp_pix_a");
        const chargeId = lastSession(created).data.charge_id as string;
        if (paidCents !== undefined) {
          await control(sandbox.url, `transactions/${chargeId}/amount`, { amount: paidCents });
        }
        await pay(chargeId);
        await rowWhere(chargeId, "captured", (r) => r.captured_at !== null);
        const order = await waitFor(() => orderOfCart(container(), cartId), "its order");
        await sandbox.webhooksIdle();
        await reconcilePass(container());
        await rowWhere(chargeId, "its order", (r) => r.awaiting_order_since === null);
        return { chargeId, order, collectionId: order.payment_collections[0]!.id as string };
      };
      const deadline = saoPauloDay(new Date(Date.now() + 86_400_000));
      const med = (chargeId: string, body: Json, headers: Json = adminHeaders) =>
        http.request({
          method: "post",
          url: `/admin/pix-checkout/charges/${chargeId}/med`,
          data: body,
          headers,
          validateStatus: () => true,
        });
      const outcome = (chargeId: string, body: Json) =>
        admin("post", `/admin/pix-checkout/charges/${chargeId}/med/outcome`, body);
      /** Whether the devolução clock, looked at 85 days from now, asks for this charge's money. */
      const deadlineAsks = async (chargeId: string) =>
        (await owedNearDeadline(db(container()), new Date(Date.now() + 85 * 86_400_000))).find(
          (o) => o.charge_id === chargeId,
        );
      /** Medusa's own summary of the order: what it says refunded, in integer cents. */
      const refundedOnOrder = async (orderId: string) => {
        const summary = (await orderDetail(orderId)).summary;
        return Math.round(
          Number(
            (summary.raw_refunded_total as Json | undefined)?.value ?? summary.refunded_total,
          ) * 100,
        );
      };

      it("a MED blocks owed money first: R$ 40,00 paid for R$ 35,00, R$ 15,00 blocked (R$ 5,00 owed, R$ 10,00 captured); no clock nor refund asks for the owed R$ 5,00; R$ 12,00 returned settles it in the ledger only, refunds R$ 7,00 on Medusa's order, R$ 3,00 income again", async () => {
        const { chargeId, order, collectionId } = await paidOrder(4_000);
        const owing = await chargeOnList(chargeId);
        expect(owing?.money).toMatchObject({ captured: 3_500, owed: 500, owed_reason: "overpaid" });
        expect(await deadlineAsks(chargeId)).toMatchObject({ owed_cents: 500 });

        const marked = await med(chargeId, { protocol: "MED-OWED-1", deadline, amount: 1_500 });
        expect(marked.status, JSON.stringify(marked.data)).toBe(200);
        expect(marked.data.charge.money).toMatchObject({
          owed: 500,
          captured: 2_500,
          contested: 1_000,
          med: { state: "open", blocked: 1_500, blocked_owed: 500 },
        });
        expect(marked.data.charge.attention).toBe("med");
        // While the case is open, no devolução deadline asks for the blocked R$ 5,00 ...
        expect(marked.data.charge.refund_deadline).toBeNull();
        expect(await deadlineAsks(chargeId)).toBeUndefined();
        // ... and "Record refund" cannot return it: only the order's captured money is offered.
        const listed = await chargeOnList(chargeId);
        expect(listed?.refund_portions).toEqual([
          { from: "captured", cents: 2_500, in_medusa: true, why: null },
        ]);
        const tooMuch = await admin("post", `/admin/pix-checkout/charges/${chargeId}/refunds`, {
          amount: 2_501,
          note: "devolução do excedente",
        });
        expect(tooMuch.status).toBe(400);
        expect(tooMuch.data.code).toBe("invalid_refund");
        // The refusal names the same most as the drawer's portions, and why the rest is not.
        expect(tooMuch.data.message).toMatch(/At most 2500 cents .*open MED blocked/);

        const returned = await outcome(chargeId, { outcome: "returned", amount: 1_200 });
        expect(returned.status, JSON.stringify(returned.data)).toBe(200);
        expect(returned.data).toMatchObject({
          returned_cents: 1_200,
          owed_settled_cents: 500,
          kept_cents: 300,
          still_owed_cents: 0,
          recorded_in_medusa_cents: 700,
          ledger_only_cents: 500,
        });
        expect(returned.data.charge.money).toMatchObject({
          owed: 0,
          captured: 2_800,
          contested: 0,
          returned: 1_200,
          med: { state: "returned" },
        });
        expect(returned.data.charge.refund_deadline).toBeNull();
        // Medusa's order: a refund of the R$ 7,00 it held captured, and nothing of the R$ 5,00.
        expect(await medusaRefunds(collectionId)).toEqual([700]);
        expect(await refundedOnOrder(order.id)).toBe(700);
        const entries = await db(container())("pix_checkout_ledger_entry")
          .where({ charge_id: chargeId })
          .whereLike("reason", "med_%")
          .orderBy("seq", "asc");
        expect(
          entries.map((e: Json) => [
            e.from_part,
            e.to_part,
            Number(e.amount_cents),
            e.reason,
            e.medusa_ref !== null,
          ]),
        ).toEqual([
          ["captured", "contested", 1_000, "med_blocked", false],
          ["owed", "returned", 500, "med_returned", false],
          ["contested", "returned", 700, "med_returned", true],
          ["contested", "captured", 300, "med_kept", false],
        ]);
      });

      it("a boleto has no MED (the MED is the Pix system's): marking one is refused 409 med_not_contestable and nothing moves", async () => {
        const { chargeId, collectionId } = await paidOrder(undefined, true);
        const before = await rowWhere(chargeId, "captured", (r) => r.captured_at !== null);
        const refused = await med(chargeId, {
          protocol: "E2E-BOLETO",
          deadline,
          amount: 1_000,
        });
        expect(refused.status, JSON.stringify(refused.data)).toBe(409);
        expect(refused.data.code).toBe("med_not_contestable");
        expect(refused.data.message).toMatch(/applies only to Pix/);
        expect(await rowWhere(chargeId, "unchanged", () => true)).toMatchObject({
          captured_cents: before.captured_cents,
          contested_cents: "0",
          med_state: null,
        });
        expect(await medusaRefunds(collectionId)).toEqual([]);
      });

      it("'Mantido' on a MED of owed money only: the money stays owed, and its devolução deadline applies again", async () => {
        const { chargeId, collectionId } = await paidOrder(4_000);
        const marked = await med(chargeId, { protocol: "MED-OWED-2", deadline, amount: 500 });
        expect(marked.status, JSON.stringify(marked.data)).toBe(200);
        expect(marked.data.charge.money).toMatchObject({
          owed: 500,
          captured: 3_500,
          contested: 0,
          med: { state: "open", blocked: 500, blocked_owed: 500 },
        });
        expect(marked.data.charge.refund_deadline).toBeNull();
        expect(await deadlineAsks(chargeId)).toBeUndefined();

        const kept = await outcome(chargeId, { outcome: "kept" });
        expect(kept.status, JSON.stringify(kept.data)).toBe(200);
        expect(kept.data).toMatchObject({
          returned_cents: 0,
          kept_cents: 0,
          owed_settled_cents: 0,
          still_owed_cents: 500,
          recorded_in_medusa_cents: 0,
        });
        expect(kept.data.charge.money).toMatchObject({
          owed: 500,
          captured: 3_500,
          returned: 0,
          med: { state: "kept" },
        });
        expect(kept.data.charge.attention).toBe("refund_due");
        expect(kept.data.charge.refund_deadline).not.toBeNull();
        expect(await deadlineAsks(chargeId)).toMatchObject({ owed_cents: 500 });
        expect(await medusaRefunds(collectionId)).toEqual([]);
        expect((await chargeOnList(chargeId))?.refund_portions).toEqual([
          { from: "owed", cents: 500, in_medusa: false, why: "overpaid" },
          { from: "captured", cents: 3_500, in_medusa: true, why: null },
        ]);
      });

      it("after the MED returned an order's money, no Pix link is offered for it: the widget has nothing to collect and 'Cobrar por Pix' answers 409 nothing_owed", async () => {
        const { chargeId, order } = await paidOrder();
        expect(
          (await med(chargeId, { protocol: "MED-LINK-1", deadline, amount: 3_500 })).status,
        ).toBe(200);
        const returned = await outcome(chargeId, { outcome: "returned" });
        expect(returned.status, JSON.stringify(returned.data)).toBe(200);
        expect(returned.data.recorded_in_medusa_cents).toBe(3_500);
        // Medusa's order owes it again ...
        expect(await refundedOnOrder(order.id)).toBe(3_500);
        // ... but the shopper's bank took it back: nothing to collect by Pix.
        const widget = await admin("get", `/admin/pix-checkout/orders/${order.id}`);
        expect(widget.status).toBe(200);
        expect(widget.data.outstanding).toBeNull();
        const collect = await admin(
          "post",
          `/admin/pix-checkout/orders/${order.id}/payment-collection`,
        );
        expect(collect.status, JSON.stringify(collect.data)).toBe(409);
        expect(collect.data.code).toBe("nothing_owed");
      });

      it("two refunds of one payment are two refunds on Medusa's order: its summary counts R$ 10,00 and R$ 20,00, as its payment does", async () => {
        const { chargeId, order, collectionId } = await paidOrder();
        for (const [amount, note] of [
          [1_000, "troca de tamanho"],
          [2_000, "frete devolvido"],
        ] as const) {
          const refund = await admin("post", `/admin/pix-checkout/charges/${chargeId}/refunds`, {
            amount,
            note,
          });
          expect(refund.status, JSON.stringify(refund.data)).toBe(200);
          expect(refund.data.recorded_in_medusa_cents).toBe(amount);
        }
        expect((await medusaRefunds(collectionId)).sort((a, b) => a - b)).toEqual([1_000, 2_000]);
        // Medusa's own summary of the order: R$ 30,00 refunded, as its payment holds.
        const summary = (await orderDetail(order.id)).summary;
        const refunded = Math.round(
          Number(
            (summary.raw_refunded_total as Json | undefined)?.value ?? summary.refunded_total,
          ) * 100,
        );
        expect(refunded).toBe(3_000);
        // One order transaction per refund, each named by the plugin's record of it.
        const transactions = await container()
          .resolve(Modules.ORDER)
          .listOrderTransactions({ order_id: order.id, reference: "refund" });
        expect(transactions).toHaveLength(2);
        expect(new Set(transactions.map((t) => t.reference_id)).size).toBe(2);
      });

      it("a MED blocks captured money out of income, Medusa's order unchanged; 'Mantido' gives it back; a second MED 'Devolvido pelo MED' is returned, refunded on Medusa's order, in the books, and never twice", async () => {
        const { chargeId, order, collectionId } = await paidOrder();
        const before = await pixMonth();
        const paidBefore = await orderDetail(order.id);

        // Nobody without a login, and never more than is captured.
        const protocol = "MED-2026-000123";
        expect((await med(chargeId, { protocol, deadline, amount: 2_000 }, {})).status).toBe(401);
        const over = await med(chargeId, { protocol, deadline, amount: 3_501 });
        expect(over.status).toBe(409);
        expect(over.data.code).toBe("med_amount_exceeds_captured");
        expect((await med(chargeId, { protocol, deadline: "amanhã", amount: 100 })).data.code).toBe(
          "invalid_med",
        );
        expect(await outcome(chargeId, { outcome: "kept" })).toMatchObject({
          status: 409,
          data: { code: "med_not_open" },
        });

        // The bloqueio cautelar: R$ 20,00 blocked, out of income, on the list, on the health card.
        const marked = await med(chargeId, { protocol, deadline, amount: 2_000 });
        expect(marked.status, JSON.stringify(marked.data)).toBe(200);
        expect(marked.data.charge.money).toMatchObject({
          captured: 1_500,
          contested: 2_000,
          med: { state: "open", protocol, deadline, blocked: 2_000 },
        });
        expect(marked.data.charge.attention).toBe("med");
        const blocked = await pixMonth();
        expect(blocked.income_cents).toBe(before.income_cents - 2_000);
        expect(blocked.contested_cents).toBe(before.contested_cents + 2_000);
        expect(blocked.received_cents).toBe(before.received_cents);
        const attention = await admin("get", "/admin/pix-checkout/charges?needs_attention=true");
        expect((attention.data.charges as Json[]).map((c) => c.charge_id)).toContain(chargeId);
        const health = await admin("get", "/admin/pix-checkout/health");
        const medLine = (health.data.lines as Json[]).find((l) => l.id === "med");
        expect(medLine).toMatchObject({
          state: "warning",
          action: "record_med_outcome",
          detail: { reason: "med_deadline_near", nearest_charge_id: chargeId },
        });
        // Medusa's order still holds it captured: nothing refunded, still paid.
        expect(await medusaRefunds(collectionId)).toEqual([]);
        expect((await orderDetail(order.id)).payment_status).toBe(paidBefore.payment_status);
        // Blocked money is not the merchant's to refund, nor a second MED's to block.
        const refund = await admin("post", `/admin/pix-checkout/charges/${chargeId}/refunds`, {
          amount: 1_501,
          note: "devolução maior que o capturado",
        });
        expect(refund.data.code).toBe("invalid_refund");
        expect((await med(chargeId, { protocol, deadline, amount: 100 })).data.code).toBe(
          "med_already_open",
        );

        // "Mantido": the block is lifted, the money is income again.
        const kept = await outcome(chargeId, { outcome: "kept" });
        expect(kept.status, JSON.stringify(kept.data)).toBe(200);
        expect(kept.data).toMatchObject({ returned_cents: 0, kept_cents: 2_000 });
        expect(kept.data.charge.money).toMatchObject({
          captured: 3_500,
          contested: 0,
          med: { state: "kept" },
        });
        expect((await pixMonth()).income_cents).toBe(before.income_cents);
        expect(await outcome(chargeId, { outcome: "kept" })).toMatchObject({
          status: 409,
          data: { code: "med_not_open" },
        });

        // A second notificação: all of it blocked, then returned by the MED.
        const second = "MED-2026-000456";
        expect((await med(chargeId, { protocol: second, deadline, amount: 3_500 })).status).toBe(
          200,
        );
        const returned = await outcome(chargeId, { outcome: "returned" });
        expect(returned.status, JSON.stringify(returned.data)).toBe(200);
        expect(returned.data).toMatchObject({
          returned_cents: 3_500,
          kept_cents: 0,
          recorded_in_medusa_cents: 3_500,
        });
        expect(returned.data.charge.money).toMatchObject({
          captured: 0,
          contested: 0,
          returned: 3_500,
          med: { state: "returned", protocol: second },
        });
        expect(returned.data.charge.attention).toBeNull();
        // Medusa's order records the MED's return as a refund, once.
        expect(await medusaRefunds(collectionId)).toEqual([3_500]);
        expect((await orderDetail(order.id)).payment_status).toBe("refunded");
        expect(await outcome(chargeId, { outcome: "returned" })).toMatchObject({
          status: 409,
          data: { code: "med_not_open" },
        });
        expect(await medusaRefunds(collectionId)).toEqual([3_500]);
        // The overview: neither blocked nor returned money is income; the MED's return apart.
        const after = await pixMonth();
        expect(after.income_cents).toBe(before.income_cents - 3_500);
        expect(after.contested_cents).toBe(before.contested_cents);
        expect(after.med_returned_cents).toBe(before.med_returned_cents + 3_500);
        expect(after.returned_cents).toBe(before.returned_cents + 3_500);

        // The ledger's entries: each move with its reason.
        const entries = await db(container())("pix_checkout_ledger_entry")
          .where({ charge_id: chargeId })
          .orderBy("seq", "asc");
        expect(
          entries
            .filter((e: Json) => e.reason.startsWith("med_"))
            .map((e: Json) => [e.from_part, e.to_part, Number(e.amount_cents), e.reason]),
        ).toEqual([
          ["captured", "contested", 2_000, "med_blocked"],
          ["contested", "captured", 2_000, "med_kept"],
          ["captured", "contested", 3_500, "med_blocked"],
          ["contested", "returned", 3_500, "med_returned"],
        ]);

        // The books: the MED's return is a refund line naming the protocol, with its reason.
        const today = saoPauloDay(new Date());
        const books = await admin(
          "get",
          `/admin/pix-checkout/reconciliation?from=${today}&to=${today}`,
        );
        expect(books.status).toBe(200);
        const line = (books.data.lines as Json[]).find(
          (l) => l.type === "refund" && l.id === chargeId,
        );
        expect(line?.declarations).toEqual([
          expect.objectContaining({
            amount_cents: 3_500,
            reason: "med_returned",
            note: `Devolvido pelo MED, protocolo ${second}`,
          }),
        ]);
        expect(line?.difference ?? null).toBeNull();
        // The charge's own line: Medusa's capture, once; the block lifted was no new capture.
        const chargeLine = (books.data.lines as Json[]).find(
          (l) => l.type === "charge" && l.id === chargeId,
        );
        expect(chargeLine).toMatchObject({ medusa_cents: 3_500, difference: null });
      });
    });

    it("a replaced code paid while the order placed on the current code awaits it: the refund_due and refunded messages carry the order as awaiting, as Medusa has it", async () => {
      // The two tabs: a R$ 35,00 code, then R$ 70,00 for the changed cart, the order
      // placed on the current, unpaid code, and the old code paid from the clipboard.
      const cartId = await createCartWithVariant(container(), store, product.variantId);
      const old = lastSession(await shop.initiate(cartId, "pp_pix_a"));
      const oldCharge = old.data.charge_id as string;
      const line = (await shop.cart(cartId)).data.cart.items[0];
      await shop.call("post", `/store/carts/${cartId}/line-items/${line.id}`, { quantity: 2 });
      lastSession(await shop.initiate(cartId, "pp_pix_a"));
      const completed = await shop.complete(cartId);
      expect(completed.data.type, JSON.stringify(completed.data)).toBe("order");
      const orderId = completed.data.order.id as string;
      await pay(oldCharge);
      await rowWhere(oldCharge, "the old code's money owed back", (r) => Number(r.owed_cents) > 0);

      const [due] = await sentFor(oldCharge, "pix-checkout-refund-due");
      expect(due!.data).toMatchObject({
        event: "refund_due",
        refund: { amount_cents: 3_500, reason: "paid_old_amount" },
        order: { id: orderId, display_id: expect.any(Number), payment: "awaiting" },
      });

      const returned = await admin("post", `/admin/pix-checkout/charges/${oldCharge}/refunds`, {
        amount: 3_500,
        note: "Pix devolvido",
      });
      expect(returned.status, JSON.stringify(returned.data)).toBe(200);
      expect(returned.data).toMatchObject({ recorded_in_medusa_cents: 0 });
      const [back] = await sentFor(oldCharge, "pix-checkout-refunded");
      expect(back!.data).toMatchObject({
        refund: { amount_cents: 3_500, reason: "paid_old_amount" },
        order: { id: orderId, payment: "awaiting" },
      });
    });
  },
});
