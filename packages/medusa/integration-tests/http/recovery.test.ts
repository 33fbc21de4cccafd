import http from "node:http";
import path from "node:path";
import { medusaIntegrationTestRunner } from "@medusajs/test-utils";
import { chromium } from "playwright-core";
import type { Sandbox } from "@pix-checkout/sandbox" with { "resolution-mode": "import" };
import type { INotificationModuleService } from "@medusajs/framework/types";
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils";
import { updateProductVariantsWorkflow } from "@medusajs/medusa/core-flows";
import {
  createCart,
  createCartWithVariant,
  createStockedProduct,
  createStoreFixture,
  type StoreFixture,
} from "../helpers/store-fixture";
import {
  BOLETO_PAYER,
  capturesOfSession,
  control,
  db,
  orderOfCart,
  storefront,
  type Api,
  type Json,
} from "../helpers/checkout";
import { waitFor } from "../helpers/wait-for";
import { startSmtpInbox, type SmtpInbox } from "../helpers/smtp-inbox";
import {
  paidOrderFrom,
  paidOrdersFrom,
  signUpThroughStore,
  takeCart,
} from "../helpers/shopper-mailbox";
import { adminLogin } from "../helpers/admin-login";
import { decodeQrPng } from "../helpers/qr-decode";
import { remindOnce } from "../../src/internal/recovery/send-reminders";
import { businessDayBefore } from "../../src/internal/checkout/reminder-cadence";
import { endOfBusinessDaysAfter, isBusinessDay } from "../../src/internal/platform/business-days";
import { takeMailDaySlot, takeMailWindow } from "../../src/internal/storefront/mail-window";
import { settleContext } from "../../src/internal/settlement/context";
import { emailKey } from "../../src/internal/create-line/client-origin";
import {
  ADDRESS_HITS_PER_WINDOW,
  LINK_WINDOW_MS,
  TOKEN_HITS_PER_WINDOW,
} from "../../src/internal/recovery/link-request";

// The reminders about unpaid codes (option `recovery`), on a moved clock: the sandbox's clock
// puts every code in a São Paulo afternoon (outside the quiet hours whatever the hour the suite
// runs), and each reminders' pass is given its `now`, as the scheduled job gives the real one.
// The messages are really delivered: over SMTP, to a server this file starts.

const API_KEY = "sk_live_recovery_5ecret";
const WEBHOOK_SECRET = "whsec-test-a-0123456789";
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

let sandbox: Sandbox;
let inbox: SmtpInbox;

/** `YYYY-MM-DD` of an instant in São Paulo. */
const saoPauloDayOf = (at: Date) =>
  at.toLocaleDateString("en-CA", { timeZone: "America/Sao_Paulo" });

/** The calendar day `days` after `day` (`YYYY-MM-DD`). */
const nextDayOf = (day: string, days = 1) =>
  new Date(Date.parse(`${day}T12:00:00Z`) + days * DAY).toISOString().slice(0, 10);

/**
 * 13:00 in São Paulo on the first day after today (São Paulo's today, not UTC's: from 21:00 there
 * UTC's date is already the next day) whose boleto has every step of its cadence: the sandbox's
 * boleto falls due 3 bank business days after it is made, and one made on the business day
 * before a due date has no "due tomorrow" (the plugin rightly leaves it out). Every test's codes
 * are made from there on.
 */
function tomorrowAfternoon(): Date {
  const today = saoPauloDayOf(new Date());
  for (let days = 1; ; days += 1) {
    const at = new Date(new Date(`${today}T13:00:00-03:00`).getTime() + days * DAY);
    const due = saoPauloDayOf(endOfBusinessDaysAfter(at, 3));
    if (businessDayBefore(due) > saoPauloDayOf(at)) return at;
  }
}

beforeAll(async () => {
  const { startSandbox } = await import("@pix-checkout/sandbox");
  sandbox = await startSandbox({ variant: "a", keys: [API_KEY], webhookRetryDelaysMs: [300] });
  await control(sandbox.url, "clock", { now: tomorrowAfternoon().toISOString() });
  process.env.PIX_SANDBOX_A_URL = sandbox.baseUrl;
  process.env.PIX_API_KEY = API_KEY;
  process.env.PIX_NOTIFY = "1";
  process.env.PIX_RECOVERY = "1";
  inbox = await startSmtpInbox();
  process.env.PIX_SMTP_PORT = String(inbox.port);
});

afterAll(async () => {
  await sandbox?.close();
  await inbox?.close();
  delete process.env.PIX_SMTP_PORT;
});

medusaIntegrationTestRunner({
  cwd: path.join(__dirname, "..", "app"),
  testSuite: ({ api, getContainer }) => {
    let store: StoreFixture;
    let shop: ReturnType<typeof storefront>;
    let base: string;
    const container = () => getContainer();
    const notifications = () =>
      container().resolve<INotificationModuleService>(Modules.NOTIFICATION);

    beforeAll(async () => {
      store = await createStoreFixture(container());
      shop = storefront(api as unknown as Api, store);
      base = (api as unknown as Api).defaults.baseURL as string;
      await control(sandbox.url, "webhook-urls", {
        url: `${base}/hooks/pix-checkout/a?token=${WEBHOOK_SECRET}`,
      });
    });

    /** One reminders' pass at `now`, as the scheduled job runs it. */
    const pass = (now: Date) => remindOnce(settleContext(container()), now);
    const sessionOf = (response: { data: Json }) =>
      response.data.payment_collection.payment_sessions[0] as { id: string; data: Json };
    const charge = (chargeId: string) =>
      db(container())("pix_checkout_charge").where({ charge_id: chargeId }).first();
    const reminderRows = (chargeId: string) =>
      db(container())("pix_checkout_reminder").where({ charge_id: chargeId }).orderBy("created_at");
    const remindersOf = async (chargeId: string) =>
      (await notifications().listNotifications({ resource_id: chargeId })).filter((n) =>
        String(n.trigger_type).startsWith("pix_checkout.reminder."),
      );
    /**
     * Lets a Pix code expire unpaid at the service, waits for the store to record it, runs the
     * pass 5 minutes later, and returns the "new code" messages the cart got.
     */
    async function newCodeMessagesAfterExpiry(chargeId: string, expiresAt: Date) {
      await control(sandbox.url, "clock", {
        now: new Date(expiresAt.getTime() + 1_000).toISOString(),
      });
      await waitFor(
        async () => (await charge(chargeId)).status === "expired",
        "the expiry to be recorded",
      );
      await pass(new Date(expiresAt.getTime() + 5 * MINUTE + 1_000));
      return (await remindersOf(chargeId)).filter(
        (n) => n.template === "pix-checkout-pix-expired-new-code",
      );
    }

    /** The store's name as Medusa holds it, which the links' pages carry in their header. */
    const storeNameOf = async () => {
      const query = container().resolve(ContainerRegistrationKeys.QUERY);
      const { data } = await query.graph({ entity: "store", fields: ["name"] });
      return String((data[0] as Json).name);
    };

    /** A link of a message, on the test server instead of the configured public address. */
    const local = (url: string) => url.replace("https://api.loja.example.com", base);
    /**
     * Opens a message's link as a phone does, without following a redirect; with `from`, from
     * that loopback address (127.0.0.2, ...), so the store sees another client.
     */
    const open = (
      url: string,
      { method = "GET", body, from }: { method?: string; body?: string; from?: string } = {},
    ) =>
      new Promise<Response>((resolve, reject) => {
        const request = http.request(
          local(url),
          {
            method,
            ...(from ? { agent: new http.Agent({ localAddress: from, keepAlive: false }) } : {}),
            headers: body ? { "content-type": "application/x-www-form-urlencoded" } : {},
          },
          (response) => {
            const chunks: Buffer[] = [];
            response.on("data", (chunk: Buffer) => chunks.push(chunk));
            response.on("end", () => {
              const headers = new Headers();
              for (const [name, value] of Object.entries(response.headers)) {
                if (value !== undefined) headers.set(name, String(value));
              }
              resolve(
                new Response(Buffer.concat(chunks), { status: response.statusCode, headers }),
              );
            });
          },
        );
        request.on("error", reject);
        request.end(body);
      });

    /** Makes `email` a mailbox with a paid order here (helpers/shopper-mailbox.ts). */
    const proveMailbox = (email: string) =>
      paidOrderFrom(container(), shop, store, sandbox.url, email);

    /**
     * A cart of `reais` (or the given `cart`) with a code on screen, of a mailbox of its own that
     * paid an order here before (`proven`), or of one only typed into the cart.
     */
    async function shownCode(
      reais: number,
      provider: "pp_pix_a" | "pp_boleto_a",
      {
        proven = true,
        email = `bia.${Date.now()}.${Math.random().toString(36).slice(2, 6)}@example.com`,
        cart,
      }: { proven?: boolean; email?: string; cart?: string } = {},
    ) {
      if (proven) await proveMailbox(email);
      const cartId = cart ?? (await createCart(container(), store, reais));
      expect((await shop.call("post", `/store/carts/${cartId}`, { email })).status).toBe(200);
      const created = await shop.initiate(
        cartId,
        provider,
        provider === "pp_boleto_a" ? { ...BOLETO_PAYER, email } : {},
      );
      expect(created.status).toBe(200);
      const session = sessionOf(created);
      // What the element sends once its page shows the code.
      expect((await shop.shown(session.id)).status).toBe(204);
      const chargeId = session.data.charge_id as string;
      const row = await charge(chargeId);
      return { cartId, email, session, chargeId, row };
    }

    it("recalls a Pix code 10 minutes before it expires, then offers the same cart a new code that is paid", async () => {
      const { cartId, email, session, chargeId, row } = await shownCode(87.4, "pp_pix_a");
      const expiresAt = new Date(row.expires_at);
      expect(new Date(row.next_reminder_at)).toEqual(new Date(expiresAt.getTime() - 10 * MINUTE));

      await pass(new Date(expiresAt.getTime() - 11 * MINUTE));
      expect(await remindersOf(chargeId)).toHaveLength(0);

      // Two instances' passes at the same moment: one message.
      const due = new Date(expiresAt.getTime() - 10 * MINUTE + 1_000);
      await Promise.all([pass(due), pass(due)]);
      expect(await remindersOf(chargeId)).toHaveLength(1);
      const [expiring] = await remindersOf(chargeId);
      expect(expiring?.template).toBe("pix-checkout-pix-expiring");
      expect(expiring?.to).toBe(email);
      const data = expiring!.data as Json;
      expect(data.reminder.step).toBe("pix_expiring");
      expect(data.pix.copy_paste).toBe(session.data.pix.copy_paste);
      expect(await decodeQrPng(data.pix.qr_png_base64)).toBe(session.data.pix.copy_paste);
      expect(data.payment_page_url).toBe(`https://loja.example.com/pagar/${session.id}`);
      expect(data.reminder.new_code_url).toBeNull();
      expect(data.reminder.opt_out_url).toMatch(
        /^https:\/\/api\.loja\.example\.com\/pix-checkout\/recovery\/[\w-]{32}\/opt-out$/,
      );
      expect(JSON.stringify(data)).not.toContain(API_KEY);

      // A later pass sends nothing more for the step.
      await pass(new Date(expiresAt.getTime() - 9 * MINUTE));
      expect(await remindersOf(chargeId)).toHaveLength(1);

      // A pass that died between the message and its record: the next one finishes the step
      // without a second message (the message's idempotency key).
      await db(container())("pix_checkout_reminder")
        .where({ charge_id: chargeId, step: "pix_expiring" })
        .update({ state: "sending", sent_at: null, claimed_until: new Date(0) });
      await db(container())("pix_checkout_charge_event")
        .where({ charge_id: chargeId, kind: "reminder_sent" })
        .delete();
      await db(container())("pix_checkout_charge")
        .where({ charge_id: chargeId })
        .update({ next_reminder_at: due });
      await pass(new Date(expiresAt.getTime() - 8 * MINUTE));
      expect(await remindersOf(chargeId)).toHaveLength(1);
      expect((await reminderRows(chargeId)).map((r: Json) => r.state)).toEqual(["sent"]);

      // The code expires unpaid: the service says so, and 5 minutes later the cart gets a link.
      const [expired] = await newCodeMessagesAfterExpiry(chargeId, expiresAt);
      const link = (expired?.data as Json).reminder.new_code_url as string;
      expect(link).toMatch(
        /^https:\/\/api\.loja\.example\.com\/pix-checkout\/recovery\/[\w-]{32}$/,
      );
      expect((expired?.data as Json).pix).toBeUndefined(); // The expired code is not offered again.

      // Opening the link shows the cart's page, under the store's name, and a button; the
      // button (a POST to the same address) checks the cart is still for sale at that price and
      // answers the page that makes the new code with Medusa's own store route (the element's
      // own call; the browser test below runs it), then opens the payment page on it.
      const shown = await open(link);
      expect(shown.status).toBe(200);
      const page = await shown.text();
      expect(page).toContain("Seu carrinho continua aqui");
      expect(page).toContain(
        `<header><a href="https://loja.example.com/">${await storeNameOf()}</a></header>`,
      );
      expect(page).toContain(
        '<form method="post"><button class="button" type="submit">Gerar novo código</button></form>',
      );
      expect(page).not.toContain(link.split("/").pop()!); // the page never writes its token
      // The button's redirect to the storefront (or, for an order's own collection, to the
      // payment page admin.storefrontUrl names) is allowed by the page's own policy, and nothing
      // else is.
      expect(shown.headers.get("content-security-policy")).toContain(
        "form-action 'self' https://loja.example.com https://api.loja.example.com;",
      );
      const followed = await open(link, { method: "POST" });
      expect(followed.status).toBe(200);
      const making = JSON.parse(
        /<script type="application\/json" id="pix-new-code">([\s\S]*?)<\/script>/.exec(
          await followed.text(),
        )![1]!,
      );
      expect(making).toMatchObject({
        collectionId: (await cartState(cartId)).cart.payment_collection.id,
        providerId: "pp_pix_a",
        pageTemplate: "https://loja.example.com/pagar/{session_id}",
      });
      expect(followed.headers.get("content-security-policy")).toMatch(
        /script-src 'nonce-[^']+'; connect-src 'self';/,
      );
      const renewed = sessionOf(await shop.initiate(cartId, "pp_pix_a"));
      expect(renewed.data.charge_id).not.toBe(chargeId);
      const before = await overview();
      await control(sandbox.url, `charges/${renewed.data.charge_id}/pay`, {});
      await waitFor(async () => (await orderOfCart(container(), cartId)) ?? false, "the order");
      await waitFor(
        async () => Number((await charge(renewed.data.charge_id)).captured_cents) > 0,
        "its capture",
      );

      // The admin counts it recovered, to the cent; the books say the payment followed a reminder.
      const after = await overview();
      expect(after.pix.paid_after_reminder - before.pix.paid_after_reminder).toBe(1);
      expect(after.pix.paid_after_reminder_cents - before.pix.paid_after_reminder_cents).toBe(8740);
      // The order's widget shows the code's reminders on its timeline.
      const order = await orderOfCart(container(), cartId);
      const widget = await adminGet(`/admin/pix-checkout/orders/${order!.id}`);
      const timeline = (widget.charges as Json[]).find((c) => c.charge_id === chargeId).timeline;
      expect(
        timeline.filter((e: Json) => e.kind === "reminder_sent").map((e: Json) => e.reminder),
      ).toEqual([{ step: "pix_expiring" }, { step: "pix_expired" }]);
      // Nothing more goes to a paid cart.
      await pass(new Date(expiresAt.getTime() + 60 * MINUTE));
      expect(await remindersOf(renewed.data.charge_id)).toHaveLength(0);
    });

    it("in a real browser, the expired code's link makes the new code in one tap: the store's page without a word in red, Gerar novo código, and the payment page opens on a new, payable code", async () => {
      const { cartId, chargeId, row, session } = await shownCode(64.3, "pp_pix_a");
      const [message] = await newCodeMessagesAfterExpiry(chargeId, new Date(row.expires_at));
      const link = (message!.data as Json).reminder.new_code_url as string;
      const browser = await chromium.launch({
        executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
        args: ["--no-sandbox", "--disable-gpu", "--no-first-run"],
      });
      try {
        const context = await browser.newContext({
          viewport: { width: 390, height: 844 },
          isMobile: true,
          hasTouch: true,
          locale: "pt-BR",
        });
        // The storefront's payment page, where the new code is shown; here only its address.
        await context.route("https://loja.example.com/**", (route) =>
          route.fulfill({ status: 200, contentType: "text/html", body: "<p>pagar</p>" }),
        );
        const page = await context.newPage();
        const problems: string[] = [];
        page.on("pageerror", (e) => problems.push(e.message));
        page.on("console", (m) => m.type() === "error" && problems.push(m.text()));
        await page.goto(local(link));
        await page.getByRole("heading", { name: "Seu carrinho continua aqui" }).waitFor();
        await page.getByRole("link", { name: await storeNameOf() }).waitFor();
        expect(await page.locator("main").innerText()).not.toMatch(/expirado|expirou/i);
        await page.getByRole("button", { name: "Gerar novo código" }).tap();
        await page.waitForURL(/^https:\/\/loja\.example\.com\/pagar\/payses_\w+$/, {
          timeout: 30_000,
        });
        const landed = decodeURIComponent(page.url().split("/").pop()!);
        expect(landed).not.toBe(session.id);
        // The code the page opens on is the cart's new one, live at the service, for the cart.
        const fresh = await db(container())("pix_checkout_charge")
          .where({ session_id: landed })
          .first();
        expect(fresh).toMatchObject({ status: "pending", method: "pix" });
        expect(fresh.charge_id).not.toBe(chargeId);
        expect(Number(fresh.amount_cents)).toBe(6430);
        const state = await cartState(cartId);
        expect(fresh.payment_collection_id).toBe(state.cart.payment_collection.id);
        expect(problems).toEqual([]);
      } finally {
        await browser.close();
      }
    });

    it("writes about a boleto the business day before it falls due, on the due date, and after the grace period", async () => {
      const { chargeId, row, email } = await shownCode(142.9, "pp_boleto_a");
      const display = row.display as Json;
      const first = new Date(row.next_reminder_at);
      await pass(new Date(first.getTime() - MINUTE));
      expect(await remindersOf(chargeId)).toHaveLength(0);

      const sent: Json[] = [];
      const dues: Date[] = [];
      const spDay = (at: Date) => at.toLocaleDateString("en-CA", { timeZone: "America/Sao_Paulo" });
      for (let k = 0; k < 3; k += 1) {
        const due = new Date((await charge(chargeId)).next_reminder_at);
        dues.push(due);
        // Each at 9:00 in São Paulo.
        expect(
          due.toLocaleTimeString("en-GB", {
            timeZone: "America/Sao_Paulo",
            hour: "2-digit",
            minute: "2-digit",
          }),
        ).toBe("09:00");
        await pass(new Date(due.getTime() + 1_000));
        sent.push(...(await remindersOf(chargeId)).slice(sent.length));
      }
      // "Tomorrow" on a weekday before the due date, "today" on the due date, then after it.
      expect(spDay(dues[0]!) < display.boleto.due_date).toBe(true);
      expect([0, 6]).not.toContain(new Date(`${spDay(dues[0]!)}T12:00:00Z`).getUTCDay());
      expect(spDay(dues[1]!)).toBe(display.boleto.due_date);
      expect(spDay(dues[2]!) > display.boleto.due_date).toBe(true);
      expect(sent.map((n) => n.template)).toEqual([
        "pix-checkout-boleto-due-tomorrow",
        "pix-checkout-boleto-due-today",
        "pix-checkout-boleto-overdue",
      ]);
      expect(sent.every((n) => n.to === email)).toBe(true);
      const [tomorrow, today, overdue] = sent.map((n) => n.data as Json);
      expect(tomorrow.boleto.digitable_line).toBe(display.boleto.digitable_line);
      expect(tomorrow.boleto.url).toBe(display.boleto.url);
      expect(today.boleto.due_date).toBe(display.boleto.due_date);
      expect(overdue.boleto).toBeUndefined();
      expect(overdue.reminder.new_code_url).toMatch(/\/pix-checkout\/recovery\/[\w-]{32}$/);
      expect((await charge(chargeId)).next_reminder_at).toBeNull();
      expect(overdue.reminder.checkout_url).toBe("https://loja.example.com/checkout");
      // Opened: a button for a new boleto, or Pix at the checkout.
      const shown = await open(overdue.reminder.new_code_url);
      expect(shown.status).toBe(200);
      const page = await shown.text();
      expect(page).toContain(">Gerar novo boleto</button></form>");
      expect(page).toContain('href="https://loja.example.com/checkout"');
      // Its button: same cart, same price, a new boleto on the payment page, or Pix at the checkout.
      const followed = await open(overdue.reminder.new_code_url, { method: "POST" });
      expect(followed.status).toBe(200);
      const html = await followed.text();
      expect(html).toContain(`href="https://loja.example.com/pagar/${row.session_id}"`);
      expect(html).toContain("Gerar novo boleto");
      expect(html).toContain('href="https://loja.example.com/checkout"');
      expect(html).toContain("Pagar com Pix");
    });

    it("sends nothing for a code paid before its reminder, and nothing to a mailbox a stranger typed", async () => {
      const paid = await shownCode(33.1, "pp_pix_a");
      await control(sandbox.url, `charges/${paid.chargeId}/pay`, {});
      await waitFor(async () => (await charge(paid.chargeId)).status === "paid", "the payment");
      const stranger = await shownCode(35.2, "pp_pix_a", { proven: false });
      for (const { row } of [paid, stranger]) {
        await pass(new Date(new Date(row.expires_at).getTime() - 10 * MINUTE + 1_000));
      }
      expect(await remindersOf(paid.chargeId)).toHaveLength(0);
      expect(await remindersOf(stranger.chargeId)).toHaveLength(0);
      expect(
        (await reminderRows(paid.chargeId)).map((r: Json) => [r.step, r.state, r.reason]),
      ).toEqual([["pix_expiring", "skipped", "paid"]]);
      expect((await reminderRows(stranger.chargeId)).map((r: Json) => r.reason)).toEqual([
        "stranger",
      ]);
    });

    it("mails no code and no reminder to a mailbox a client made an account and an unpaid boleto order for; a mailbox with a paid order gets both", async () => {
      const http = api as unknown as Api;
      const stamp = Date.now();
      const stranger = `vitima.${stamp}@example.com`;
      // Any client can do this with anyone's address: an account through the store API,
      // unverified, logged in.
      const account = await signUpThroughStore(http, store, stranger);

      // An order-first boleto order of that account: an order exists, unpaid.
      const boletoCart = await createCart(container(), store, 61.3);
      expect((await takeCart(http, account, boletoCart)).email).toBe(stranger);
      const boleto = sessionOf(
        await shop.initiate(boletoCart, "pp_boleto_a", { ...BOLETO_PAYER, email: stranger }),
      );
      const completed = await shop.complete(boletoCart);
      expect(completed.data.type).toBe("order");
      const show = async (sessionId: string) =>
        expect((await shop.shown(sessionId)).status).toBe(204);
      await show(boleto.id);
      // Then a Pix code on another cart of the account, shown on its page.
      const pixCart = await createCart(container(), store, 47.9);
      expect((await takeCart(http, account, pixCart)).email).toBe(stranger);
      const pix = sessionOf(await shop.initiate(pixCart, "pp_pix_a"));
      await show(pix.id);
      const strangerPix = await charge(pix.data.charge_id as string);
      const strangerBoleto = await charge(boleto.data.charge_id as string);
      expect(strangerPix.shown_at).not.toBeNull();

      // A shopper whose mailbox paid an order here shows a code too: its e-mail arrives (after
      // the stranger's events, which went first).
      const buyer = `compradora.${stamp}@example.com`;
      const own = await shownCode(52.4, "pp_pix_a", { email: buyer });
      const delivered = (to: string, subject: string) =>
        inbox.mails.filter(
          (m) => m.subject === subject && m.to && JSON.stringify(m.to).includes(to),
        );
      const [code] = await waitFor(
        async () =>
          delivered(buyer, "pix-checkout-code").length > 0 && delivered(buyer, "pix-checkout-code"),
        "the code e-mail over SMTP",
      );
      expect(JSON.parse(code!.text!).pix.copy_paste).toBe(own.session.data.pix.copy_paste);

      // The reminders' passes when each is due: the buyer is reminded, the stranger is not.
      await pass(new Date(new Date(strangerPix.expires_at).getTime() - 10 * MINUTE + 1_000));
      await pass(new Date(new Date(own.row.expires_at).getTime() - 10 * MINUTE + 1_000));
      await pass(new Date(new Date(strangerBoleto.next_reminder_at).getTime() + 1_000));
      expect(delivered(buyer, "pix-checkout-pix-expiring")).toHaveLength(1);
      const steps = async (chargeId: string) =>
        (await reminderRows(chargeId)).map((r: Json) => [r.step, r.state, r.reason]);
      expect(await steps(strangerPix.charge_id)).toContainEqual([
        "pix_expiring",
        "skipped",
        "stranger",
      ]);
      expect(await steps(strangerBoleto.charge_id)).toContainEqual([
        expect.stringMatching(/^boleto_/),
        "skipped",
        "stranger",
      ]);
      for (const chargeId of [strangerPix.charge_id, strangerBoleto.charge_id]) {
        expect((await steps(chargeId)).filter(([, state]) => state !== "skipped")).toEqual([]);
      }
      // Nothing at all reached the stranger's mailbox: no code, no boleto, no reminder.
      expect(inbox.mails.filter((m) => JSON.stringify(m.to ?? "").includes(stranger))).toEqual([]);
    });

    it("a payment whose webhook never came is found by the reminder's own check, captured once, and not reminded of", async () => {
      const { cartId, chargeId, row, session } = await shownCode(29.7, "pp_pix_a");
      await control(sandbox.url, "faults", { webhook_drop_rate: 1 });
      try {
        await control(sandbox.url, `charges/${chargeId}/pay`, {});
        await sandbox.webhooksIdle();
        expect((await charge(chargeId)).status).toBe("pending");
        await pass(new Date(new Date(row.expires_at).getTime() - 10 * MINUTE + 1_000));
      } finally {
        await fetch(`${sandbox.url}/__sandbox/faults`, { method: "DELETE" });
      }
      expect(await remindersOf(chargeId)).toHaveLength(0);
      expect((await reminderRows(chargeId)).map((r: Json) => r.reason)).toEqual(["paid"]);
      expect((await charge(chargeId)).status).toBe("paid");
      await waitFor(async () => (await orderOfCart(container(), cartId)) ?? false, "the order");
      expect(await capturesOfSession(container(), session.id)).toBe(1);
    });

    it("stops every reminder to a mailbox from the link in its message, with a button a mail scanner does not press", async () => {
      const first = await shownCode(41.5, "pp_pix_a");
      await pass(new Date(new Date(first.row.expires_at).getTime() - 10 * MINUTE + 1_000));
      const [message] = await remindersOf(first.chargeId);
      const optOut = (message!.data as Json).reminder.opt_out_url as string;

      const page = await open(optOut);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain("Parar lembretes");
      expect(html).toContain('<form method="post">');
      // The page holds the message's token: no script, no referrer, never cached.
      expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
      expect(page.headers.get("referrer-policy")).toBe("no-referrer");
      expect(page.headers.get("cache-control")).toBe("no-store");
      expect(
        await db(container())("pix_checkout_reminder_opt_out").count({ n: "*" }).first(),
      ).toEqual({ n: "0" });

      // The page names the mailbox, masked, never whole.
      expect(html).toContain(`@${first.email.split("@")[1]}`);
      expect(html).not.toContain(first.email);
      const done = await open(optOut, { method: "POST", body: "List-Unsubscribe=One-Click" });
      expect(done.status).toBe(200);
      expect(await done.text()).toContain("lembretes desligados");
      // A second visit says they are already off, and offers no button.
      const later = await (await open(optOut)).text();
      expect(later).toContain("Os lembretes já estão desligados");
      expect(later).not.toContain('<form method="post">');

      // The same mailbox, typed differently (case, a +tag), with another cart: no reminder.
      const again = await shownCode(44.4, "pp_pix_a", {
        email: first.email.replace("@", "+Promo@").toUpperCase(),
      });
      await pass(new Date(new Date(again.row.expires_at).getTime() - 10 * MINUTE + 1_000));
      expect(await remindersOf(again.chargeId)).toHaveLength(0);
      expect((await reminderRows(again.chargeId)).map((r: Json) => r.reason)).toEqual([
        "opted_out",
      ]);

      // A made-up token opts nobody out.
      const forged = await open(`${base}/pix-checkout/recovery/${"x".repeat(32)}/opt-out`, {
        method: "POST",
      });
      expect(forged.status).toBe(404);
    });

    it("keeps one mailbox to its messages a day, whatever the carts and spellings", async () => {
      const mailbox = `dia.${Date.now()}`;
      const codes = [];
      for (const tag of ["a", "b", "c", "d"]) {
        // Four carts, four spellings (each paid an order before), one mailbox: `+tag` and case
        // are folded.
        codes.push(await shownCode(21.1, "pp_pix_a", { email: `${mailbox}+${tag}@Example.com` }));
      }
      const latest = Math.max(...codes.map((c) => new Date(c.row.expires_at).getTime()));
      await pass(new Date(latest - 10 * MINUTE + 1_000));
      const rows = (await Promise.all(codes.map((c) => reminderRows(c.chargeId)))).flat();
      expect(rows.filter((r: Json) => r.state === "sent")).toHaveLength(3); // codeMailsPerDay
      expect(rows.filter((r: Json) => r.reason === "mailbox_limit")).toHaveLength(1);
      const reminders = (await Promise.all(codes.map((c) => remindersOf(c.chargeId)))).flat();
      expect(reminders).toHaveLength(3);
    });

    it("counts the code e-mails and the reminders of a mailbox against one limit a day", async () => {
      // The suite's clock puts reminders on another day than the code e-mails the real clock
      // sends, so the shared count is read where it lives: one row per mailbox and day.
      const email = `partilha.${Date.now()}@example.com`;
      const knex = db(container());
      const today = new Date();
      expect(await takeMailWindow(knex, email, 30, 3)).toBe(true); // the code e-mail
      expect(await takeMailDaySlot(knex, email.toUpperCase(), 3, today)).toBe(true);
      expect(await takeMailDaySlot(knex, email.replace("@", "+x@"), 3, today)).toBe(true);
      expect(await takeMailDaySlot(knex, email, 3, today)).toBe(false);
      // Nor does a code e-mail get past the day's limit once reminders spent it (no window here).
      expect(await takeMailWindow(knex, email, 0, 3)).toBe(false);
    });

    it("says what changed when the cart no longer costs what the code asked", async () => {
      const { cartId, chargeId, row } = await shownCode(52.0, "pp_pix_a");
      const expiresAt = new Date(row.expires_at);
      const [message] = await newCodeMessagesAfterExpiry(chargeId, expiresAt);
      // The shopper's cart changed meanwhile: one more line.
      const carts = container().resolve(Modules.CART);
      await carts.addLineItems(cartId, [
        { title: "Meia", quantity: 1, unit_price: 19.9, requires_shipping: false },
      ]);
      const link = (message!.data as Json).reminder.new_code_url as string;
      // Opening the link only shows the cart's page; its button prices the cart and tells.
      expect((await open(link)).status).toBe(200);
      const page = await open(link, { method: "POST" });
      expect(page.status).toBe(409);
      const html = await page.text();
      expect(html).toContain("O valor do carrinho mudou");
      expect(html).toContain("R$ 52,00");
      expect(html).toContain("R$ 71,90");
      expect(html).toContain("R$ 19,90 a mais");
      expect(html).toContain("1 × Meia");
    });

    /**
     * What a new-code link could change: the cart's lines and total, its payment collection and
     * sessions, and its codes (their status, whether replaced).
     */
    async function cartState(cartId: string) {
      const query = container().resolve(ContainerRegistrationKeys.QUERY);
      const { data } = await query.graph({
        entity: "cart",
        fields: [
          "total",
          "items.id",
          "items.unit_price",
          "items.updated_at",
          "payment_collection.id",
          "payment_collection.amount",
          "payment_collection.payment_sessions.id",
          "payment_collection.payment_sessions.status",
          "payment_collection.payment_sessions.amount",
          "payment_collection.payment_sessions.data",
        ],
        filters: { id: cartId },
      });
      const cart = data[0] as Json;
      const codes = await db(container())("pix_checkout_charge")
        .where({ payment_collection_id: cart.payment_collection.id })
        .orderBy("created_at")
        .select("charge_id", "status", "superseded_at", "amount_cents", "deleted_at");
      return JSON.parse(JSON.stringify({ cart, codes }));
    }

    it("opening a new-code link twice changes neither the cart, its sessions nor its code, even when prices moved; its button prices the cart again", async () => {
      const product = await createStockedProduct(container(), store);
      const cart = await createCartWithVariant(container(), store, product.variantId);
      const { chargeId, row, session } = await shownCode(35, "pp_pix_a", { cart });
      const [message] = await newCodeMessagesAfterExpiry(chargeId, new Date(row.expires_at));
      const link = (message!.data as Json).reminder.new_code_url as string;
      // The product costs more now: the next time Medusa prices the cart, its line changes and
      // its payment sessions are deleted.
      await updateProductVariantsWorkflow(container()).run({
        input: {
          selector: { id: product.variantId },
          update: { prices: [{ amount: 42, currency_code: "brl" }] },
        },
      });
      const before = await cartState(cart);
      expect(before.cart.items[0].unit_price).toBe(35);
      expect(before.cart.payment_collection.payment_sessions.map((s: Json) => s.id)).toContain(
        session.id,
      );

      // A mail scanner, then the shopper: two visits, the same page, nothing changed.
      for (const visit of [1, 2]) {
        const page = await open(link);
        expect(page.status, `visit ${visit}`).toBe(200);
        expect(await page.text()).toContain("Seu carrinho continua aqui");
      }
      expect(await cartState(cart)).toEqual(before);

      // The page's button prices the cart as Medusa would, and says what changed.
      const repriced = await open(link, { method: "POST" });
      expect(repriced.status).toBe(409);
      const html = await repriced.text();
      expect(html).toContain("O valor do carrinho mudou");
      expect(html).toContain("R$ 35,00");
      expect(html).toContain("R$ 42,00");
      expect(html).toContain(`href="https://loja.example.com/pagar/${session.id}"`);
      const after = await cartState(cart);
      expect(after.cart.items[0].unit_price).toBe(42);
      expect(after.cart.payment_collection.payment_sessions.map((s: Json) => s.id)).not.toContain(
        session.id,
      );
    });

    it("a link past its days says it expired and what to do, and acts on nothing", async () => {
      const { cartId, chargeId, row, email } = await shownCode(38.6, "pp_pix_a");
      const [message] = await newCodeMessagesAfterExpiry(chargeId, new Date(row.expires_at));
      const { new_code_url: newCode, opt_out_url: optOut } = (message!.data as Json).reminder;
      const knex = db(container());
      /** The message went `days` ago, about a code that expired then. */
      const sentDaysAgo = async (days: number) => {
        const then = new Date(Date.now() - days * DAY);
        await knex("pix_checkout_charge")
          .where({ charge_id: chargeId })
          .update({ expires_at: then });
        await knex("pix_checkout_reminder")
          .where({ charge_id: chargeId, step: "pix_expired" })
          .update({ sent_at: then });
      };
      await sentDaysAgo(6);
      expect((await open(newCode)).status).toBe(200); // still within its 7 days

      await sentDaysAgo(8);
      const before = await cartState(cartId);
      for (const method of ["GET", "POST"]) {
        const page = await open(newCode, { method });
        expect(page.status, method).toBe(410);
        const html = await page.text();
        expect(html).toContain("Este link expirou");
        expect(html).toContain("vale por 7 dias depois que o código vence");
        expect(html).toContain('href="https://loja.example.com/checkout"');
        expect(html).toContain("Voltar à loja");
      }
      expect(await cartState(cartId)).toEqual(before);
      // Stopping the reminders works longer: 60 days.
      expect((await open(optOut)).status).toBe(200);

      await sentDaysAgo(61);
      for (const method of ["GET", "POST"]) {
        const page = await open(optOut, { method });
        expect(page.status, method).toBe(410);
        expect(await page.text()).toContain("use o link do e-mail mais recente");
      }
      expect(
        await knex("pix_checkout_reminder_opt_out")
          .where({ email_key: emailKey(email) })
          .first(),
      ).toBeUndefined();
    });

    it("answers 429 with Retry-After past a message's limit from any address, and past an address's limit for any message", async () => {
      const messageLink = async () => {
        const { chargeId, row } = await shownCode(27.3, "pp_pix_a");
        await pass(new Date(new Date(row.expires_at).getTime() - 10 * MINUTE + 1_000));
        const [message] = await remindersOf(chargeId);
        return (message!.data as Json).reminder.opt_out_url as string;
      };
      const expectTooMany = async (page: Response) => {
        expect(page.status).toBe(429);
        const retryAfter = Number(page.headers.get("retry-after"));
        expect(retryAfter).toBeGreaterThan(0);
        expect(retryAfter).toBeLessThanOrEqual(LINK_WINDOW_MS / 1000);
        expect(page.headers.get("cache-control")).toBe("no-store");
        expect(await page.text()).toContain("Muitas tentativas em pouco tempo");
      };

      // One message, two addresses taking turns: the message's limit holds across them.
      const link = await messageLink();
      for (let k = 0; k < TOKEN_HITS_PER_WINDOW; k += 1) {
        expect((await open(link, { from: k % 2 ? "127.0.0.11" : "127.0.0.10" })).status).toBe(200);
      }
      await expectTooMany(await open(link, { from: "127.0.0.10" }));
      await expectTooMany(await open(link, { method: "POST", from: "127.0.0.12" }));
      // Neither address is limited for another message.
      const forged = `${base}/pix-checkout/recovery/${"y".repeat(32)}/opt-out`;
      expect((await open(forged, { from: "127.0.0.11" })).status).toBe(404);

      // One address, many messages (made-up ones: the limit counts before any lookup).
      const other = await messageLink();
      for (let k = 0; k < ADDRESS_HITS_PER_WINDOW; k += 1) {
        const guess = `${base}/pix-checkout/recovery/${k.toString(36).padStart(32, "g")}`;
        expect((await open(guess, { from: "127.0.0.20" })).status).toBe(404);
      }
      await expectTooMany(await open(other, { from: "127.0.0.20" }));
      // The same message from another address is served.
      expect((await open(other, { from: "127.0.0.21" })).status).toBe(200);
    });

    it("opening a made-up link or payment page (a GET) writes nothing: not a row in any of the plugin's tables", async () => {
      const knex = db(container());
      const rowsOfPlugin = async () => {
        const tables = (await knex("information_schema.tables")
          .where("table_schema", "public")
          .where("table_name", "like", "pix\\_checkout\\_%")
          .pluck("table_name")) as string[];
        const counts: Record<string, number> = {};
        for (const table of tables) {
          counts[table] = Number((await knex(table).count("* as n").first())?.n ?? 0);
        }
        return counts;
      };
      const before = await rowsOfPlugin();
      expect(Object.keys(before)).toContain("pix_checkout_link_hit");
      const id = (k: number) => `${k}`.padStart(64, "z");
      for (let k = 0; k < 5; k += 1) {
        const from = `127.0.0.${40 + k}`;
        expect((await open(`${base}/pix-checkout/recovery/${id(k)}`, { from })).status).toBe(404);
        expect(
          (await open(`${base}/pix-checkout/recovery/${id(k)}/opt-out`, { from })).status,
        ).toBe(404);
        const page = await open(
          `${base}/pix-checkout/payment-collection/${id(k)}?order_id=${id(k)}`,
          {
            from,
          },
        );
        expect(page.status).toBe(404);
      }
      expect(await rowsOfPlugin()).toEqual(before);
    });

    // The mix: carts whose shoppers pay at once, after the reminder, after the new code, or
    // never (half of those stop the reminders from the first message), in equal shares. In
    // `npm test` 24 carts; `bench/recovery-mix.mjs` runs this same test with 200
    // (RECOVERY_MIX_CARTS) and prints what it wrote to RECOVERY_MIX_OUT. Each shopper paid an
    // order here before (the mailboxes a reminder may go to), so it takes longer than a minute.
    it(
      "a mix of carts: the admin's recuperados are what the run did, to the cent, and no paid or opted-out cart gets a reminder",
      async () => {
        const carts = Number(process.env.RECOVERY_MIX_CARTS ?? 24);
        // Every mix shopper bought here before, from one of eight addresses: mailboxes that
        // proved themselves, paid before the figures are first read.
        const stamp = Date.now();
        const emailOf = (k: number) => `mix.${k}.${stamp}@example.com`;
        await paidOrdersFrom(
          container(),
          store,
          sandbox.url,
          Array.from({ length: carts }, (_, k) => ({
            email: emailOf(k),
            shop: storefront(api as unknown as Api, store, laneOf(k)),
          })),
        );
        const started = Date.now();
        const groups = ["at_once", "after_reminder", "after_new_code", "never"] as const;
        type Shopper = Awaited<ReturnType<typeof mixCode>> & {
          group: (typeof groups)[number];
          optsOut: boolean;
          cents: number;
          k: number;
        };
        const shoppers: Shopper[] = [];
        const before = await overview();
        for (let k = 0; k < carts; k += 1) {
          const group = groups[k % groups.length]!;
          // Distinct amounts, so a sum that counts one cart twice or misses one cannot match.
          const cents = 2_000 + 37 * k;
          const code = await mixCode(cents, k, emailOf(k));
          shoppers.push({ ...code, group, optsOut: group === "never" && k % 8 === 3, cents, k });
        }
        const latest = Math.max(...shoppers.map((s) => new Date(s.row.expires_at).getTime()));
        const earliest = Math.min(...shoppers.map((s) => new Date(s.row.expires_at).getTime()));
        expect(latest - earliest).toBeLessThan(8 * MINUTE); // one pass time fits every cart

        // Some shoppers who pay at once send the bank another amount: more (the code's amount is
        // the order's, the rest owed back) or less (held for the merchant): money the figures
        // must put apart from the income, to the cent.
        const OVER = 123;
        const SHORT = 100;
        const bankSends = (s: Shopper) =>
          s.group !== "at_once" ? 0 : s.k % 16 === 4 ? OVER : s.k % 16 === 8 ? -SHORT : 0;
        const paid = async (who: Shopper[], chargeOf: (s: Shopper) => string) => {
          for (const shopper of who) {
            if (bankSends(shopper) !== 0) {
              await control(sandbox.url, `transactions/${chargeOf(shopper)}/amount`, {
                amount: shopper.cents + bankSends(shopper),
              });
            }
            await control(sandbox.url, `charges/${chargeOf(shopper)}/pay`, {});
          }
          // Paid, and its money captured for the order or held for the merchant (what the
          // admin's figures read).
          for (const shopper of who) {
            await waitFor(async () => {
              const row = await charge(chargeOf(shopper));
              return Number(row.captured_cents) > 0 || row.held_reason === "underpaid";
            }, "a payment captured or held");
          }
        };
        const of = (group: Shopper["group"]) => shoppers.filter((s) => s.group === group);
        const passUntilDone = async (now: Date) => {
          let sent = 0;
          for (;;) {
            const report = await pass(now);
            sent += report.sent;
            if (report.due === 0) return sent;
          }
        };

        await paid(of("at_once"), (s) => s.chargeId);
        // The first pass when the earliest code left unpaid is due its reminder (the earliest
        // code of all is paid at once, and the next may be more than a second younger).
        const firstDue = Math.min(
          ...shoppers
            .filter((s) => s.group !== "at_once")
            .map((s) => new Date(s.row.expires_at).getTime()),
        );
        const firstSent = await passUntilDone(new Date(firstDue - 10 * MINUTE + 1_000));
        await passUntilDone(new Date(latest - 10 * MINUTE + 1_000));
        expect(firstSent).toBeGreaterThan(0);
        for (const shopper of shoppers.filter((s) => s.optsOut)) {
          const [message] = await remindersOf(shopper.chargeId);
          const link = (message!.data as Json).reminder.opt_out_url as string;
          expect((await open(link, { method: "POST", from: shopper.from })).status).toBe(200);
        }
        // The service's clock follows the passes', so these payments come after their reminders.
        await control(sandbox.url, "clock", {
          now: new Date(latest - 10 * MINUTE + 2_000).toISOString(),
        });
        await paid(of("after_reminder"), (s) => s.chargeId);

        await control(sandbox.url, "clock", { now: new Date(latest + 1_000).toISOString() });
        const unpaid = [...of("after_new_code"), ...of("never")];
        for (const shopper of unpaid) {
          await waitFor(
            async () => (await charge(shopper.chargeId)).status === "expired",
            "an expiry",
          );
        }
        await passUntilDone(new Date(latest + 5 * MINUTE + 1_000));
        const renewed = new Map<string, string>();
        for (const shopper of of("after_new_code")) {
          const message = (await remindersOf(shopper.chargeId)).find(
            (n) => (n.data as Json).reminder.step === "pix_expired",
          );
          // Each shopper opens the link, then taps its button, from their own address.
          const link = (message!.data as Json).reminder.new_code_url as string;
          expect((await open(link, { from: shopper.from })).status).toBe(200);
          // The button's answer makes the new code (its script, as mixRenew does here).
          expect((await open(link, { method: "POST", from: shopper.from })).status).toBe(200);
          const next = await mixRenew(shopper);
          renewed.set(shopper.chargeId, next);
        }
        await paid(of("after_new_code"), (s) => renewed.get(s.chargeId)!);

        // What the admin shows is what happened.
        const after = await overview();
        const recovered = [...of("after_reminder"), ...of("after_new_code")];
        const sum = (list: Shopper[]) => list.reduce((total, s) => total + s.cents, 0);
        expect(after.pix.paid - before.pix.paid).toBe(carts - of("never").length);
        expect(after.pix.paid_after_reminder - before.pix.paid_after_reminder).toBe(
          recovered.length,
        );
        expect(after.pix.paid_after_reminder_cents - before.pix.paid_after_reminder_cents).toBe(
          sum(recovered),
        );
        const atOnce = of("at_once");
        const short = atOnce.filter((s) => bankSends(s) < 0);
        const over = atOnce.filter((s) => bankSends(s) > 0);
        expect(short.length + over.length).toBeGreaterThan(0);
        expect(after.pix.income_cents - before.pix.income_cents).toBe(
          sum(recovered) + sum(atOnce) - sum(short),
        );
        expect(after.pix.owed_cents - before.pix.owed_cents).toBe(OVER * over.length);
        expect(after.pix.held_cents - before.pix.held_cents).toBe(
          sum(short) - SHORT * short.length,
        );
        // And every figure the merchant sees agrees with the ledger: the overview, the balance
        // card, the transactions list. (Their books are the chaos run's and reconciliation's: the
        // service dates these payments tomorrow afternoon, a day the books cannot be asked for.)
        const knex = db(container());
        const { ledgerFigureDisagreements } =
          await import("../../../../test/support/ledger-figures.mjs");
        expect(
          await ledgerFigureDisagreements({
            admin: adminGet,
            sql: async (text, params) =>
              (await knex.raw(text.replace(/\$\d+/g, "?"), params as never[])).rows,
            registrations: ["a"],
            day: null,
          }),
        ).toEqual([]);

        // No paid cart got a reminder after its payment; no opted-out mailbox got anything after.
        const steps = async (s: Shopper) =>
          (await remindersOf(s.chargeId)).map((n) => (n.data as Json).reminder.step as string);
        for (const shopper of of("at_once")) expect(await steps(shopper)).toEqual([]);
        for (const shopper of of("after_reminder"))
          expect(await steps(shopper)).toEqual(["pix_expiring"]);
        for (const shopper of of("after_new_code")) {
          expect(await steps(shopper)).toEqual(["pix_expiring", "pix_expired"]);
          expect(await remindersOf(renewed.get(shopper.chargeId)!)).toEqual([]);
        }
        for (const shopper of of("never")) {
          expect(await steps(shopper)).toEqual(
            shopper.optsOut ? ["pix_expiring"] : ["pix_expiring", "pix_expired"],
          );
        }
        if (process.env.RECOVERY_MIX_OUT) {
          const { writeFileSync } = await import("node:fs");
          writeFileSync(
            process.env.RECOVERY_MIX_OUT,
            JSON.stringify({
              carts,
              seconds: Math.round((Date.now() - started) / 1000),
              recovered: recovered.length,
              recovered_cents: sum(recovered),
              admin_recovered: after.pix.paid_after_reminder - before.pix.paid_after_reminder,
              admin_recovered_cents:
                after.pix.paid_after_reminder_cents - before.pix.paid_after_reminder_cents,
              opted_out: shoppers.filter((s) => s.optsOut).length,
              income_cents: after.pix.income_cents - before.pix.income_cents,
              owed_cents: after.pix.owed_cents - before.pix.owed_cents,
              held_cents: after.pix.held_cents - before.pix.held_cents,
              figures_agree: true,
            }),
          );
        }
        // Its time grows with the carts (about 1.5 s each to a code on a busy 2-core machine, and as
        // much for the order each shopper paid before); bench/recovery-mix.mjs runs 200.
      },
      Math.max(300_000, Number(process.env.RECOVERY_MIX_CARTS ?? 24) * 16_000),
    );

    /** One of eight loopback addresses (the create line serves each client its share). */
    const laneOf = (k: number) => `127.0.0.${2 + (k % 8)}`;

    /** A mix cart's code, of mailbox `email`, from its lane's address. */
    async function mixCode(cents: number, k: number, email: string) {
      const from = laneOf(k);
      const client = storefront(api as unknown as Api, store, from);
      const cartId = await createCart(container(), store, cents / 100);
      expect((await client.call("post", `/store/carts/${cartId}`, { email })).status).toBe(200);
      const row = await codeOnScreen(client, cartId);
      return { cartId, email, chargeId: row.charge_id as string, row, from };
    }

    /** What the payment page's "Gerar novo código" does: a new session of the same cart. */
    async function mixRenew(shopper: { cartId: string; from: string }): Promise<string> {
      const client = storefront(api as unknown as Api, store, shopper.from);
      return (await codeOnScreen(client, shopper.cartId)).charge_id as string;
    }

    /**
     * A new Pix session of the cart, once its shopper's page shows the code: a code past the
     * service's 60 creates a minute waits its turn in the create line. Returns its charge row.
     */
    async function codeOnScreen(client: ReturnType<typeof storefront>, cartId: string) {
      const created = await client.initiate(cartId, "pp_pix_a");
      expect(created.status).toBe(200);
      const session = sessionOf(created);
      return waitFor(
        async () => {
          const view = await client.call("get", `/store/pix-checkout/sessions/${session.id}`);
          if (!view.data?.pix?.copy_paste) return false;
          // What the element sends once its page shows the code.
          expect((await client.shown(session.id)).status).toBe(204);
          return db(container())("pix_checkout_charge").where({ session_id: session.id }).first();
        },
        "the code to be on screen",
        150_000,
      );
    }

    let adminHeaders: Record<string, string> | undefined;
    /** An admin route's answer, as the logged-in merchant's dashboard reads it. */
    async function adminGet(url: string): Promise<Json> {
      adminHeaders ??= await adminLogin(container(), `lojista.${Date.now()}@example.com`);
      const response = await (api as unknown as Api).request({
        method: "get",
        url,
        headers: adminHeaders,
        validateStatus: () => true,
      });
      expect(response.status).toBe(200);
      return response.data;
    }

    /** The overview's last 30 days. */
    const overview = async (): Promise<Json> =>
      (await adminGet("/admin/pix-checkout/overview")).periods.month;

    // Last in the file: it moves the sandbox's clock days ahead, and its clock only moves forward.
    it("a boleto made on a Thursday is due the Tuesday after (boletoDueDays 3, business days): the store shows that day, the reminders go on business days and name it", async () => {
      // The first Thursday ahead of the suite's clock with a plain weekend after it. The issue's
      // Thursday 26/11/2026 may be behind that clock, which never moves back: the week is the same.
      const clockDay = saoPauloDayOf(new Date(sandbox.clock.now()));
      let thursday = nextDayOf(clockDay);
      while (
        new Date(`${thursday}T12:00:00Z`).getUTCDay() !== 4 ||
        ![0, 1, 4, 5].every((days) => isBusinessDay(nextDayOf(thursday, days)))
      ) {
        thursday = nextDayOf(thursday);
      }
      const [friday, monday, tuesday] = [1, 4, 5].map((days) => nextDayOf(thursday, days));
      const ddmm = `${tuesday!.slice(8)}/${tuesday!.slice(5, 7)}`;
      await control(sandbox.url, "clock", { now: `${thursday}T13:00:00-03:00` });

      const { session, chargeId, row, email } = await shownCode(119.9, "pp_boleto_a");
      const endOf = (day: string) => new Date(`${day}T23:59:59.999-03:00`);
      // Friday, Monday, Tuesday: the sandbox and the store count the same three business days.
      expect((row.display as Json).boleto.due_date).toBe(tuesday);
      expect(new Date(row.expires_at)).toEqual(endOf(tuesday!));
      const view = await shop.call("get", `/store/pix-checkout/sessions/${session.id}`);
      expect(view.data.boleto.due_date).toBe(tuesday);
      // The grace counts from the real due date: Wednesday, Thursday, Friday.
      expect(new Date(row.order_hold_until)).toEqual(endOf(nextDayOf(tuesday!, 3)));

      // "Due tomorrow" on Monday, not on Friday nor the weekend.
      expect(new Date(row.next_reminder_at)).toEqual(new Date(`${monday}T09:00:00-03:00`));
      await pass(new Date(`${friday}T09:00:01-03:00`));
      expect(await remindersOf(chargeId)).toHaveLength(0);
      await pass(new Date(`${monday}T09:00:01-03:00`));
      const [tomorrow] = await remindersOf(chargeId);
      expect(tomorrow!.template).toBe("pix-checkout-boleto-due-tomorrow");
      expect((tomorrow!.data as Json).boleto.due_date).toBe(tuesday);
      expect((tomorrow!.data as Json).reminder.due_when).toBe(`amanhã, terça-feira, ${ddmm}`);
      // As the shopper's mailbox got it.
      await waitFor(
        async () =>
          inbox.mails.some(
            (m) =>
              JSON.stringify(m.to ?? "").includes(email) &&
              String(m.text ?? "").includes(`amanhã, terça-feira, ${ddmm}`),
          ),
        "the due-tomorrow mail",
      );

      expect(new Date((await charge(chargeId)).next_reminder_at)).toEqual(
        new Date(`${tuesday}T09:00:00-03:00`),
      );
      await pass(new Date(`${tuesday}T09:00:01-03:00`));
      const today = (await remindersOf(chargeId)).find(
        (n) => n.template === "pix-checkout-boleto-due-today",
      );
      expect((today!.data as Json).reminder.due_when).toBe(`hoje, terça-feira, ${ddmm}`);
      // Overdue on the first business day after the grace: the Monday after.
      const overdueAt = new Date(`${nextDayOf(tuesday!, 6)}T09:00:00-03:00`);
      expect(new Date((await charge(chargeId)).next_reminder_at)).toEqual(overdueAt);

      // By then the service has ended the boleto. Its "Gerar novo boleto" leads where a new one
      // is made, the checkout (its payer confirms the CPF), never to the old boleto's page, which
      // could only say it is over (the last test of the file: the service's clock moves on).
      await control(sandbox.url, "clock", { now: overdueAt.toISOString() });
      await waitFor(
        async () => (await charge(chargeId)).status === "expired",
        "the boleto's end to be recorded",
      );
      await pass(new Date(overdueAt.getTime() + 1_000));
      const overdue = (await remindersOf(chargeId)).find(
        (n) => n.template === "pix-checkout-boleto-overdue",
      );
      const followed = await open((overdue!.data as Json).reminder.new_code_url, {
        method: "POST",
      });
      expect(followed.status).toBe(200);
      const html = await followed.text();
      expect(html).not.toContain(`/pagar/${session.id}`);
      expect(html).toContain('href="https://loja.example.com/checkout"');
      expect(html).toContain(">Gerar novo boleto</a>");
      expect(html).toContain("confirme seu CPF para gerar um novo boleto, ou pague com Pix");
    });
  },
});
