import { describe, expect, it } from "vitest";
import { booksCsv, type BookMovement } from "./books";

const at = (iso: string) => new Date(iso);
const movement = (over: Partial<BookMovement>): BookMovement => ({
  at: at("2026-11-30T15:00:00.000Z"),
  orderCode: "ABC123",
  method: "pix",
  chargeId: "ch_1",
  kind: "settled",
  cents: 11_480,
  why: null,
  reference: null,
  ...over,
});

/** The file's lines, without the BOM, split into cells. */
const cells = (csv: string) =>
  csv
    .slice(1)
    .split("\r\n")
    .filter(Boolean)
    .map((line) => line.split(";"));

describe("a Vendure store's Pix books", () => {
  it("puts each movement in its column, oldest first, in São Paulo's time and Brazil's numbers", () => {
    const rows = cells(
      booksCsv([
        movement({
          kind: "held",
          chargeId: "ch_2",
          cents: 9_000,
          why: "o Pix pago é de R$ 90,00",
          at: at("2026-11-30T16:00:00.000Z"),
        }),
        movement({}),
      ]),
    );
    expect(rows[0]!.join(";")).toBe(
      "Data e hora;Pedido;Forma;Cobrança;Movimento;Recebido (R$);Liquidado (R$);Retido (R$);A devolver (R$);Devolvido (R$);Motivo;Identificador da devolução",
    );
    expect(rows[1]).toEqual([
      "30/11/2026 12:00",
      "ABC123",
      "Pix",
      "ch_1",
      "Pago e liquidado no pedido",
      "114,80",
      "114,80",
      "",
      "",
      "",
      "",
      "",
    ]);
    expect(rows[2]!.slice(4, 8)).toEqual(["Pago e retido (não liquidado)", "90,00", "", "90,00"]);
    expect(rows[2]![10]).toBe("o Pix pago é de R$ 90,00");
  });

  it("adds every column up to the cent on its totals line, refunds owed and made apart", () => {
    const rows = cells(
      booksCsv([
        movement({}),
        movement({ chargeId: "ch_2", method: "boleto", cents: 4_990 }),
        movement({ chargeId: "ch_3", kind: "held", cents: 1 }),
        movement({ chargeId: "ch_1", kind: "refund_due", cents: 4_990, why: "Uma camisa a menos" }),
        movement({ chargeId: "ch_1", kind: "refunded", cents: 1_000, reference: "dev-1" }),
      ]),
    );
    const total = rows.at(-1)!;
    expect(total.slice(0, 10)).toEqual([
      "Total",
      "",
      "",
      "",
      "5 movimentos",
      "164,71",
      "164,70",
      "0,01",
      "49,90",
      "10,00",
    ]);
    expect(rows.find((row) => row[3] === "ch_2")![2]).toBe("Boleto");
    expect(rows.find((row) => row[11] === "dev-1")![4]).toBe("Devolução feita");
  });

  it("keeps a text that looks like a formula from running (a reason typed by the merchant)", () => {
    const rows = cells(booksCsv([movement({ kind: "refund_due", why: "=HYPERLINK(1)" })]));
    expect(rows[1]![10]).toBe("'=HYPERLINK(1)");
  });
});
