import { describe, expect, it } from "vitest";
import type { MedCase } from "./med-case";
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

/** Every cent received is somewhere: paying the order, contested, owed back, or returned. */
function expectAccounted(story: ReturnType<typeof orderCodeStory>) {
  expect(story.received).toBe(story.captured + story.contested + story.owedBack + story.returned);
}

describe("what became of an order's code, as the merchant reads it", () => {
  it("a Pix still to be paid: nothing received, and says it waits", () => {
    expect(orderCodeStory(waitingPix, now)).toEqual({
      became: "waiting",
      asked: 11_480,
      received: 0,
      captured: 0,
      contested: 0,
      owedBack: 0,
      returned: 0,
      words: expect.stringMatching(/^Aguardando pagamento: este Pix de R\$\s114,80 ainda não/),
      devolucao: null,
      med: null,
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
      contested: 0,
      owedBack: 0,
      returned: 0,
      words: expect.stringMatching(/^Pago: R\$\s114,80 pagam o pedido\.$/),
      devolucao: null,
      med: null,
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

  it("a code paid more than it asked: settled for all it received, what it asked pays the order, the excess owed back with its Pix clock, and the words say why", () => {
    const story = orderCodeStory(
      {
        ...waitingPix,
        state: "Settled",
        settledAt: paidAt,
        receivedCents: 12_000,
        owedAtSettle: { cents: 520, reason: "overpaid" },
        refunds: [{ state: "Pending", cents: 520 }],
      },
      now,
    );
    expect(story).toMatchObject({
      became: "captured",
      asked: 11_480,
      received: 12_000,
      captured: 11_480,
      owedBack: 520,
      returned: 0,
    });
    expectAccounted(story);
    expect(story.words).toMatch(
      /^Pago: pago R\$\s120,00 por um código de R\$\s114,80; R\$\s114,80 pagam o pedido; R\$\s5,20 a devolver ao pagador \(reembolso pendente\)\.$/,
    );
    expect(story.devolucao).toEqual({ deadline: "2027-03-01", daysLeft: 90, state: "ok" });
  });

  it("a code settled, then its order made cheaper at once: the words say why part of it is owed back", () => {
    const story = orderCodeStory(
      {
        ...waitingPix,
        state: "Settled",
        settledAt: paidAt,
        owedAtSettle: { cents: 2_470, reason: "amount_lowered" },
        refunds: [{ state: "Pending", cents: 2_470 }],
      },
      now,
    );
    expect(story).toMatchObject({ captured: 9_010, owedBack: 2_470 });
    expect(story.words).toMatch(
      /^Pago: o pedido passou a custar menos que o código; R\$\s90,10 pagam o pedido; R\$\s24,70 a devolver ao pagador \(reembolso pendente\)\.$/,
    );
  });

  it("a code settled and then all given back: nothing of it pays the order, and the words do not say it does", () => {
    const story = orderCodeStory(
      {
        ...waitingPix,
        state: "Settled",
        settledAt: paidAt,
        refunds: [{ state: "Settled", cents: 11_480 }],
      },
      now,
    );
    expect(story).toMatchObject({ captured: 0, owedBack: 0, returned: 11_480, devolucao: null });
    expect(story.words).toMatch(/^Pago: R\$\s114,80 já devolvidos ao pagador\.$/);
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
    expect(story.words).toMatch(
      /^Retido, não paga o pedido: o Pix pago é de R\$\s90,00 e o código pedia R\$\s114,80; devolva R\$\s90,00 ao pagador pelo painel do serviço de pagamento e registre aqui a devolução\.$/,
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
    // Declined with no money held: the words say the state Vendure has it in.
    expect(ended({ state: "Declined" })).toMatchObject({ became: "ended", received: 0 });
    expect(ended({ state: "Declined" }).words).toMatch(
      /^Encerrado sem pagamento: este Pix de R\$\s114,80 está "Declined" no Vendure\.$/,
    );
  });

  describe("with a MED case", () => {
    // R$ 114,80 paid; the order made cheaper by R$ 49,90 (owed back); a MED blocks R$ 80,00:
    // the R$ 49,90 owed first, then R$ 30,10 of the captured money.
    const settled: OrderCodeFacts = {
      ...waitingPix,
      state: "Settled",
      settledAt: paidAt,
      refunds: [{ state: "Pending", cents: 4_990 }],
    };
    const open: MedCase = {
      protocol: "MED-2026-0001",
      deadline: "2026-12-09",
      blockedCents: 8_000,
      blockedOwedCents: 4_990,
      contestedCents: 3_010,
      openedAt: paidAt,
      state: "open",
      returnedCents: null,
      decidedAt: null,
    };

    it("open: the contested money is out of captured, the blocked owed money has no clock, and the words say the case", () => {
      const story = orderCodeStory({ ...settled, med: open }, now);
      expect(story).toMatchObject({
        received: 11_480,
        captured: 11_480 - 4_990 - 3_010,
        contested: 3_010,
        owedBack: 4_990,
        returned: 0,
        devolucao: null,
        med: {
          protocol: "MED-2026-0001",
          blocked: 8_000,
          blockedOwed: 4_990,
          contested: 3_010,
          state: "open",
          returned: null,
          deadlineState: "ok",
        },
      });
      expectAccounted(story);
      expect(story.words).toMatch(
        /^Pago: R\$\s34,80 pagam o pedido; R\$\s30,10 contestados no MED, fora da receita até a decisão; R\$\s49,90 a devolver ao pagador \(reembolso pendente, R\$\s49,90 bloqueados pelo MED\)\. /,
      );
      expect(story.words).toMatch(
        /MED aberto \(protocolo MED-2026-0001\): R\$\s80,00 bloqueados até 09\/12\/2026\.$/,
      );
    });

    it("open on part of the owed money only: the rest keeps its devolução clock", () => {
      const story = orderCodeStory(
        {
          ...settled,
          med: { ...open, blockedCents: 990, blockedOwedCents: 990, contestedCents: 0 },
        },
        now,
      );
      expect(story).toMatchObject({ captured: 11_480 - 4_990, contested: 0, owedBack: 4_990 });
      expect(story.devolucao).toMatchObject({ deadline: "2027-03-01" });
      expectAccounted(story);
    });

    it("kept: the contested money pays the order again, the owed money is owed again with its clock", () => {
      const story = orderCodeStory(
        { ...settled, med: { ...open, state: "kept", decidedAt: paidAt } },
        now,
      );
      expect(story).toMatchObject({
        captured: 11_480 - 4_990,
        contested: 0,
        owedBack: 4_990,
        devolucao: { deadline: "2027-03-01" },
        med: { state: "kept", deadlineState: null },
      });
      expectAccounted(story);
      expect(story.words).toMatch(/MED mantido \(protocolo MED-2026-0001\)/);
    });

    it("returned in part: Vendure's refunds say where the money went, and the words the MED's part", () => {
      // R$ 60,00 returned: the R$ 49,90 owed settled, then R$ 10,10 refunded on the order.
      const story = orderCodeStory(
        {
          ...settled,
          refunds: [
            { state: "Settled", cents: 4_990 },
            { state: "Settled", cents: 1_010 },
          ],
          med: { ...open, state: "returned", returnedCents: 6_000, decidedAt: paidAt },
        },
        now,
      );
      expect(story).toMatchObject({
        captured: 11_480 - 6_000,
        contested: 0,
        owedBack: 0,
        returned: 6_000,
        devolucao: null,
        med: { state: "returned", returned: 6_000, deadlineState: null },
      });
      expectAccounted(story);
      expect(story.words).toMatch(
        /Devolvido pelo MED: R\$\s60,00 dos R\$\s80,00 bloqueados \(protocolo MED-2026-0001\)\.$/,
      );
    });

    it("a held code whose owed money an open MED blocks: still owed (the case's), nothing for the merchant to return, no clock", () => {
      const story = orderCodeStory(
        {
          ...heldShort,
          med: { ...open, blockedCents: 9_000, blockedOwedCents: 9_000, contestedCents: 0 },
        },
        now,
      );
      expect(story).toMatchObject({
        became: "held",
        captured: 0,
        contested: 0,
        owedBack: 9_000,
        devolucao: null,
      });
      expect(story.words).toMatch(/nada a devolver enquanto o MED não decide/);
      expectAccounted(story);
    });

    it("a held code the MED returned in part: that part returned, the rest owed with its clock", () => {
      const story = orderCodeStory(
        {
          ...heldShort,
          held: {
            ...heldShort.held!,
            returnedParts: [{ reference: "MED MED-2026-0001", at: paidAt, cents: 4_000 }],
          },
          med: {
            ...open,
            blockedCents: 4_000,
            blockedOwedCents: 4_000,
            contestedCents: 0,
            state: "returned",
            returnedCents: 4_000,
          },
        },
        now,
      );
      expect(story).toMatchObject({ owedBack: 5_000, returned: 4_000 });
      expect(story.devolucao).toMatchObject({ deadline: "2027-03-01" });
      expect(story.words).toMatch(/R\$\s40,00 já devolvidos ao pagador; devolva R\$\s50,00/);
      expectAccounted(story);
    });
  });
});
