import path from "node:path";
import { medusaIntegrationTestRunner } from "@medusajs/test-utils";
import type { Sandbox } from "@pix-checkout/sandbox" with { "resolution-mode": "import" };
import { startAppSandboxes } from "../helpers/sandboxes";
import {
  createStockedProduct,
  createStoreFixture,
  type StoreFixture,
} from "../helpers/store-fixture";
import { control, db, storefront, type Api, type Json } from "../helpers/checkout";
import { adminLogin } from "../helpers/admin-login";
import {
  adminClient,
  adminOrder,
  editOrder,
  paidVariantOrder,
  unpaidCollection,
  type Admin,
} from "../helpers/order-changes";
import { waitFor } from "../helpers/wait-for";
import { saoPauloDay } from "@pix-checkout/client/books";

// The books' Pix discount after an order edit (issue 59, item 4), against a real Medusa and the
// sandbox: Medusa keeps every version's adjustments of an order, and the books must say what
// its current version does, once per order, however many of the order's payments the period
// holds. Medusa's own admin route is the measure, to the cent.

const API_KEY = "sk_live_books_edit_5ecret";
const WEBHOOK_SECRET = "whsec-test-a-0123456789";
let sandbox: Sandbox;
let sandboxB: Sandbox;

beforeAll(async () => {
  ({ a: sandbox, b: sandboxB } = await startAppSandboxes(API_KEY, {
    a: { webhookRetryDelaysMs: [300] },
  }));
});

afterAll(async () => {
  await sandbox?.close();
  await sandboxB?.close();
});

/** `400` as the CSV and the OFX's memo write it: `4,00`. */
const reais = (cents: number) =>
  `${Math.trunc(cents / 100)},${String(cents % 100).padStart(2, "0")}`;

medusaIntegrationTestRunner({
  cwd: path.join(__dirname, "..", "app"),
  testSuite: ({ api, getContainer }) => {
    const container = () => getContainer();
    const http = api as unknown as Api;
    let store: StoreFixture;
    let admin: Admin;
    let headers: Record<string, string>;
    const today = saoPauloDay(new Date());
    const period = `from=${today}&to=${today}`;

    /** A download of the books as the admin's buttons ask it. */
    const download = (file: string, extra: Record<string, unknown> = {}) =>
      http.request({
        method: "get",
        url: `/admin/pix-checkout/${file}?${period}`,
        headers,
        validateStatus: () => true,
        ...extra,
      });

    /**
     * The Pix discount Medusa's order page shows: its current version's adjustments of the
     * plugin's promotion, as Medusa's own admin route reads them, in cents.
     */
    async function medusaPixDiscount(orderId: string): Promise<number> {
      const { order } = await admin(
        "get",
        `/admin/orders/${orderId}?fields=id,discount_total,*items,*items.adjustments`,
      );
      const cents = (order.items as Json[])
        .flatMap((item) => item.adjustments as Json[])
        .filter((adjustment) => adjustment.code === "DESCONTO-PIX")
        .reduce((sum, adjustment) => sum + Math.round(Number(adjustment.amount) * 100), 0);
      // The plugin's is the order's only promotion here: Medusa's discount total says the same.
      expect(Math.round(Number(order.discount_total) * 100)).toBe(cents);
      return cents;
    }

    /** Waits until the ledger holds none of a charge's money for Medusa's capture. */
    const settled = (chargeId: string) =>
      waitFor(async () => {
        const row = await db(container())("pix_checkout_charge")
          .where({ charge_id: chargeId })
          .first();
        return row?.status === "paid" && Number(row.held_cents) === 0 ? row : undefined;
      }, `the ledger's capture of ${chargeId}`);

    beforeAll(async () => {
      store = await createStoreFixture(container());
      await control(sandbox.url, "webhook-urls", {
        url: `${http.defaults.baseURL}/hooks/pix-checkout/a?token=${WEBHOOK_SECRET}`,
      });
      headers = await adminLogin(container(), "contadora@example.com");
      admin = adminClient(http, headers);
      // 5 % off by Pix, as the merchant sets it on the Desconto no Pix tab.
      await admin("post", "/admin/pix-checkout/pix-discount", {
        enabled: true,
        type: "percentage",
        value: 5,
      });
    });

    it("an order edited after its Pix sale: the CSV's and the OFX's Pix discount are Medusa's order's, to the cent, once per order, and the Desconto no Pix tab shows their sum", async () => {
      const shop = storefront(http, store);
      // Order #1 of the issue: R$ 79,90 with R$ 4,00 off by Pix; and a second order, not edited.
      const caneca = await createStockedProduct(container(), store, 10, 79.9);
      const copo = await createStockedProduct(container(), store, 10, 33.33);
      const edited = await paidVariantOrder(
        container(),
        shop,
        store,
        sandbox.url,
        caneca.variantId,
        "ana@example.com",
      );
      const plain = await paidVariantOrder(
        container(),
        shop,
        store,
        sandbox.url,
        copo.variantId,
        "bia@example.com",
      );
      expect(await medusaPixDiscount(edited.orderId)).toBe(400);

      // The merchant adds a unit through Medusa's order edit API: request, add, confirm.
      await editOrder(admin, edited.orderId, caneca.variantId, 1);
      const order = await adminOrder(admin, edited.orderId);
      expect(order.summary.pending_difference).toBe(79.9);
      // Medusa now keeps the discount's adjustment of both versions; its order says one.
      const versions = await db(container())("order_line_item_adjustment")
        .where({ item_id: edited.itemId, code: "DESCONTO-PIX" })
        .select("version");
      expect(versions.map((row) => row.version).sort()).toEqual([1, 2]);
      const discounts = {
        edited: await medusaPixDiscount(edited.orderId),
        plain: await medusaPixDiscount(plain.orderId),
      };
      expect(discounts).toEqual({ edited: 400, plain: 167 });

      // The customer pays the edit's difference by Pix: a second payment of the same order.
      const collection = await unpaidCollection(admin, edited.orderId);
      const made = await shop.call(
        "post",
        `/store/payment-collections/${collection.id}/payment-sessions`,
        { provider_id: "pp_pix_a" },
      );
      expect(made.status).toBe(200);
      const session = (made.data.payment_collection.payment_sessions as Json[]).find(
        (s) => s.provider_id === "pp_pix_a",
      );
      const difference = await waitFor(
        async () =>
          (await db(container())("pix_checkout_charge")
            .where({ session_id: session.id })
            .first()) ?? undefined,
        "the difference's code",
      );
      expect(difference).toMatchObject({ amount_cents: "7990", purpose: "order_edit" });
      await control(sandbox.url, `charges/${difference.charge_id}/pay`, {});
      const charges = await db(container())("pix_checkout_charge")
        .whereIn("payment_collection_id", [
          ...(order.payment_collections as Json[]).map((pc) => pc.id),
        ])
        .orWhere({ charge_id: difference.charge_id });
      for (const charge of charges) await settled(charge.charge_id);
      const plainCharge = await db(container())("pix_checkout_charge")
        .where({ status: "paid", amount_cents: 3166 })
        .first();
      await settled(plainCharge.charge_id);
      const sale = charges.find((c) => c.purpose === "cart")!;
      expect(sale).toMatchObject({ amount_cents: "7590" });

      // The CSV: the edited order's discount on its sale's row only, the column adding up to
      // what Medusa's orders say.
      const csv = await download("reconciliation.csv");
      expect(csv.status).toBe(200);
      const rows = String(csv.data)
        .replace(/^\uFEFF/, "")
        .split("\r\n")
        .map((row) => row.split(";"));
      const header = rows[0]!;
      const column = (name: string) => header.indexOf(name);
      const [charge, discount, purpose] = [
        column("Cobrança"),
        column("Desconto no Pix"),
        column("Finalidade"),
      ];
      const rowOf = (chargeId: string) => rows.find((row) => row[charge] === chargeId)!;
      expect([rowOf(sale.charge_id)[discount], rowOf(sale.charge_id)[purpose]]).toEqual([
        reais(discounts.edited),
        "Carrinho",
      ]);
      expect([rowOf(difference.charge_id)[discount], rowOf(difference.charge_id)[purpose]]).toEqual(
        ["", "Edição do pedido"],
      );
      expect(rowOf(plainCharge.charge_id)[discount]).toBe(reais(discounts.plain));
      const total = rows.find((row) => row[1] === "Total de cobranças")!;
      expect(total[discount]).toBe(reais(discounts.edited + discounts.plain));

      // The OFX: the same discounts in the memos, each order's once (on its sale and its fee).
      const { parseSync } = await import("ofx-js");
      const ofx = await download("reconciliation.ofx", { responseType: "arraybuffer" });
      expect(ofx.status).toBe(200);
      const statement = parseSync(new TextDecoder("windows-1252").decode(ofx.data as ArrayBuffer))
        .OFX.BANKMSGSRSV1.STMTTRNRS.STMTRS;
      const credits = ([statement.BANKTRANLIST.STMTTRN].flat() as Record<string, string>[]).filter(
        (t) => t.TRNTYPE === "CREDIT",
      );
      const memoDiscount = (memo = "") => {
        const found = / - desconto no Pix (\d+),(\d{2})/.exec(memo);
        return found ? Number(found[1]) * 100 + Number(found[2]) : 0;
      };
      const memoOf = (chargeId: string) => credits.find((t) => t.FITID === chargeId)?.MEMO;
      expect(memoDiscount(memoOf(sale.charge_id))).toBe(discounts.edited);
      expect(memoOf(difference.charge_id)).not.toContain("desconto");
      expect(memoOf(difference.charge_id)).toContain("diferença da edição");
      expect(memoDiscount(memoOf(plainCharge.charge_id))).toBe(discounts.plain);
      expect(credits.reduce((sum, t) => sum + memoDiscount(t.MEMO), 0)).toBe(
        discounts.edited + discounts.plain,
      );

      // The Desconto no Pix tab's figure: the same books, the same sum, and two orders.
      const cost = await download("pix-discount/cost");
      expect(cost.status).toBe(200);
      expect(cost.data.pix_discount_cost).toEqual({
        period: { from: today, to: today },
        cents: discounts.edited + discounts.plain,
        orders: 2,
      });
    });

    it("the Desconto no Pix tab's figure refuses a period the books refuse, saying what to fix", async () => {
      const answer = await http.request({
        method: "get",
        url: "/admin/pix-checkout/pix-discount/cost?from=2026-01-01&to=2026-03-01",
        headers,
        validateStatus: () => true,
      });
      expect(answer.status).toBe(400);
      expect(answer.data.code).toBe("invalid_period");
      expect(answer.data.message).toMatch(/compare at most 31/);
    });
  },
});
