import type { Lang } from "./index.js";
import type { BoletoStrings } from "./strings.js";

/**
 * The boleto view's strings in every language. Only the boleto chunk imports this, so
 * Pix checkouts never download them.
 */
export const boletoStrings: Record<Lang, BoletoStrings> = {
  "pt-BR": {
    title: "Pague com boleto",
    digitableLine: "Linha digitável",
    copyLine: "Copiar linha digitável",
    barcodeLabel: "Código de barras do boleto",
    openBoleto: "Ver boleto",
    dueDate: (d) => `Vencimento: ${d}`,
    steps:
      "Pague no app do banco, no internet banking ou em uma lotérica. A compensação leva até 3 dias úteis.",
  },
  en: {
    title: "Pay with boleto",
    digitableLine: "Digitable line",
    copyLine: "Copy digitable line",
    barcodeLabel: "Boleto barcode",
    openBoleto: "View boleto",
    dueDate: (d) => `Due date: ${d}`,
    steps:
      "Pay in your bank app, online banking or a lottery outlet. Clearing takes up to 3 business days.",
  },
  es: {
    title: "Paga con boleto",
    digitableLine: "Línea digitable",
    copyLine: "Copiar línea digitable",
    barcodeLabel: "Código de barras del boleto",
    openBoleto: "Ver boleto",
    dueDate: (d) => `Vencimiento: ${d}`,
    steps:
      "Paga en la app de tu banco, banca en línea o una lotería. La acreditación tarda hasta 3 días hábiles.",
  },
};
