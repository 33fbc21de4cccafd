import { describe, expect, it } from "vitest";
import translations, { PIX_CHECKOUT_NS } from "../i18n";
import { refundDeadline } from "../../internal/records/refund-deadline";
import { refundDeadlineTone, refundDeadlineWords } from "./refund-deadline-words";
import type { PixT } from "./i18n";

type Tree = { [key: string]: string | Tree };

/** `t` over one language's tree, with i18next's {{name}} interpolation. */
const tOf =
  (language: "ptBR" | "en"): PixT =>
  (key, values) => {
    let node: string | Tree | undefined = translations[language][PIX_CHECKOUT_NS] as Tree;
    for (const part of key.split(".")) node = typeof node === "object" ? node[part] : undefined;
    if (typeof node !== "string") return key;
    return node.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values?.[name] ?? ""));
  };

// A Pix of R$ 35,00 paid on 8 December 2026, owed back: its deadline is 8 March 2027.
const on = (day: string) =>
  refundDeadline(
    { method: "pix", paid_at: "2026-12-08T15:00:00-03:00", owed_cents: 3_500 },
    new Date(`${day}T12:00:00-03:00`),
  )!;
const words = (day: string, language: "ptBR" | "en" = "ptBR") =>
  refundDeadlineWords(on(day), tOf(language)).replace(/\u00a0/g, " ");

describe("refundDeadlineWords", () => {
  it("says the days left of the 90 and the deadline, not the amount the money line above says", () => {
    expect(words("2027-02-24")).toBe(
      "Prazo para devolver pelo Pix: faltam 12 dias (até 08/03/2027)",
    );
    expect(words("2027-03-07")).toBe("Prazo para devolver pelo Pix: falta 1 dia (até 08/03/2027)");
    expect(words("2027-03-08")).toBe("Último dia para devolver pelo Pix (hoje, 08/03/2027)");
    expect(words("2027-02-24", "en")).toBe("Pix refund deadline: 12 days left (until 08/03/2027)");
  });

  it("says once past that Pix no longer takes it and what to do", () => {
    expect(words("2027-03-09")).toBe(
      "O prazo para devolver pelo Pix acabou em 08/03/2027: devolva por transferência para a conta do cliente e registre a devolução",
    );
  });

  it("turns red at 5 days left and past, amber from 15", () => {
    expect(
      ["2027-01-10", "2027-02-21", "2027-03-02", "2027-03-03", "2027-03-09"].map((d) =>
        refundDeadlineTone(on(d)),
      ),
    ).toEqual(["subtle", "warning", "warning", "error", "error"]);
  });
});
