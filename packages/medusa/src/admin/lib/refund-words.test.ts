import { describe, expect, it } from "vitest";
import translations, { PIX_CHECKOUT_NS } from "../i18n";
import { refundPortions } from "../../internal/settlement/refund-portions";
import type { ChargeMoney } from "../../internal/records/ledger-parts";
import { refundDoneWords, refundWhereWords } from "./refund-words";
import type { PixT } from "./i18n";

type Tree = { [key: string]: string | Tree };

/** `t` over the Brazilian tree, with i18next's {{name}} interpolation and `defaultValue`. */
const t: PixT = (key, values) => {
  let node: string | Tree | undefined = translations.ptBR[PIX_CHECKOUT_NS] as Tree;
  for (const part of key.split(".")) node = typeof node === "object" ? node[part] : undefined;
  if (typeof node !== "string") return String(values?.defaultValue ?? key);
  return node.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values?.[name] ?? ""));
};

const money = (over: Partial<ChargeMoney>): ChargeMoney => ({
  received: 0,
  held: 0,
  heldReason: null,
  captured: 0,
  owed: 0,
  owedReason: null,
  returned: 0,
  contested: 0,
  ...over,
});
// Intl writes a no-break space after "R$".
const plain = (lines: string[]) => lines.map((line) => line.replace(/\u00a0/g, " "));

describe("the refund drawer says where the refund is recorded", () => {
  it("a replaced code's money, which Medusa never captured, is recorded in Pix Checkout only, and why", () => {
    const portions = refundPortions(
      money({ received: 20_945, owed: 20_945, owedReason: "paid_old_amount" }),
      0,
    );
    expect(plain(refundWhereWords(portions, 20_945, { display_id: 3 }, t))).toEqual([
      "R$ 209,45 ficam registrados só no Pix Checkout e nos relatórios, não no pedido do Medusa: o Medusa nunca capturou esse dinheiro. O cliente pagou um código substituído cujo valor não cobre mais o carrinho.",
    ]);
  });

  it("the order's captured money is recorded on Medusa's order, named by its number", () => {
    const portions = refundPortions(money({ received: 5_000, captured: 5_000 }), 0);
    expect(plain(refundWhereWords(portions, 1_000, { display_id: 7 }, t))).toEqual([
      "R$ 10,00 ficam registrados no pedido #7 do Medusa, como devolução do pagamento que o Medusa capturou.",
    ]);
    expect(plain(refundWhereWords(portions, 1_000, null, t))).toEqual([
      "R$ 10,00 ficam registrados no Medusa, como devolução do pagamento que ele capturou (ainda sem pedido).",
    ]);
  });

  it("an amount that takes the excess and then the order's money says both, in the route's order", () => {
    const portions = refundPortions(
      money({ received: 2_500, captured: 2_000, owed: 500, owedReason: "overpaid" }),
      0,
    );
    expect(plain(refundWhereWords(portions, 700, { display_id: 9 }, t))).toEqual([
      "R$ 2,00 ficam registrados no pedido #9 do Medusa, como devolução do pagamento que o Medusa capturou.",
      "R$ 5,00 ficam registrados só no Pix Checkout e nos relatórios, não no pedido do Medusa: o Medusa nunca capturou esse dinheiro. O cliente pagou mais do que o código pedia: a diferença volta para ele.",
    ]);
  });

  it("money of an order canceled after its capture is Medusa's to record", () => {
    const portions = refundPortions(
      money({ received: 3_800, owed: 3_800, owedReason: "order_canceled" }),
      3_800,
    );
    expect(plain(refundWhereWords(portions, 3_800, { display_id: 4 }, t))).toEqual([
      "R$ 38,00 ficam registrados no pedido #4 do Medusa, como devolução do pagamento que o Medusa capturou.",
    ]);
  });

  it("an underpaid amount held for the merchant is the ledger's, and says why", () => {
    const portions = refundPortions(
      money({ received: 4_500, held: 4_500, heldReason: "underpaid" }),
      0,
    );
    expect(plain(refundWhereWords(portions, 4_500, null, t))[0]).toMatch(
      /^R\$ 45,00 ficam registrados só no Pix Checkout .* O cliente pagou menos do que o código pedia/,
    );
  });

  it("says the most that can be returned for more than the charge holds, and nothing for no amount", () => {
    const portions = refundPortions(money({ received: 5_000, captured: 5_000 }), 0);
    expect(plain(refundWhereWords(portions, 5_001, null, t))).toEqual([
      "Esta cobrança tem no máximo R$ 50,00 para devolver.",
    ]);
    expect(refundWhereWords(portions, null, null, t)).toEqual([]);
  });

  it("money Medusa's capture is taking is never offered", () => {
    const portions = refundPortions(
      money({ received: 5_000, held: 5_000, heldReason: "awaiting_capture" }),
      0,
    );
    expect(portions).toEqual([]);
  });
});

describe("the toast once it is recorded", () => {
  it("says where the route recorded it", () => {
    expect(
      plain([refundDoneWords({ recorded_in_medusa_cents: 0, ledger_only_cents: 20_945 }, t)]),
    ).toEqual(["Devolução de R$ 209,45 registrada no Pix Checkout; o pedido do Medusa não muda."]);
    expect(
      plain([refundDoneWords({ recorded_in_medusa_cents: 1_000, ledger_only_cents: 0 }, t)]),
    ).toEqual(["Devolução registrada no pedido do Medusa: R$ 10,00."]);
    expect(
      plain([refundDoneWords({ recorded_in_medusa_cents: 200, ledger_only_cents: 500 }, t)]),
    ).toEqual(["Devolução registrada: R$ 2,00 no pedido do Medusa e R$ 5,00 só no Pix Checkout."]);
  });
});
