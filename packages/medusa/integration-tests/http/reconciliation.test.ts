import path from "node:path";
import { medusaIntegrationTestRunner } from "@medusajs/test-utils";
import type { Sandbox } from "@pix-checkout/sandbox" with { "resolution-mode": "import" };
import { Modules } from "@medusajs/framework/utils";
import { startAppSandboxes } from "../helpers/sandboxes";
import { createStoreFixture, createCart, type StoreFixture } from "../helpers/store-fixture";
import {
  capturesOfSession,
  control,
  db,
  storefront,
  type Api,
  type Json,
} from "../helpers/checkout";
import { adminLogin } from "../helpers/admin-login";
import { waitFor } from "../helpers/wait-for";
import { Ledger } from "../../src/internal/records/ledger";
import { saoPauloDate, saoPauloDay } from "@pix-checkout/client/books";
import {
  RECONCILIATION_DIFFERENCES_EVENT,
  reconcileDay,
  reconcileDayOnce,
} from "../../src/jobs/reconcile-books-daily";

// The daily reconciliation against a real Medusa and the sandbox: one capture of each kind of
// difference is made (the sandbox's control routes make the service's books disagree), and
// the report, its CSV and the daily job must each find them.

const API_KEY = "sk_live_books_5ecret_key";
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

medusaIntegrationTestRunner({
  cwd: path.join(__dirname, "..", "app"),
  testSuite: ({ api, getContainer }) => {
    const container = () => getContainer();
    let store: StoreFixture;
    let adminHeaders: Record<string, string>;
    const admin = (url: string, extra: Record<string, unknown> = {}) =>
      (api as unknown as Api).request({
        method: "get",
        url,
        headers: adminHeaders,
        validateStatus: () => true,
        ...extra,
      });
    const today = saoPauloDay(new Date());
    const ids: Record<string, string> = {};
    const displayIds: Record<string, number> = {};
    let report: Json;

    /**
     * A pay-first Pix of `reais`, paid at the sandbox (`receivedCents` when the bank sends
     * another amount) and captured by Medusa.
     */
    async function paidOrder(name: string, reais: number, receivedCents?: number) {
      const shop = storefront(api as unknown as Api, store);
      const cartId = await createCart(container(), store, reais);
      const created = await shop.initiate(cartId, "pp_pix_a");
      const session = created.data.payment_collection.payment_sessions[0] as Json;
      ids[name] = session.data.charge_id;
      if (receivedCents !== undefined) {
        await control(sandbox.url, `transactions/${ids[name]}/amount`, { amount: receivedCents });
      }
      await control(sandbox.url, `charges/${ids[name]}/pay`, {});
      await waitFor(
        async () => (await capturesOfSession(container(), session.id)) === 1,
        `the capture of ${name}`,
      );
      const order = await waitFor(async () => {
        const r = await admin(`/admin/pix-checkout/charges?status=paid&limit=200`);
        return r.data.charges?.find((c: Json) => c.charge_id === ids[name])?.order ?? undefined;
      }, `the order of ${name}`);
      displayIds[name] = order.display_id;
      // Medusa's capture comes before the ledger moves the money from "held" to "captured";
      // the books are read once every payment has settled.
      await waitFor(async () => {
        const row = await db(container())("pix_checkout_charge")
          .where({ charge_id: ids[name] })
          .first();
        return row && Number(row.held_cents) === 0 ? row : undefined;
      }, `the ledger's capture of ${name}`);
    }

    beforeAll(async () => {
      store = await createStoreFixture(container());
      adminHeaders = await adminLogin(container(), "contador@example.com");
      const base = (api as unknown as Api).defaults.baseURL;
      await control(sandbox.url, "webhook-urls", {
        url: `${base}/hooks/pix-checkout/a?token=${WEBHOOK_SECRET}`,
      });
      await paidOrder("matching", 30);
      await paidOrder("dropped", 41);
      await paidOrder("resized", 52);
      await paidOrder("refundedInMedusaOnly", 63);
      await paidOrder("returnedAtServiceOnly", 74);

      // The service's books lose one charge and record another amount for a second.
      await control(sandbox.url, `transactions/${ids.dropped}/drop`, {});
      await control(sandbox.url, `transactions/${ids.resized}/amount`, { amount: 5100 });
      // A payment the store never saw: a charge made straight at the service, then paid.
      const direct = await fetch(`${sandbox.baseUrl}/charges`, {
        method: "POST",
        headers: { authorization: `Bearer ${API_KEY}`, "content-type": "application/json" },
        body: JSON.stringify({
          amount: 8500,
          payment_method: "pix",
          customer: { name: 'Beto "Lima"; filho', email: "beto@example.com" },
        }),
      });
      ids.direct = ((await direct.json()) as { uuid: string }).uuid;
      await control(sandbox.url, `charges/${ids.direct}/pay`, {});

      // A refund recorded in Medusa that the store's ledger returned as money Medusa never held
      // (as if the ledger's entry had been written some other way).
      const refund = await (api as unknown as Api).request({
        method: "post",
        url: `/admin/pix-checkout/charges/${ids.refundedInMedusaOnly}/refunds`,
        headers: adminHeaders,
        data: { amount: 1000, note: "devolvido pelo painel" },
        validateStatus: () => true,
      });
      expect(refund.data.recorded_in_medusa_cents).toBe(1000);
      // Damaging an entry on purpose: the ledger is append-only, and its trigger refuses every
      // UPDATE. session_replication_role = replica skips ordinary triggers, for this
      // transaction only, so the report can be shown a ledger the plugin could never write.
      await db(container()).transaction(async (trx) => {
        await trx.raw("set local session_replication_role = replica");
        await trx("pix_checkout_ledger_entry")
          .where({ charge_id: ids.refundedInMedusaOnly, to_part: "returned" })
          .update({ medusa_ref: null });
      });
      // Money of Medusa's returned at the service, moved in the ledger, that Medusa never recorded.
      const moved = await new Ledger(db(container())).giveBack(
        ids.returnedAtServiceOnly as string,
        [
          {
            from: "captured",
            to: "returned",
            amountCents: 500,
            reason: "merchant_refund",
            medusaRef: "pay_recorded_nowhere",
          },
        ],
        "admin",
      );
      expect(moved).toBeDefined();
      // Overpaid: the service received R$ 50,00 for a code of R$ 45,00. Medusa captured the
      // code's amount and the ledger owes the excess back: accounted for, not a difference.
      await paidOrder("overpaid", 45, 5000);

      const answer = await admin(`/admin/pix-checkout/reconciliation?from=${today}&to=${today}`);
      expect(answer.status).toBe(200);
      report = answer.data;
    });

    const differenceOf = (name: string) =>
      report.differences.filter((d: Json) => d.id === ids[name]);

    it("finds nothing to say about a charge paid and captured for the same amount", () => {
      expect(differenceOf("matching")).toEqual([]);
      const line = report.lines.find((l: Json) => l.id === ids.matching);
      expect(line).toMatchObject({
        type: "charge",
        order: { display_id: displayIds.matching, customer: "ana@example.com" },
        gross_cents: 3000,
        fee_cents: 30,
        net_cents: 2970,
        medusa_cents: 3000,
        difference: null,
      });
    });

    it("finds a capture whose charge the service no longer has", () => {
      expect(differenceOf("dropped")).toMatchObject([
        { kind: "captured_not_paid", medusa_cents: 4100, service_cents: null },
      ]);
    });

    it("finds a charge the service received for another amount than Medusa captured", () => {
      expect(differenceOf("resized")).toMatchObject([
        { kind: "amount_mismatch", service_cents: 5100, medusa_cents: 5200 },
      ]);
      expect(differenceOf("resized")[0].message["pt-BR"]).toBe(
        `#${displayIds.resized}: o serviço recebeu R$ 51,00 e o Medusa capturou R$ 52,00.`,
      );
    });

    it("finds a payment at the service that Medusa never captured", () => {
      expect(differenceOf("direct")).toMatchObject([
        { kind: "paid_not_captured", service_cents: 8500, medusa_cents: null },
      ]);
    });

    it("finds nothing to say about money the ledger owes back, and shows it", () => {
      expect(differenceOf("overpaid")).toEqual([]);
      expect(report.lines.find((l: Json) => l.id === ids.overpaid)).toMatchObject({
        gross_cents: 5000,
        medusa_cents: 4500,
        owed_cents: 500,
        held_cents: 0,
        // Owed back on a Pix paid today: its devolução may be asked for 90 days.
        refund_deadline: saoPauloDay(new Date(Date.now() + 90 * 86_400_000)),
        difference: null,
      });
    });

    it("finds refunds recorded on one side only", () => {
      expect(differenceOf("refundedInMedusaOnly")).toMatchObject([
        { kind: "refund_not_returned", medusa_cents: 1000, service_cents: 0 },
      ]);
      expect(differenceOf("returnedAtServiceOnly")).toMatchObject([
        { kind: "refund_not_recorded", service_cents: 500, medusa_cents: 0 },
      ]);
    });

    it("totals the period and finds the service's balance adds up", () => {
      expect(report.counts).toEqual({
        paid_not_captured: 1,
        captured_not_paid: 1,
        amount_mismatch: 1,
        refund_not_returned: 1,
        refund_not_recorded: 1,
        balance_mismatch: 0,
      });
      // Gross at the service: 30 + 51 + 63 + 74 + 85 + 50 (the dropped charge is gone).
      expect(report.totals.charges.gross_cents).toBe(35_300);
      expect(report.totals.charges.captured_cents).toBe(3000 + 4100 + 5200 + 6300 + 7400 + 4500);
      expect(report.totals.charges).toMatchObject({ owed_cents: 500, held_cents: 0 });
      expect(report.totals.balance).toMatchObject({ matches: true, available_cents: 0 });
      expect(report.totals.balance.pending_cents).toBe(report.totals.charges.net_cents);
    });

    it("exports a CSV a Brazilian Excel opens: BOM, ; and decimal comma, dd/mm/aaaa, quoting, totals", async () => {
      const answer = await admin(
        `/admin/pix-checkout/reconciliation.csv?from=${today}&to=${today}`,
        { responseType: "arraybuffer" },
      );
      expect(answer.status).toBe(200);
      const { headers } = answer as unknown as { headers: Record<string, string> };
      expect(headers["content-type"]).toMatch(/^text\/csv; charset=utf-8/);
      expect(headers["content-disposition"]).toBe(
        `attachment; filename="conciliacao-pix-a-${today}_${today}.csv"`,
      );
      const bytes = Buffer.from(answer.data as ArrayBuffer);
      expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const rows = bytes.subarray(3).toString("utf8").split("\r\n");
      expect(rows[0]).toBe(
        "Data;Tipo;Pedido;Cliente;Cobrança;Situação no serviço;Bruto;Tarifa;Líquido;Medusa;A devolver;Retido;Diferença;Após lembrete;Desconto no Pix;Finalidade;Observação;Prazo de devolução;CPF/CNPJ do comprador",
      );
      const day = saoPauloDate(new Date());
      expect(rows).toContain(
        `${day};Cobrança;#${displayIds.matching};ana@example.com;${ids.matching};paga;30,00;0,30;29,70;30,00;;;;não;;Carrinho;;;`,
      );
      expect(rows).toContain(
        `${day};Cobrança;;"Beto ""Lima""; filho";${ids.direct};paga;85,00;0,84;84,16;;;;Pago no serviço, sem captura no Medusa;não;;;;;`,
      );
      expect(rows).toContain(
        `${day};Cobrança;#${displayIds.overpaid};ana@example.com;${ids.overpaid};paga;50,00;0,50;49,50;45,00;5,00;;;não;;Carrinho;;${saoPauloDate(new Date(Date.now() + 90 * 86_400_000))};`,
      );
      expect(rows).toContain(
        ";Total de cobranças;;;;;353,00;3,49;349,51;305,00;5,00;0,00;;;0,00;;;;",
      );
      expect(rows.some((r) => r.endsWith(";confere com o total recebido;;;;;;"))).toBe(true);
    });

    it("exports the same period as OFX that ofx-js reads back: sums and closing balance match the report", async () => {
      const { parseSync } = await import("ofx-js");
      const download = async () => {
        const answer = await admin(
          `/admin/pix-checkout/reconciliation.ofx?from=${today}&to=${today}`,
          { responseType: "arraybuffer" },
        );
        expect(answer.status).toBe(200);
        return answer;
      };
      const answer = await download();
      const { headers } = answer as unknown as { headers: Record<string, string> };
      expect(headers["content-type"]).toMatch(/^application\/x-ofx; charset=windows-1252/);
      expect(headers["content-disposition"]).toBe(
        `attachment; filename="conciliacao-pix-a-${today}_${today}.ofx"`,
      );
      const text = new TextDecoder("windows-1252").decode(answer.data as ArrayBuffer);
      const ofx = parseSync(text);
      expect(ofx.header).toMatchObject({ VERSION: "102", CHARSET: "1252" });
      const statement = ofx.OFX.BANKMSGSRSV1.STMTTRNRS.STMTRS;
      expect(statement.CURDEF).toBe("BRL");
      const transactions = [statement.BANKTRANLIST.STMTTRN].flat() as Record<string, string>[];
      const cents = (amount: string) => {
        const [whole, part = ""] = amount.replace("-", "").split(".");
        const value = Number(whole) * 100 + Number(part.padEnd(2, "0"));
        return amount.startsWith("-") ? -value : value;
      };

      // The service's side of the report: gross in, fees, refunds returned in the period (as the
      // ledger holds them) and withdrawals out. The dropped charge moved nothing there.
      const declared = report.lines
        .flatMap((line: Json) => line.declarations ?? [])
        .reduce((sum: number, d: Json) => sum + d.amount_cents, 0);
      expect(declared).toBe(1000 + 500);
      const { charges, withdrawals, balance } = report.totals;
      expect(transactions.reduce((sum, t) => sum + cents(t.TRNAMT as string), 0)).toBe(
        charges.gross_cents - charges.fee_cents - declared - withdrawals.amount_cents,
      );
      expect(cents(statement.LEDGERBAL.BALAMT)).toBe(
        balance.available_cents + balance.pending_cents,
      );
      expect(statement.LEDGERBAL.DTASOF).toMatch(/^\d{14}\[-3:BRT\]$/);

      // One credit per charge received, its fee apart, each with the charge's id as FITID.
      const ofCharge = (name: string) =>
        transactions.filter((t) => t.FITID?.startsWith(ids[name] as string));
      expect(ofCharge("matching").map((t) => [t.TRNTYPE, t.FITID, t.TRNAMT])).toEqual([
        ["CREDIT", ids.matching, "30.00"],
        ["FEE", `${ids.matching}-fee`, "-0.30"],
      ]);
      expect(ofCharge("matching")[0]?.MEMO).toBe(
        `Pedido #${displayIds.matching} - ana@example.com - cobrança ${ids.matching}`,
      );
      expect(ofCharge("direct")[0]?.MEMO).toBe(`Beto "Lima"; filho - cobrança ${ids.direct}`);
      // Money owed back on a Pix: the memo says by when its devolução may be asked.
      expect(ofCharge("overpaid")[0]?.MEMO).toBe(
        `Pedido #${displayIds.overpaid} - ana@example.com - cobrança ${ids.overpaid} - devolver até ${saoPauloDate(new Date(Date.now() + 90 * 86_400_000))}`,
      );
      expect(ofCharge("dropped")).toEqual([]);
      expect(ofCharge("returnedAtServiceOnly").map((t) => [t.TRNTYPE, t.TRNAMT])).toEqual([
        ["CREDIT", "74.00"],
        ["FEE", "-0.73"],
        ["DEBIT", "-5.00"],
      ]);

      // Downloaded again, the same transactions under the same ids: a re-import adds nothing.
      const again = parseSync(new TextDecoder("windows-1252").decode((await download()).data));
      const fitids = (t: Record<string, string>[]) => t.map((x) => x.FITID);
      expect(fitids([again.OFX.BANKMSGSRSV1.STMTTRNRS.STMTRS.BANKTRANLIST.STMTTRN].flat())).toEqual(
        fitids(transactions),
      );
      expect(new Set(fitids(transactions)).size).toBe(transactions.length);
    });

    it.each(["reconciliation", "reconciliation.csv", "reconciliation.ofx"])(
      "%s requires an admin login",
      async (route) => {
        const answer = await admin(`/admin/pix-checkout/${route}?from=${today}`, { headers: {} });
        expect(answer.status).toBe(401);
      },
    );

    it.each([
      ["from=2026-02-30", "from must be a calendar day"],
      [`from=${today}&to=2020-01-01`, "must not be after to"],
      ["from=2020-01-01&to=2020-03-01", "compare at most 31"],
    ])("answers 400 invalid_period for %s, saying what to fix", async (query, message) => {
      const answer = await admin(`/admin/pix-checkout/reconciliation?${query}`);
      expect(answer.status).toBe(400);
      expect(answer.data.code).toBe("invalid_period");
      expect(answer.data.message).toContain(message);
    });

    it("the daily job logs and emits the counts for a day with differences, and changes no charge", async () => {
      const seen: Json[] = [];
      container()
        .resolve(Modules.EVENT_BUS)
        .subscribe(RECONCILIATION_DIFFERENCES_EVENT, async (event: Json) => {
          seen.push(event.data);
        });
      const before = await db(container())("pix_checkout_charge").orderBy("charge_id");
      const results = await reconcileDay(container(), today);
      expect(results.map((r) => [r.provider, r.error])).toEqual([
        ["a", undefined],
        ["b", undefined],
      ]);
      const event = await waitFor(async () => seen[0], "the differences event");
      expect(event).toEqual({
        provider: "a",
        from: today,
        to: today,
        total: 5,
        counts: report.counts,
      });
      expect(seen).toHaveLength(1); // registration b's day has no differences
      expect(await db(container())("pix_checkout_charge").orderBy("charge_id")).toEqual(before);
    });

    it("the daily job stops at its next registration once its lock is lost, and says nothing more", async () => {
      const seen: Json[] = [];
      container()
        .resolve(Modules.EVENT_BUS)
        .subscribe(RECONCILIATION_DIFFERENCES_EVENT, async (event: Json) => {
          seen.push(event.data);
        });
      await expect(reconcileDay(container(), today, AbortSignal.abort())).rejects.toThrow();
      // Lost after registration a was compared: b is not.
      const lost = new AbortController();
      const compared: string[] = [];
      const signal = {
        throwIfAborted: () => {
          compared.push(compared.length === 0 ? "a" : "b");
          if (compared.length > 1) lost.abort();
          lost.signal.throwIfAborted();
        },
      } as unknown as AbortSignal;
      await expect(reconcileDay(container(), today, signal)).rejects.toThrow();
      expect(compared).toEqual(["a", "b"]);
      await waitFor(async () => seen.length === 1, "registration a's event");
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(seen.map((event) => event.provider)).toEqual(["a"]);
    });

    it("two instances running the daily job at once compare the day once, and emit one event", async () => {
      const seen: Json[] = [];
      container()
        .resolve(Modules.EVENT_BUS)
        .subscribe(RECONCILIATION_DIFFERENCES_EVENT, async (event: Json) => {
          seen.push(event.data);
        });
      // Each run holds the lock 2 s at least (90 s in the job), as a fast day's compare must.
      const runs = await Promise.all([
        reconcileDayOnce(container(), today, { holdMs: 2_000 }),
        reconcileDayOnce(container(), today, { holdMs: 2_000 }),
      ]);
      expect(runs.filter((run) => run === null)).toHaveLength(1);
      expect(runs.find((run) => run !== null)?.map((r) => r.provider)).toEqual(["a", "b"]);
      await waitFor(async () => seen[0], "the differences event");
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(seen).toHaveLength(1);
    });
  },
});
