import { describe, expect, it } from "vitest";
import { orderCodeStory, type OrderCodeFacts } from "./order-codes";

// Paid on 2026-12-01 in São Paulo, read the same day: a Pix devolução may go back for 90 days.
const now = new Date("2026-12-01T15:00:00.000Z");
const paidAt = "2026-12-01T14:00:00.000Z";

const waitingPix: OrderCodeFacts = {
  method: "pix",
  state: "AwaitingPix",
  askedCents: 11_480,
  settledAt: null,
  held: null,
  replaced: false,
  overdue: false,
  refunds: [],
};

const why = "o Pix pago é de R$ 90,00 e o código pedia R$ 114,80";
const heldShort: OrderCodeFacts = {
  ...waitingPix,
  state: "Declined",
  held: { why, receivedCents: 9_000, at: paidAt, returned: null },
};

/** Every cent received is somewhere: paying the order, owed back, or returned. */
function expectAccounted(story: ReturnType<typeof orderCodeStory>) {
  expect(story.received).toBe(story.captured + story.owedBack + story.returned);
}

describe("what became of an order's code, as the merchant reads it", () => {
  it("a Pix still to be paid: nothing received, and says it waits", () => {
    expect(orderCodeStory(waitingPix, now)).toEqual({
      became: "waiting",
      asked: 11_480,
      received: 0,
      captured: 0,
      owedBack: 0,
      returned: 0,
      words: expect.stringMatching(/^Aguardando pagamento: este Pix de R\$\s114,80 ainda não/),
      devolucao: null,
    });
  });

  it("a boleto authorized: the order is placed and waits for the bank's confirmation", () => {
    const story = orderCodeStory({ ...waitingPix, method: "boleto", state: "Authorized" }, now);
    expect(story.became).toBe("waiting");
    expect(story.words).toMatch(/o pedido já foi feito, e este boleto de R\$\s114,80 o paga/);
  });

  it("a code settled: all it received pays the order", () => {
    const story = orderCodeStory({ ...waitingPix, state: "Settled", settledAt: paidAt }, now);
    expect(story).toEqual({
      became: "captured",
      asked: 11_480,
      received: 11_480,
      captured: 11_480,
      owedBack: 0,
      returned: 0,
      words: expect.stringMatching(/^Pago: R\$\s114,80 pagam o pedido\.$/),
      devolucao: null,
    });
  });

  it("a code settled, then its order made cheaper: the refund owed is no longer the order's, and its Pix clock runs", () => {
    const story = orderCodeStory(
      {
        ...waitingPix,
        state: "Settled",
        settledAt: paidAt,
        refunds: [
          { state: "Pending", cents: 4_990 },
          { state: "Settled", cents: 1_000 },
          // Vendure's failed refund moved no money.
          { state: "Failed", cents: 500 },
        ],
      },
      now,
    );
    expect(story).toMatchObject({
      received: 11_480,
      captured: 5_490,
      owedBack: 4_990,
      returned: 1_000,
    });
    expectAccounted(story);
    expect(story.words).toMatch(
      /^Pago: R\$\s54,90 pagam o pedido; R\$\s49,90 a devolver ao pagador \(reembolso pendente\); R\$\s10,00 já devolvidos ao pagador\.$/,
    );
    expect(story.devolucao).toEqual({ deadline: "2027-03-01", daysLeft: 90, state: "ok" });
  });

  it("a code paid short: held, what arrived is all owed back, and the sentence gives the hold's why and what to do", () => {
    const story = orderCodeStory(heldShort, now);
    expect(story).toMatchObject({
      became: "held",
      asked: 11_480,
      received: 9_000,
      captured: 0,
      owedBack: 9_000,
      returned: 0,
      devolucao: { deadline: "2027-03-01", daysLeft: 90, state: "ok" },
    });
    expectAccounted(story);
    expect(story.words).toContain(why);
    expect(story.words).toMatch(
      /devolva R\$\s90,00 ao pagador pelo painel do serviço de pagamento/,
    );
  });

  it("a held code whose return the merchant recorded: nothing owed, no clock, and the devolução's id said", () => {
    const story = orderCodeStory(
      {
        ...heldShort,
        held: { ...heldShort.held!, returned: { reference: "E2E-DEV-1", at: paidAt } },
      },
      now,
    );
    expect(story).toMatchObject({ received: 9_000, owedBack: 0, returned: 9_000, devolucao: null });
    expectAccounted(story);
    expect(story.words).toMatch(/R\$\s90,00 devolvidos ao pagador \(devolução E2E-DEV-1\)\.$/);
  });

  it("a held boleto has no Pix clock", () => {
    const story = orderCodeStory({ ...heldShort, method: "boleto", state: "Cancelled" }, now);
    expect(story).toMatchObject({ became: "held", owedBack: 9_000, devolucao: null });
  });

  it("a code that brought no money ended, and says why: replaced, unpaid past the boleto's grace, expired", () => {
    const ended = (facts: Partial<OrderCodeFacts>) =>
      orderCodeStory({ ...waitingPix, state: "Cancelled", ...facts }, now);
    for (const story of [
      ended({ replaced: true }),
      ended({ method: "boleto", overdue: true }),
      ended({}),
    ]) {
      expect(story).toMatchObject({ became: "ended", received: 0, owedBack: 0, devolucao: null });
    }
    expect(ended({ replaced: true }).words).toMatch(/^Trocado por outro código antes de ser pago/);
    expect(ended({ method: "boleto", overdue: true }).words).toMatch(
      /boleto de R\$\s114,80 não foi pago até o fim do prazo de compensação, e o pedido foi cancelado/,
    );
    expect(ended({}).words).toMatch(/Pix de R\$\s114,80 expirou ou foi cancelado\.$/);
  });
});
