import path from "node:path";
import { medusaIntegrationTestRunner } from "@medusajs/test-utils";
import type { Sandbox } from "@pix-checkout/sandbox" with { "resolution-mode": "import" };
import type { INotificationModuleService } from "@medusajs/framework/types";
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils";
import {
  createCart,
  createStockedProduct,
  createStoreFixture,
  type StockedProduct,
  type StoreFixture,
} from "../helpers/store-fixture";
import { control, db, storefront, type Api, type Json } from "../helpers/checkout";
import { adminLogin } from "../helpers/admin-login";
import {
  adminClient,
  adminOrder,
  claimOrder,
  convertedDraftOrder,
  editOrder,
  exchangeOrder,
  exchangeReceivedOrder,
  markFulfilled,
  paidVariantOrder,
  unpaidCollection,
  type Admin,
} from "../helpers/order-changes";
import { copiedLink, openPage, tap } from "../helpers/payment-page";
import { waitFor } from "../helpers/wait-for";
import { chromium, type Browser } from "playwright-core";
import { remindOnce } from "../../src/internal/recovery/send-reminders";
import { settleContext } from "../../src/internal/settlement/context";
import { emailKey } from "../../src/internal/create-line/client-origin";

// Pix beyond the cart: what an order edit, exchange or claim leaves owed, and a converted draft
// order's total, paid from the page Medusa's "Copy payment link" opens (the plugin's own page,
// with the test app's `admin.storefrontUrl` on this server's /pix-checkout), through Medusa's
// own admin routes and the sandbox over HTTP.

const API_KEY = "sk_live_beyond_5ecret";
const WEBHOOK_SECRET = "whsec-test-a-0123456789";
let sandbox: Sandbox;

beforeAll(async () => {
  const { startSandbox } = await import("@pix-checkout/sandbox");
  sandbox = await startSandbox({ variant: "a", keys: [API_KEY] });
  // Every code is made on a São Paulo afternoon, whatever the hour the suite runs: the
  // reminders keep quiet at night.
  const day = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  await control(sandbox.url, "clock", { now: new Date(`${day}T13:00:00-03:00`).toISOString() });
  process.env.PIX_SANDBOX_A_URL = sandbox.baseUrl;
  process.env.PIX_API_KEY = API_KEY;
  process.env.PIX_NOTIFY = "1";
  process.env.PIX_RECOVERY = "1";
});

let browser: Browser | undefined;

afterAll(async () => {
  await browser?.close();
  await sandbox?.close();
  delete process.env.PIX_NOTIFY;
  delete process.env.PIX_RECOVERY;
});

medusaIntegrationTestRunner({
  cwd: path.join(__dirname, "..", "app"),
  testSuite: ({ api, getContainer }) => {
    let store: StoreFixture;
    let shop: ReturnType<typeof storefront>;
    let admin: Admin;
    let base: string;
    let product: StockedProduct;
    const container = () => getContainer();
    const notifications = () =>
      container().resolve<INotificationModuleService>(Modules.NOTIFICATION);
    const chargesOf = (collectionId: string) =>
      db(container())("pix_checkout_charge")
        .where({ payment_collection_id: collectionId })
        .orderBy("created_at");
    const emailsTo = async (email: string) =>
      (await notifications().listNotifications({ to: email })) as Json[];

    beforeAll(async () => {
      store = await createStoreFixture(container());
      shop = storefront(api as unknown as Api, store);
      base = (api as unknown as Api).defaults.baseURL as string;
      await control(sandbox.url, "webhook-urls", {
        url: `${base}/hooks/pix-checkout/a?token=${WEBHOOK_SECRET}`,
      });
      admin = adminClient(api as unknown as Api, await adminLogin(container(), "loja@example.com"));
      product = await createStockedProduct(container(), store, 100);
    });

    /** A paid order of `email` whose difference after `change` is collected by its page. */
    const paidOrder = (email: string) =>
      paidVariantOrder(container(), shop, store, sandbox.url, product.variantId, email);

    /**
     * Pays a charge in the sandbox and waits until Medusa's collection is completed and the
     * order's summary counts the capture (`owing`: what it still owes then, in reais).
     */
    async function payAndSettle(
      chargeId: string,
      orderId: string,
      collectionId: string,
      owing = 0,
    ) {
      expect((await control(sandbox.url, `charges/${chargeId}/pay`, {})).ok).toBe(true);
      return waitFor(
        async () => {
          const order = await adminOrder(admin, orderId);
          const collection = (order.payment_collections as Json[]).find(
            (pc) => pc.id === collectionId,
          );
          return (
            collection?.status === "completed" &&
            order.summary.pending_difference === owing &&
            order
          );
        },
        "the order to read paid in Medusa",
        30_000,
      );
    }

    it("collects an order edit's difference: the copied link opens a pt-BR page whose button makes one Pix code for exactly the outstanding amount, and once paid the page says Pagamento confirmado with the order number and Medusa's order reads fully paid", async () => {
      const email = `ana.${Date.now()}@example.com`;
      const { orderId } = await paidOrder(email);
      await editOrder(admin, orderId, product.variantId, 1);
      const collection = await unpaidCollection(admin, orderId);
      const order = await adminOrder(admin, orderId);
      expect(order.summary.pending_difference).toBe(35);

      const overview = async () =>
        (await admin("get", "/admin/pix-checkout/overview")).periods.month.pix as Json;
      const before = await overview();

      // The widget's line: the outstanding amount, Medusa's link, the order's WhatsApp.
      const widget = await admin("get", `/admin/pix-checkout/orders/${orderId}`);
      const link = copiedLink(collection.id, orderId);
      expect(widget.outstanding).toMatchObject({
        payment_collection_id: collection.id,
        amount: 3500,
        currency: "BRL",
        purpose: "order_edit",
        display_id: order.display_id,
        link,
        whatsapp: "5511987654321",
        email,
      });

      // Opening the link (twice, as a mail scanner and then the customer) only reads.
      const scanned = await openPage(base, link);
      const page = await openPage(base, link);
      expect(scanned.status).toBe(200);
      expect(page.title).toBe(`Diferença da edição do pedido #${order.display_id}`);
      expect(page.text).toContain("R$ 35,00");
      expect(page.html).toContain('lang="pt-BR"');
      expect(page.html).toContain("Gerar código Pix");
      expect(page.html).not.toContain(email);
      expect(page.headers.get("cache-control")).toBe("no-store");
      expect(page.headers.get("referrer-policy")).toBe("no-referrer");
      const csp = page.headers.get("content-security-policy") ?? "";
      expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/);
      expect(csp).toContain("connect-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(page.data).toMatchObject({
        collectionId: collection.id,
        pix: "pp_pix_a",
        boleto: "pp_boleto_a",
        sessionId: null,
        publishableKey: store.publishableKey,
      });
      expect((await unpaidCollection(admin, orderId)).payment_sessions).toEqual([]);

      // The button: one session of the plugin, one charge of exactly the difference.
      const made = await tap(base, page.data!, "pp_pix_a");
      expect(made.status).toBe(200);
      expect(made.session).toMatchObject({ provider_id: "pp_pix_a", amount: 35 });
      const [charge, ...more] = await chargesOf(collection.id);
      expect(more).toEqual([]);
      expect(charge).toMatchObject({
        session_id: made.session.id,
        amount_cents: "3500",
        purpose: "order_edit",
        sales_channel_id: store.salesChannelId,
      });
      // A reload shows the same code, never a second one.
      const reloaded = await openPage(base, link);
      expect(reloaded.data?.sessionId).toBe(made.session.id);
      const status = await fetch(`${base}/store/pix-checkout/sessions/${made.session.id}`, {
        headers: { "x-publishable-api-key": page.data!.publishableKey },
      }).then((r) => r.json());
      expect(status).toMatchObject({ status: "pending", amount: 3500 });
      expect(status.pix.copy_paste).toMatch(/^000201/);

      const paid = await payAndSettle(charge.charge_id, orderId, collection.id);
      expect(paid.summary.pending_difference).toBe(0);
      const after = await openPage(base, link);
      expect(after.status).toBe(200);
      expect(after.title).toBe("Pagamento confirmado");
      expect(after.text).toContain(`Pedido #${order.display_id}`);
      expect(after.data).toBeNull();
      const [settled] = await chargesOf(collection.id);
      expect(settled).toMatchObject({ status: "paid", captured_cents: "3500", owed_cents: "0" });
      expect((await admin("get", `/admin/pix-checkout/orders/${orderId}`)).outstanding).toBeNull();

      // The admin counts it, labelled by what it was for: the overview, the order's widget.
      const counted = await overview();
      expect(counted.paid_after_sale - before.paid_after_sale).toBe(1);
      expect(counted.paid_after_sale_cents - before.paid_after_sale_cents).toBe(3500);
      const card = (await admin("get", `/admin/pix-checkout/orders/${orderId}`)).charges as Json[];
      expect(card.find((c) => c.charge_id === charge.charge_id)?.purpose).toBe("order_edit");

      // The order's customer, whose mailbox paid an order here, got the code and the "paid"
      // message, with the order's name and the page's link.
      const sent = await waitFor(async () => {
        const mails = await emailsTo(email);
        const code = mails.find((n) => n.template === "pix-checkout-code");
        const done = mails.find(
          (n) => n.template === "pix-checkout-paid" && n.resource_id === charge.charge_id,
        );
        return code && done && { code, done };
      }, "the code and paid messages");
      expect(sent.code.resource_id).toBe(charge.charge_id);
      expect(sent.code.data).toMatchObject({
        amount: expect.stringMatching(/^R\$\s35,00$/),
        payment_page_url: link,
        order: { id: orderId, display_id: order.display_id },
        customer: { name: "Ana Souza", phone: "11987654321" },
      });
      expect(sent.done.data.order).toMatchObject({ id: orderId, display_id: order.display_id });
    });

    it("gives a converted draft order one collection from Cobrar por Pix, for what Medusa says it owes, and the same page collects it by boleto or Pix; the code e-mail does not go to a mailbox that never paid here", async () => {
      const email = `bruno.${Date.now()}@example.com`;
      const draftId = await convertedDraftOrder(admin, store, product.variantId, 2, email);
      const before = await admin("get", `/admin/pix-checkout/orders/${draftId}`);
      expect(before.outstanding).toMatchObject({
        payment_collection_id: null,
        amount: 7000,
        purpose: "order",
        link: null,
        whatsapp: "5511912345678",
      });

      const made = await admin("post", `/admin/pix-checkout/orders/${draftId}/payment-collection`);
      const collectionId = made.outstanding.payment_collection_id as string;
      expect(made.outstanding).toMatchObject({
        amount: 7000,
        link: copiedLink(collectionId, draftId),
      });
      // A second click makes nothing.
      const again = await (api as unknown as Api).request({
        method: "post",
        url: `/admin/pix-checkout/orders/${draftId}/payment-collection`,
        headers: await adminLogin(container(), `loja2.${Date.now()}@example.com`),
        validateStatus: () => true,
      });
      expect(again.status).toBe(409);
      expect(again.data.code).toBe("collection_exists");
      const order = await adminOrder(admin, draftId);
      expect(order.payment_collections).toHaveLength(1);
      expect(order.payment_collections[0]).toMatchObject({ id: collectionId, amount: 70 });

      const page = await openPage(base, made.outstanding.link);
      expect(page.title).toBe(`Pedido #${order.display_id}`);
      expect(page.text).toContain("R$ 70,00");
      expect(page.html).toContain("Prefiro pagar com boleto");
      expect(page.html).not.toContain('name="phone"'); // the order has one

      // Boleto: the page sends only what Medusa's address lacks; the rest is the order's.
      const boleto = await tap(base, page.data!, "pp_boleto_a", {
        document: "529.982.247-25",
        neighborhood: "Bela Vista",
        number: "1000",
      });
      expect(boleto.status).toBe(200);
      const [boletoCharge] = await chargesOf(collectionId);
      expect(boletoCharge).toMatchObject({
        method: "boleto",
        amount_cents: "7000",
        purpose: "order",
      });
      const shown = await openPage(base, made.outstanding.link);
      expect(shown.data?.sessionId).toBe(boleto.session.id);
      expect(shown.html).toContain("Pagar com Pix");

      // The customer takes Pix instead; Medusa replaces the boleto's session.
      const pix = await tap(base, shown.data!, "pp_pix_a");
      expect(pix.status).toBe(200);
      const charges = await chargesOf(collectionId);
      expect(charges.map((c: Json) => c.method)).toEqual(["boleto", "pix"]);
      const paid = await payAndSettle(charges[1].charge_id, draftId, collectionId);
      expect(paid.summary.pending_difference).toBe(0);
      expect((await openPage(base, made.outstanding.link)).title).toBe("Pagamento confirmado");

      // A first purchase's mailbox is not mailed the code (the page shows it); its "paid" goes.
      const mails = await waitFor(async () => {
        const found = await emailsTo(email);
        return found.some((n) => n.template === "pix-checkout-paid") && found;
      }, "the paid message");
      expect(mails.filter((n: Json) => n.template === "pix-checkout-code")).toEqual([]);
    });

    it("labels and collects an exchange's and a claim's positive difference the same way, an exchange's still once its returned item is received", async () => {
      const cases = [
        { change: exchangeOrder, label: "Diferença da troca do pedido", purpose: "exchange" },
        {
          change: exchangeReceivedOrder,
          label: "Diferença da troca do pedido",
          purpose: "exchange",
        },
        { change: claimOrder, label: "Diferença da reclamação do pedido", purpose: "claim" },
      ];
      for (const { change, label, purpose } of cases) {
        const { orderId, itemId } = await paidOrder(`carla.${purpose}.${Date.now()}@example.com`);
        await markFulfilled(container(), orderId, itemId);
        await change(admin, orderId, itemId, product.variantId, 2);
        const collection = await unpaidCollection(admin, orderId);
        const cents = Math.round(Number(collection.amount) * 100);
        expect(cents).toBeGreaterThan(0);
        const order = await adminOrder(admin, orderId);
        // What the change leaves owed beyond this collection (an exchange's return not yet
        // received is credited only when it is).
        const owing = order.summary.pending_difference - Number(collection.amount);
        const link = copiedLink(collection.id, orderId);
        const page = await openPage(base, link);
        expect(page.title).toBe(`${label} #${order.display_id}`);
        const made = await tap(base, page.data!, "pp_pix_a");
        expect(made.status).toBe(200);
        const [charge] = await chargesOf(collection.id);
        expect(charge).toMatchObject({ amount_cents: String(cents), purpose });
        await payAndSettle(charge.charge_id, orderId, collection.id, owing);
        expect((await openPage(base, link)).title).toBe("Pagamento confirmado");
        const [settled, ...more] = await chargesOf(collection.id);
        expect(more).toEqual([]);
        expect(settled.captured_cents).toBe(String(cents));
      }
    });

    it("reminds the order's customer of an unpaid code of its collection, never a mailbox that never paid here", async () => {
      const proven = `helena.${Date.now()}@example.com`;
      const { orderId } = await paidOrder(proven);
      await editOrder(admin, orderId, product.variantId, 1);
      const edited = await unpaidCollection(admin, orderId);
      const stranger = `igor.${Date.now()}@example.com`;
      const draftId = await convertedDraftOrder(admin, store, product.variantId, 1, stranger);
      const drafted = await admin(
        "post",
        `/admin/pix-checkout/orders/${draftId}/payment-collection`,
      );
      const codes = [];
      for (const link of [copiedLink(edited.id, orderId), drafted.outstanding.link as string]) {
        const page = await openPage(base, link);
        const made = await tap(base, page.data!, "pp_pix_a");
        expect(made.status).toBe(200);
        codes.push(
          await db(container())("pix_checkout_charge")
            .where({ session_id: made.session.id })
            .first(),
        );
      }
      // Ten minutes before the codes expire, the reminders' pass (as the job runs it).
      const due = new Date(
        Math.max(...codes.map((c: Json) => new Date(c.expires_at).getTime())) - 10 * 60_000 + 1_000,
      );
      await remindOnce(settleContext(container()), due);
      const reminders = async (chargeId: string) =>
        (await notifications().listNotifications({ resource_id: chargeId })).filter((n) =>
          String(n.trigger_type).startsWith("pix_checkout.reminder."),
        );
      const [toCustomer] = await reminders(codes[0].charge_id);
      expect(toCustomer).toMatchObject({ to: proven, template: "pix-checkout-pix-expiring" });
      expect((toCustomer!.data as Json).order).toMatchObject({ id: orderId });
      expect((toCustomer!.data as Json).payment_page_url).toBe(copiedLink(edited.id, orderId));
      expect(await reminders(codes[1].charge_id)).toEqual([]);
      const skipped = await db(container())("pix_checkout_reminder").where({
        charge_id: codes[1].charge_id,
      });
      expect(skipped.map((r: Json) => [r.state, r.reason])).toEqual([["skipped", "stranger"]]);
    });

    it("in a real browser at 390 px: the copied link, a boleto button the keyboard reaches and opens, Gerar código Pix, the code on screen, paid in the sandbox, Pagamento confirmado once and the amount once under the order's title, under the page's CSP", async () => {
      const { orderId } = await paidOrder(`fabio.${Date.now()}@example.com`);
      await editOrder(admin, orderId, product.variantId, 1);
      const collection = await unpaidCollection(admin, orderId);
      const order = await adminOrder(admin, orderId);
      browser ??= await chromium.launch({
        executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
        args: [
          "--no-sandbox",
          "--disable-gpu",
          "--disable-background-networking",
          "--disable-component-update",
          "--no-first-run",
        ],
      });
      const context = await browser.newContext({
        viewport: { width: 390, height: 844 },
        isMobile: true,
        hasTouch: true,
        locale: "pt-BR",
      });
      const page = await context.newPage();
      const problems: string[] = [];
      page.on("pageerror", (e) => problems.push(e.message));
      page.on("console", (m) => {
        // A failed load is told by its response below, with its URL.
        if (m.type() === "error" && !m.text().startsWith("Failed to load resource")) {
          problems.push(m.text());
        }
      });
      page.on("response", (r) => {
        // The browser's own favicon request is not the page's.
        if (r.status() >= 400 && !r.url().endsWith("/favicon.ico")) {
          problems.push(`${r.status()} ${r.url()}`);
        }
      });
      await page.goto(
        copiedLink(collection.id, orderId).replace("https://api.loja.example.com", base),
      );
      await page
        .getByRole("heading", { name: `Diferença da edição do pedido #${order.display_id}` })
        .waitFor();
      await page.getByText("R$ 35,00").first().waitFor();
      // How many times the shopper sees `text` on screen, light and shadow DOM alike: the text
      // nodes that say it (spaces, R$'s no-break one included, as one) in an element that is
      // visible and larger than a pixel (the element's announcement for screen readers is not
      // on screen).
      const shown = (text: string) =>
        page.evaluate((wanted) => {
          let count = 0;
          const visit = (root: Document | ShadowRoot) => {
            const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
              const parent = node.parentElement;
              if (!parent || (node.textContent ?? "").replace(/\s+/g, " ").trim() !== wanted) {
                continue;
              }
              if (parent.closest("script, style, title")) continue;
              const box = parent.getBoundingClientRect();
              if (parent.checkVisibility() && box.width > 1 && box.height > 1) count += 1;
            }
            for (const el of Array.from(root.querySelectorAll("*"))) {
              if (el.shadowRoot) visit(el.shadowRoot);
            }
          };
          visit(document);
          return count;
        }, text);
      // The boleto is offered by a button, next in the tab order after the Pix one, that opens
      // its form from the keyboard.
      const boletoToggle = page.getByRole("button", { name: "Prefiro pagar com boleto" });
      await page.getByRole("button", { name: "Gerar código Pix" }).focus();
      await page.keyboard.press("Tab");
      expect(await boletoToggle.evaluate((el) => el === document.activeElement)).toBe(true);
      expect(await boletoToggle.getAttribute("aria-expanded")).toBe("false");
      expect(await page.getByLabel("CPF ou CNPJ").isVisible()).toBe(false);
      await page.keyboard.press("Enter");
      expect(await boletoToggle.getAttribute("aria-expanded")).toBe("true");
      expect(await page.getByLabel("CPF ou CNPJ").isVisible()).toBe(true);
      await page.getByRole("button", { name: "Gerar código Pix" }).tap();
      // The element shows the code first on a phone, with its copy button.
      await page.getByRole("button", { name: "Copiar código Pix" }).waitFor({ timeout: 30_000 });
      const [charge] = await chargesOf(collection.id);
      const shownCode = await page
        .locator("pix-checkout")
        .evaluate(
          (el) =>
            (el.shadowRoot?.querySelector("[part~=code]") as HTMLInputElement | null)?.value ??
            el.shadowRoot?.textContent ??
            "",
        );
      expect(shownCode).toContain((charge.display as Json).pix.copy_paste);
      // The element says the amount; the page's own line gave way to it.
      expect(await shown("R$ 35,00")).toBe(1);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        390,
      );

      expect((await control(sandbox.url, `charges/${charge.charge_id}/pay`, {})).ok).toBe(true);
      await page
        .getByText("Pagamento confirmado", { exact: true })
        .first()
        .waitFor({ timeout: 30_000 });
      // Said once, the amount once, under the title that names the order.
      expect(await shown("Pagamento confirmado")).toBe(1);
      expect(await shown("R$ 35,00")).toBe(1);
      await page
        .getByRole("heading", { name: `Diferença da edição do pedido #${order.display_id}` })
        .waitFor();
      expect(await page.title()).toBe("Pagamento confirmado");
      // A reload is the server's paid page.
      await page.reload();
      await page.getByRole("heading", { name: "Pagamento confirmado" }).waitFor();
      expect(problems).toEqual([]);
      await context.close();
    });

    it("counts an order's collection in the create line by the order's mailbox: past its cap the page's button gets 429 and nothing is made", async () => {
      const email = `julia.${Date.now()}@example.com`;
      const { orderId } = await paidOrder(email);
      await editOrder(admin, orderId, product.variantId, 1);
      const collection = await unpaidCollection(admin, orderId);
      const page = await openPage(base, copiedLink(collection.id, orderId));
      const requests = () => db(container())("pix_checkout_create_request");
      const options = (
        container()
          .resolve(ContainerRegistrationKeys.CONFIG_MODULE)
          .plugins.find(
            (p: Json) => typeof p !== "string" && p.resolve === "@pix-checkout/medusa",
          ) as Json
      ).options;
      const saved = { ...options.fairness };
      // Two creates of this mailbox wait already, sent from other clients' carts.
      const waiting = [1, 2].map((n) => ({
        id: `pxcr_beyond_${Date.now()}_${n}`,
        budget_key: "beyond-test",
        provider_key: "a",
        provider_id: "pp_pix_a",
        method: "pix",
        session_id: `payses_beyond_${Date.now()}_${n}`,
        amount_cents: 1000,
        state: "waiting",
        client_key: `198.51.100.${n}`,
        email_key: emailKey(email),
      }));
      await requests().insert(waiting);
      try {
        options.fairness = { ...saved, emailWaitingMax: 2 };
        const refused = await tap(base, page.data!, "pp_pix_a");
        expect(refused.status).toBe(429);
        expect(refused.body).toMatchObject({ code: "too_many_waiting_creates", over: "email" });
        expect(await chargesOf(collection.id)).toEqual([]);
      } finally {
        options.fairness = saved;
        await requests()
          .whereIn(
            "id",
            waiting.map((w) => w.id),
          )
          .update({ state: "canceled" });
        await db(container())("pix_checkout_client_refusal").delete();
      }
      // Under the cap, the code is made, its place in the line the order's mailbox's.
      const made = await tap(base, page.data!, "pp_pix_a");
      expect(made.status).toBe(200);
      const request = await requests().where({ session_id: made.session.id }).first();
      expect(request).toMatchObject({ email_key: emailKey(email), state: "done" });
      expect(request.client_key).toEqual(expect.any(String));
    });

    it("refuses what is not an order's own collection to pay: a cart's, another order's id, an unknown id, a canceled order's; and the store route refuses the canceled order's too", async () => {
      const cartId = await createCart(container(), store, 20);
      const cartCollection = (
        await shop.call("post", "/store/payment-collections", { cart_id: cartId })
      ).data.payment_collection.id as string;
      const { orderId } = await paidOrder(`davi.${Date.now()}@example.com`);
      await editOrder(admin, orderId, product.variantId, 1);
      const collection = await unpaidCollection(admin, orderId);
      const other = await paidOrder(`eva.${Date.now()}@example.com`);

      for (const link of [
        copiedLink(cartCollection, orderId),
        copiedLink(collection.id, other.orderId),
        copiedLink("pay_col_01J00000000000000000000000", orderId),
        copiedLink("x'\"><script>", orderId),
        `${copiedLink(collection.id, orderId).split("?")[0]}`,
      ]) {
        const page = await openPage(base, link);
        expect(page.status, link).toBe(404);
        expect(page.title).toBe("Este link de pagamento não vale");
        expect(page.data).toBeNull();
      }

      const page = await openPage(base, copiedLink(collection.id, orderId));
      expect(page.status).toBe(200);
      await admin("post", `/admin/orders/${orderId}/cancel`);
      const canceled = await openPage(base, copiedLink(collection.id, orderId));
      expect(canceled.status).toBe(409);
      expect(canceled.text).toContain("Este pedido foi cancelado");
      const refused = await tap(base, page.data!, "pp_pix_a");
      expect(refused.status).toBe(409);
      expect(refused.body.code).toBe("order_canceled");
      expect(await chargesOf(collection.id)).toEqual([]);
    });
  },
});
