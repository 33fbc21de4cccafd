import type { BookLine, Reconciliation } from "./books";
import type { CsvLanguage } from "./books-csv";
import { maskDocument } from "@pix-checkout/client";
import { centsToText } from "@pix-checkout/client/books";
import { readBuyerDocument } from "../platform/buyer-document";
import { saoPauloStamp } from "@pix-checkout/client/books";

// The period as a bank statement of the merchant's account at the payment service, in the
// dialect Brazilian banks export and Brazilian finance tools import first: OFX 1.02 (SGML),
// `CHARSET:1252` (Windows-1252 bytes, so "Cobrança" stays one readable word in tools that
// never learnt UTF-8), BRL, dates in São Paulo time with their offset (`[-3:BRT]`), amounts
// with a decimal point. Only money that moved in that account is a transaction: a capture
// Medusa recorded without a paid charge at the service moved nothing there, so it is in the
// CSV and the JSON report, not here.

/** Words of the statement's names and memos. */
const WORDS = {
  "pt-BR": {
    charge: "Cobrança",
    fee: "Tarifa",
    refund: "Devolução",
    withdrawal: "Saque",
    order: "Pedido",
    of: "cobrança",
    afterReminder: "após lembrete",
    pixDiscount: "desconto no Pix",
    refundDeadline: "devolver até",
    purpose: {
      order_edit: "diferença da edição",
      exchange: "diferença da troca",
      claim: "diferença da reclamação",
      return: "diferença da devolução",
    } as Partial<Record<string, string>>,
  },
  en: {
    charge: "Charge",
    fee: "Fee",
    refund: "Refund",
    withdrawal: "Withdrawal",
    order: "Order",
    of: "charge",
    afterReminder: "after a reminder",
    pixDiscount: "Pix discount",
    refundDeadline: "refund by",
    purpose: {
      order_edit: "order edit difference",
      exchange: "exchange difference",
      claim: "claim difference",
      return: "return difference",
    } as Partial<Record<string, string>>,
  },
} satisfies Record<CsvLanguage, unknown>;

/** The account the statement is of: one provider registration is one account at the service. */
export interface OfxAccount {
  /** The registration's id (`a` in `pp_pix_a`). */
  provider: string;
}

/** A transaction of the statement. */
interface OfxTransaction {
  type: "CREDIT" | "DEBIT" | "FEE";
  date: Date;
  cents: number;
  /** Stable across exports of any period that holds it, so a re-import never duplicates. */
  fitid: string;
  name: string;
  memo: string;
}

/** `20261124103000[-3:BRT]`: São Paulo's wall clock and its offset, as Brazilian banks write. */
export function ofxDate(at: Date): string {
  const { stamp, offsetMinutes } = saoPauloStamp(at);
  // São Paulo's offsets are whole hours: -3 (BRT), and -2 (BRST) in the summers before 2019.
  const zone = offsetMinutes === -120 ? "BRST" : "BRT";
  return `${stamp}[${Math.round(offsetMinutes / 60)}:${zone}]`;
}

/** Integer cents as OFX writes an amount: `-1234.56`, built on the digits (no float). */
export function ofxAmount(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new TypeError(`${String(cents)} is not integer cents`);
  const digits = String(Math.abs(cents)).padStart(3, "0");
  return `${cents < 0 ? "-" : ""}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

// A CPF (11 digits) or CNPJ (14), with or without its dots, slash and dash. The memo names the
// order and the customer; a document a shopper typed into their name field must not reach the
// accountant's tool (nor every bank-import cache it syncs to).
const DOCUMENT = /\d{2,3}\.?\d{3}\.?\d{3}(?:\/?\d{4})?-?\d{2}/g;

/** A customer as the memo names them: any CPF or CNPJ in the text becomes `***`. */
export function withoutDocuments(text: string): string {
  return text.replace(DOCUMENT, "***");
}

/**
 * The buyer's document on the order as the memo names it: its kind and the client's mask, as a
 * session's public data shows it (`CPF *********25`, `CNPJ ************35`). An OFX goes to
 * bank-reconciliation tools, which need to tell two buyers apart, not to issue a nota fiscal:
 * the CSV's `CPF/CNPJ do comprador` keeps it whole for that (docs/privacy.md).
 */
export function maskedBuyerDocument(bare: string): string {
  const document = readBuyerDocument(bare);
  const masked = maskDocument(bare);
  return document ? `${document.type.toUpperCase()} ${masked}` : masked;
}

/** Text an SGML field can hold: no markup, no line break, at most `max` characters. */
export function ofxText(text: string, max: number): string {
  return text
    .replace(/[\r\n\t]+/g, " ")
    .replace(/\s{2,}/g, " ")
    .trim()
    .slice(0, max)
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;");
}

/**
 * What a line is about, for a memo: `Pedido #12 - Ana Silva - CPF *********25 - cobrança 4f0c…`
 * (the buyer's document masked, when the order has one), then
 * ` - desconto no Pix 4,00` after the charge that counts its order's Pix discount (the sale's:
 * books.ts `pixDiscountLines`, so the memos add up to the CSV's total), and
 * ` - após lembrete` after one whose payment followed a reminder to its cart (the memo only:
 * the FITID and the amount stay the charge's).
 */
function about(line: BookLine, language: CsvLanguage): string {
  const words = WORDS[language];
  const parts: string[] = [];
  if (line.order?.display_id != null) parts.push(`${words.order} #${line.order.display_id}`);
  if (line.customer) parts.push(withoutDocuments(line.customer));
  if (line.order?.buyer_document) parts.push(maskedBuyerDocument(line.order.buyer_document));
  if (line.id) parts.push(`${line.type === "withdrawal" ? "id" : words.of} ${line.id}`);
  const discount = line.type === "charge" ? (line.pix_discount_cents ?? 0) : 0;
  if (discount > 0) parts.push(`${words.pixDiscount} ${centsToText(discount, language)}`);
  if (line.type === "charge" && line.after_reminder) parts.push(words.afterReminder);
  // A difference paid after the sale says so; a cart's or a whole order's payment needs no word.
  const purpose = line.type === "charge" && line.purpose ? words.purpose[line.purpose] : undefined;
  if (purpose) parts.push(purpose);
  // Pix money owed back: the last day its devolução may be asked (records/refund-deadline.ts).
  if (line.type === "charge" && line.refund_deadline) {
    const [year, month, date] = line.refund_deadline.split("-");
    parts.push(`${words.refundDeadline} ${date}/${month}/${year}`);
  }
  return parts.join(" - ");
}

function nameOf(label: string, line: BookLine): string {
  return line.order?.display_id != null ? `${label} #${line.order.display_id}` : label;
}

/** The statement's transactions, by date (a charge's fee right after it). */
export function ofxTransactions(
  report: Reconciliation,
  language: CsvLanguage = "pt-BR",
): OfxTransaction[] {
  const words = WORDS[language];
  const out: OfxTransaction[] = [];
  for (const line of report.lines) {
    if (line.type === "charge") {
      // Only a charge the service received moved money in this account.
      if (line.gross_cents === null || line.id === null) continue;
      const memo = about(line, language);
      out.push({
        type: "CREDIT",
        date: line.date,
        cents: line.gross_cents,
        fitid: line.id,
        name: nameOf(words.charge, line),
        memo,
      });
      if (line.fee_cents) {
        out.push({
          type: "FEE",
          date: line.date,
          cents: -line.fee_cents,
          fitid: `${line.id}-fee`,
          name: nameOf(words.fee, line),
          memo,
        });
      }
    } else if (line.type === "refund") {
      // One transaction per declaration, so a second refund of a charge in a later period is
      // a new transaction and the first is never counted again.
      for (const declaration of line.declarations ?? []) {
        if (declaration.amount_cents === 0) continue;
        out.push({
          type: "DEBIT",
          date: declaration.declared_at,
          cents: -declaration.amount_cents,
          fitid: `${line.id}-refund-${declaration.id}`,
          name: nameOf(words.refund, line),
          // How the merchant returned it, as they wrote it (any CPF or CNPJ in it hidden).
          memo: declaration.note?.trim()
            ? `${about(line, language)} - ${withoutDocuments(declaration.note.trim())}`
            : about(line, language),
        });
      }
    } else if (line.gross_cents !== null && line.id !== null) {
      out.push({
        type: "DEBIT",
        date: line.date,
        cents: line.gross_cents,
        fitid: line.id,
        name: words.withdrawal,
        memo: about(line, language),
      });
    }
  }
  // Stable: a fee keeps its place after its charge, and equal dates keep the report's order.
  return out.sort((a, b) => a.date.getTime() - b.date.getTime());
}

/** A registration id as an `ACCTID`: `pix-checkout-a`. */
function accountId(provider: string): string {
  return `pix-checkout-${provider.replace(/[^A-Za-z0-9_-]/g, "_")}`.slice(0, 22);
}

/**
 * The period's statement as OFX 1.02 text (see the README's "The OFX"). `now` dates the
 * server's answer; the closing balance is the service's, dated when it was read.
 */
export function reconciliationOfx(
  report: Reconciliation,
  account: OfxAccount,
  options: { language?: CsvLanguage; now?: Date; start: Date; end: Date },
): string {
  const language = options.language ?? "pt-BR";
  const transactions = ofxTransactions(report, language);
  const balance = report.totals.balance;
  const lines = [
    "OFXHEADER:100",
    "DATA:OFXSGML",
    "VERSION:102",
    "SECURITY:NONE",
    "ENCODING:USASCII",
    "CHARSET:1252",
    "COMPRESSION:NONE",
    "OLDFILEUID:NONE",
    "NEWFILEUID:NONE",
    "",
    "<OFX>",
    "<SIGNONMSGSRSV1>",
    "<SONRS>",
    "<STATUS>",
    "<CODE>0",
    "<SEVERITY>INFO",
    "</STATUS>",
    `<DTSERVER>${ofxDate(options.now ?? new Date())}`,
    `<LANGUAGE>${language === "pt-BR" ? "POR" : "ENG"}`,
    "</SONRS>",
    "</SIGNONMSGSRSV1>",
    "<BANKMSGSRSV1>",
    "<STMTTRNRS>",
    "<TRNUID>1",
    "<STATUS>",
    "<CODE>0",
    "<SEVERITY>INFO",
    "</STATUS>",
    "<STMTRS>",
    "<CURDEF>BRL",
    "<BANKACCTFROM>",
    // The payment service has no Brazilian bank code (COMPE); tools that expect digits get
    // zeros and ask which account to import into, then remember it by ACCTID.
    "<BANKID>0000",
    `<ACCTID>${accountId(account.provider)}`,
    "<ACCTTYPE>CHECKING",
    "</BANKACCTFROM>",
    "<BANKTRANLIST>",
    `<DTSTART>${ofxDate(options.start)}`,
    `<DTEND>${ofxDate(new Date(options.end.getTime() - 1000))}`,
  ];
  for (const tx of transactions) {
    lines.push(
      "<STMTTRN>",
      `<TRNTYPE>${tx.type}`,
      `<DTPOSTED>${ofxDate(tx.date)}`,
      `<TRNAMT>${ofxAmount(tx.cents)}`,
      `<FITID>${ofxText(tx.fitid, 255)}`,
      `<NAME>${ofxText(tx.name, 32)}`,
      `<MEMO>${ofxText(tx.memo, 255)}`,
      "</STMTTRN>",
    );
  }
  lines.push("</BANKTRANLIST>");
  if (balance) {
    const at = ofxDate(balance.read_at);
    lines.push(
      "<LEDGERBAL>",
      `<BALAMT>${ofxAmount(balance.available_cents + balance.pending_cents)}`,
      `<DTASOF>${at}`,
      "</LEDGERBAL>",
      "<AVAILBAL>",
      `<BALAMT>${ofxAmount(balance.available_cents)}`,
      `<DTASOF>${at}`,
      "</AVAILBAL>",
    );
  }
  lines.push("</STMTRS>", "</STMTTRNRS>", "</BANKMSGSRSV1>", "</OFX>", "");
  return lines.join("\r\n");
}

// Windows-1252's bytes 0x80–0x9F, in order: the letters it puts where Latin-1 has controls
// (the five unused bytes are left as the controls, which no text here holds).
const CP1252_80_9F = "€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ";

/**
 * Text as Windows-1252 bytes (`CHARSET:1252`). Every letter of Portuguese is there; a letter
 * that is not (a name in another script) loses its accent if it has one, else becomes `?`.
 */
export function toWindows1252(text: string): Buffer {
  const bytes: number[] = [];
  for (const char of text) {
    const code = char.codePointAt(0) as number;
    if (code < 0x80 || (code >= 0xa0 && code <= 0xff)) bytes.push(code);
    else if (CP1252_80_9F.includes(char)) bytes.push(0x80 + CP1252_80_9F.indexOf(char));
    else {
      const bare = char.normalize("NFD").replace(/\p{M}/gu, "");
      const first = bare.codePointAt(0) ?? 0x3f;
      bytes.push(
        bare.length > 0 && (first < 0x80 || (first >= 0xa0 && first <= 0xff)) ? first : 0x3f,
      );
    }
  }
  return Buffer.from(bytes);
}

/** The download's file name: `conciliacao-pix-<registration>-<from>_<to>.ofx`. */
export function ofxFileName(provider: string, from: string, to: string): string {
  const safe = provider.replace(/[^A-Za-z0-9_-]/g, "_");
  return `conciliacao-pix-${safe}-${from}_${to}.ofx`;
}
