import { describe, expect, it } from "vitest";
import { reconcileBooks, type Books } from "./books";
import { csvFileName, reconciliationCsv } from "./books-csv";

describe("the reconciliation CSV", () => {
  const start = new Date("2026-11-20T03:00:00Z");
  const books: Books = {
    period: { from: "2026-11-20", to: "2026-11-20", start, end: new Date("2026-11-21T03:00:00Z") },
    medusa: {
      captures: [
        {
          capture_id: "capt_1",
          payment_id: "pay_1",
          charge_id: "ch_1",
          amount_cents: 1_234_567,
          captured_at: new Date("2026-11-20T13:00:00Z"),
          order: {
            id: "order_12",
            display_id: 12,
            customer: "Souza; Ana",
            pix_discount_cents: 64_977,
          },
        },
      ],
    },
    service: {
      charges: [
        {
          id: "ch_1",
          status: "paid",
          amount_cents: 1_234_567,
          fee_cents: 12_222,
          net_cents: 1_222_345,
          created_at: new Date("2026-11-20T12:59:00Z"),
          paid_at: new Date("2026-11-20T12:59:30Z"),
          customer: null,
          order: null,
          after_reminder: true,
        },
      ],
      withdrawals: [],
    },
    refunds: [],
    balance: {
      available_cents: 0,
      pending_cents: 1_222_345,
      total_earned_cents: 1_222_345,
      total_withdrawn_cents: 0,
      processing_withdrawals_cents: 0,
      read_at: new Date("2026-11-21T09:30:00Z"),
    },
  };
  const text = reconciliationCsv(reconcileBooks(books));
  const lines = text.slice(1).split("\r\n");

  it("has a header, one line per capture with order, customer, gross, fee and net, then totals", () => {
    expect(lines[0]).toBe(
      "Data;Tipo;Pedido;Cliente;Cobrança;Situação no serviço;Bruto;Tarifa;Líquido;Medusa;A devolver;Retido;Diferença;Após lembrete;Desconto no Pix;Finalidade;Observação;Prazo de devolução;CPF/CNPJ do comprador",
    );
    expect(lines[1]).toBe(
      '20/11/2026;Cobrança;#12;"Souza; Ana";ch_1;paga;12.345,67;122,22;12.223,45;12.345,67;;;;sim;649,77;;;;',
    );
    expect(lines[2]).toBe("");
    expect(lines[3]).toBe(
      ";Total de cobranças;;;;;12.345,67;122,22;12.223,45;12.345,67;0,00;0,00;;;649,77;;;;",
    );
    expect(lines).toContain(";Saldo disponível (em 21/11/2026 06:30);;;;;;;0,00;;;;;;;;;;");
    expect(lines).toContain(
      ";Disponível + a liberar + sacado + em processamento;;;;;;;12.223,45;;;;confere com o total recebido;;;;;;",
    );
  });

  it("says whether each payment followed a reminder, and leaves the cell empty on other lines", () => {
    const withoutReminder: Books = {
      ...books,
      service: {
        charges: books.service.charges.map((charge) => ({ ...charge, after_reminder: false })),
        withdrawals: [
          {
            id: "wd_1",
            status: "done",
            amount_cents: 100,
            created_at: new Date("2026-11-20T15:00:00Z"),
          },
        ],
      },
    };
    const rows = reconciliationCsv(reconcileBooks(withoutReminder)).slice(1).split("\r\n");
    expect(rows[1]).toMatch(/^20\/11\/2026;Cobrança;#12;.*;não;649,77;;;;$/);
    expect(rows[2]).toBe("20/11/2026;Saque;;;wd_1;done;-1,00;;-1,00;;;;;;;;;;");
    const english = reconciliationCsv(reconcileBooks(books), "en").slice(1).split("\r\n");
    expect(english[0]).toMatch(
      /;Difference;After a reminder;Pix discount;Purpose;Note;Refund deadline;Buyer CPF\/CNPJ$/,
    );
    expect(english[1]).toMatch(/;yes;649,77;;;;$/);
  });

  it("gives each paid order's Pix discount, empty where there was none, and their total", () => {
    const charge = books.service.charges[0]!;
    const boleto: Books = {
      ...books,
      medusa: {
        captures: [
          ...books.medusa.captures,
          {
            capture_id: "capt_2",
            payment_id: "pay_2",
            charge_id: "ch_2",
            amount_cents: 10_000,
            captured_at: new Date("2026-11-20T14:00:00Z"),
            order: { id: "order_13", display_id: 13, customer: "Bia", pix_discount_cents: 0 },
          },
        ],
      },
      service: {
        ...books.service,
        charges: [
          charge,
          {
            ...charge,
            id: "ch_2",
            amount_cents: 10_000,
            fee_cents: 0,
            net_cents: 10_000,
            paid_at: new Date("2026-11-20T13:59:00Z"),
            after_reminder: false,
          },
        ],
      },
    };
    const rows = reconciliationCsv(reconcileBooks(boleto)).slice(1).split("\r\n");
    expect(rows[1]).toMatch(/;ch_1;.*;sim;649,77;;;;$/);
    expect(rows[2]).toMatch(/;ch_2;.*;não;;;;;$/);
    expect(rows[4]).toMatch(/^;Total de cobranças;.*;649,77;;;;$/);
  });

  it("writes an order's Pix discount once, on its sale's row and not its edit's, so the column adds up", () => {
    const charge = books.service.charges[0]!;
    const order = books.medusa.captures[0]!.order!;
    const edited: Books = {
      ...books,
      medusa: {
        captures: [
          { ...books.medusa.captures[0]!, order: { ...order, pix_discount_cents: 400 } },
          {
            capture_id: "capt_2",
            payment_id: "pay_2",
            charge_id: "ch_2",
            amount_cents: 7_990,
            captured_at: new Date("2026-11-20T15:00:00Z"),
            order: { ...order, pix_discount_cents: 400 },
          },
        ],
      },
      service: {
        ...books.service,
        charges: [
          { ...charge, purpose: "cart" },
          {
            ...charge,
            id: "ch_2",
            amount_cents: 7_990,
            fee_cents: 0,
            net_cents: 7_990,
            paid_at: new Date("2026-11-20T14:59:00Z"),
            after_reminder: false,
            purpose: "order_edit",
          },
        ],
      },
    };
    const rows = reconciliationCsv(reconcileBooks(edited)).slice(1).split("\r\n");
    expect(rows[1]).toMatch(/^20\/11\/2026;Cobrança;#12;.*;ch_1;.*;sim;4,00;Carrinho;;;$/);
    expect(rows[2]).toMatch(/^20\/11\/2026;Cobrança;#12;.*;ch_2;.*;não;;Edição do pedido;;;$/);
    expect(rows[4]).toMatch(/^;Total de cobranças;.*;4,00;;;;$/);
  });

  it("says where the ledger holds a payment's money that is not the order's: owed back, held, and by when a Pix's", () => {
    const charge = books.service.charges[0]!;
    const ledger = {
      received_cents: 5_500,
      held_cents: 0,
      capturing_cents: 0,
      captured_cents: 5_000,
      owed_cents: 500,
      returned_cents: 0,
      ever_captured_cents: 5_000,
      // A Pix paid 20/11/2026 (the loader asks records/refund-deadline.ts): owed until 18/02/2027.
      refund_deadline: "2027-02-18",
    };
    const twice = {
      ...ledger,
      received_cents: 3_000,
      captured_cents: 0,
      owed_cents: 3_000,
      ever_captured_cents: 0,
      // A boleto's owed money has no Pix devolução window: the column stays empty.
      refund_deadline: null,
    };
    const report = reconcileBooks({
      ...books,
      medusa: {
        captures: [{ ...books.medusa.captures[0]!, amount_cents: 5_000 }],
      },
      service: {
        charges: [
          { ...charge, amount_cents: 5_500, fee_cents: 55, net_cents: 5_445, ledger },
          {
            ...charge,
            id: "ch_twice",
            amount_cents: 3_000,
            fee_cents: 30,
            net_cents: 2_970,
            paid_at: new Date("2026-11-20T14:00:00Z"),
            ledger: twice,
            // An exchange's difference paid twice: the line says what it was for.
            purpose: "exchange" as const,
          },
        ],
        withdrawals: [],
      },
    });
    expect(report.differences).toEqual([]);
    const rows = reconciliationCsv(report).slice(1).split("\r\n");
    expect(rows[1]).toMatch(/;ch_1;paga;55,00;0,55;54,45;50,00;5,00;;;sim;649,77;;;18\/02\/2027;$/);
    expect(rows[2]).toMatch(/;ch_twice;paga;30,00;0,30;29,70;;30,00;;;sim;;Troca;;;$/);
    expect(rows[4]).toMatch(
      /^;Total de cobranças;;;;;85,00;0,85;84,15;50,00;35,00;0,00;;;649,77;;;;$/,
    );
  });

  it("writes on a refund's line how the merchant said the money went back", () => {
    const declared = (id: string, cents: number, note: string | null) => ({
      id,
      amount_cents: cents,
      declared_at: new Date("2026-11-20T15:00:00Z"),
      note,
    });
    const report = reconcileBooks({
      ...books,
      refunds: [
        {
          charge_id: "ch_old",
          declared_cents: 20_945,
          medusa_due_cents: 0,
          medusa_cents: 0,
          last_at: new Date("2026-11-20T15:00:00Z"),
          order: { id: "order_3", display_id: 3, customer: "Ana", pix_discount_cents: 0 },
          declared_in_period: [
            declared("pxle_1", 20_000, "Pix devolvido pelo painel em 20/11"),
            declared("pxle_2", 945, null),
            declared("pxle_3", 0, "  resto; por TED  "),
          ],
        },
      ],
    });
    const row = reconciliationCsv(report)
      .slice(1)
      .split("\r\n")
      .find((line) => line.includes(";ch_old;"));
    // Charge columns stay empty on a refund; the note is the next to last column, quoted for its ";".
    expect(row).toBe(
      '20/11/2026;Devolução;#3;Ana;ch_old;;-209,45;;;0,00;;;;;;;"Pix devolvido pelo painel em 20/11 | resto; por TED";;',
    );
  });

  it("gives the buyer's CPF or CNPJ on the order in its own column, for the nota fiscal", () => {
    const report = reconcileBooks({
      ...books,
      medusa: {
        captures: [
          {
            ...books.medusa.captures[0]!,
            order: { ...books.medusa.captures[0]!.order!, buyer_document: "52998224725" },
          },
        ],
      },
    });
    const rows = reconciliationCsv(report).slice(1).split("\r\n");
    expect(rows[1]).toMatch(/^20\/11\/2026;Cobrança;#12;.*;649,77;;;;CPF 529\.982\.247-25$/);
    expect(rows[3]).toMatch(/^;Total de cobranças;.*;649,77;;;;$/);
    expect(reconciliationCsv(report, "en").slice(1).split("\r\n")[0]).toMatch(
      /;Note;Refund deadline;Buyer CPF\/CNPJ$/,
    );
  });

  it("speaks English on request, with Brazilian numbers still", () => {
    const english = reconciliationCsv(reconcileBooks(books), "en").slice(1).split("\r\n");
    expect(english[0]).toMatch(/^Date;Type;Order;Customer;Charge;/);
    expect(english[1]).toContain(";Charge;#12;");
    expect(english[1]).toContain("12.345,67");
  });

  it("names the file after the registration and the period", () => {
    expect(csvFileName("pix-checkout", "2026-11-01", "2026-11-30")).toBe(
      "conciliacao-pix-pix-checkout-2026-11-01_2026-11-30.csv",
    );
    expect(csvFileName('a"b/c', "2026-11-01", "2026-11-01")).toBe(
      "conciliacao-pix-a_b_c-2026-11-01_2026-11-01.csv",
    );
  });
});
