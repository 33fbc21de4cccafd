// What the order widget sends a customer who owes money after the sale: the payment link with
// the amount, by WhatsApp (`wa.me`) or e-mail (`mailto:`), from the merchant's own app. The
// words are Brazilian Portuguese whatever the admin's language: they are the customer's.
import { brl } from "../../internal/platform/brl";
import type { AdminOutstanding } from "./types";

/** What the amount is for, in the customer's words: "a diferença da troca do pedido #1042". */
export function customerPurpose(outstanding: AdminOutstanding): string {
  const number = outstanding.display_id !== null ? `#${outstanding.display_id}` : "";
  switch (outstanding.purpose) {
    case "order_edit":
      return `a diferença da edição do pedido ${number}`.trim();
    case "exchange":
      return `a diferença da troca do pedido ${number}`.trim();
    case "claim":
      return `a diferença da reclamação do pedido ${number}`.trim();
    case "return":
      return `a diferença da devolução do pedido ${number}`.trim();
    default:
      return `o pedido ${number}`.trim();
  }
}

/** The message that carries the link: one line, the amount said exactly (no float). */
export function linkMessage(outstanding: AdminOutstanding, link: string): string {
  return `Olá! Segue o link para pagar ${customerPurpose(outstanding)} (${brl(outstanding.amount)}) com Pix: ${link}`;
}

/** `https://wa.me/<number>?text=…`: to the order's phone when it has one, else the merchant picks the contact. */
export function whatsappUrl(outstanding: AdminOutstanding, link: string): string {
  const text = encodeURIComponent(linkMessage(outstanding, link));
  return outstanding.whatsapp
    ? `https://wa.me/${outstanding.whatsapp}?text=${text}`
    : `https://wa.me/?text=${text}`;
}

/** `mailto:` the order's e-mail with a subject and the message, from the merchant's mail app. */
export function mailtoUrl(outstanding: AdminOutstanding, link: string): string {
  const subject = `Pagamento de ${customerPurpose(outstanding)}`;
  return `mailto:${encodeURIComponent(outstanding.email ?? "")}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(linkMessage(outstanding, link))}`;
}
