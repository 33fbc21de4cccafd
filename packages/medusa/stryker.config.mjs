// @ts-check
// `npm run mutation` (scripts/mutation.mjs runs Stryker here, on Node.js 24): StrykerJS changes
// the plugin's pure money decisions one mutant at a time and runs their unit tests
// (vitest.mutation.config.ts) against each; a mutant no test fails on survives. Not part of
// `npm test`. The report is written to reports/mutation/ (mutation.html, mutation.json).
import { strykerOptions } from "../../scripts/lib/stryker-options.mjs";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));

/**
 * What is mutated: whole files that are nothing but money decisions, and single pure functions
 * of files that also do I/O. A function is found by its name when Stryker starts, so its line
 * range follows the file as it changes; a function renamed or moved stops the run, saying so.
 * @type {{ file: string, fn?: string }[]}
 */
export const TARGETS = [
  // What a paid charge becomes, how money arrives, whether a collection is paid, what a refund
  // returns.
  { file: "src/internal/settlement/decide.ts" },
  // Whether a due reminder about an unpaid code goes (never to a paid cart).
  { file: "src/internal/settlement/reminder-verdict.ts" },
  // What a session answers Medusa at cart completion, from the decisions just recorded
  // (`verdictOf`), the API's statuses as Medusa's, and the session a charge is captured on.
  { file: "src/internal/settlement/session-answer.ts" },
  // Whether a collection takes a new code, and the words of a refusal (whether a charge's money
  // keeps its session, `keepsItsSession`, is decide.ts's).
  { file: "src/internal/settlement/paid-collection-guard.ts", fn: "refusalOf" },
  // What the collection asks, or that it pays for nothing (a payment of it is owed back).
  { file: "src/internal/settlement/snapshot.ts", fn: "asksOf" },
  // What a new code asks of a partly paid collection (the same link collects the rest).
  { file: "src/internal/settlement/snapshot.ts", fn: "newCodeCents" },
  // Which of Medusa's captures the ledger recorded: by the capture's id, never by the session.
  { file: "src/internal/settlement/snapshot.ts", fn: "paymentsOf" },
  // What a shopper hears of an older code's money (its ledger read is the test's own).
  { file: "src/internal/storefront/earlier-payment.ts" },
  // Who may be mailed about an unpaid code, before the mailbox proves itself with a paid order.
  { file: "src/internal/storefront/mailbox-proof.ts", fn: "shopperIsThere" },
  // The Pix discount in whole cents, its lines adding up to it.
  { file: "src/internal/medusa/whole-cent-shares.ts" },
  // Where a merchant's refund is recorded: on Medusa's order, or only in the ledger.
  { file: "src/internal/settlement/refund-portions.ts" },
  // (How a MED's block falls and where its return goes is @pix-checkout/client/med since
  // 2026-11-30, shared with the Vendure plugin; its tests went with it: packages/client.)
  // Whether Medusa's order is paid, as the shopper is told ("está pago" only then).
  { file: "src/internal/medusa/order-payment.ts", fn: "orderPaymentOf" },
  // What Medusa's order summary says is still pending, in cents (undefined: it cannot say).
  { file: "src/internal/medusa/order-payment.ts", fn: "pendingCentsOf" },
  // The order a shopper's page names: its payment, and what it still owes ("Faltam R$ X").
  { file: "src/internal/medusa/order-payment.ts", fn: "shopperOrderStateOf" },
  // The shopper's status answer, the whole file (it reads nothing): what a code's page says its
  // money became, a replaced code paid anyway never "paid" (`toStoreView`, with the fields it
  // copies and the boleto's real due date); its order, a canceled order ending its codes
  // (`withOrderState`); a paid code whose cart Medusa refused to complete, "confirming"
  // (`withCartRefused`); a code waiting in the create line, preparing (and when), failed or
  // replaced (`toQueuedView`); and which changes are news to an open page (`viewFingerprint`).
  { file: "src/internal/storefront/store-view.ts" },
  // When a code's stream has said everything (a paid code's stays open for its order's news),
  // and whether a paid code's money is on its way to the order (no "owes" is said meanwhile).
  { file: "src/internal/storefront/live-status/order-news.ts" },
  // Left out, each a rule of src/internal/README.md's table whose decision is a read:
  // session-money.ts (each function reads the database), mailbox-proof.ts `mayMailCode` past
  // `shopperIsThere` (a mailbox proves itself in SQL, medusa/buyers.ts), capture-door.ts
  // `captureStartedBySettlement` (one comparison of what three reads return: the live claim and
  // Medusa's capture are the rule), end-session.ts `sessionRefund` (a declared refund is taken
  // in SQL), records/ledger.ts, capture-claims.ts and attention.ts (SQL and the table's
  // constraints: a claim's liveness is `liveClaimSql`), failed-creates.ts (it reads, then asks
  // decide.ts `decideFailedCreate`), snapshot.ts `collectionStanding` (reads, then asks decide.ts),
  // checkout/session-data.ts (what a session's data may say: input parsing, no money decided);
  // and fetch-back.ts `untrueClaim` (whether a webhook is called forged; the money recorded is
  // the service's read either way), snapshot.ts `factsOf` (a row restated as facts, deciding
  // nothing); the shopper's view around those functions: store-session.ts `shopperView` and
  // `withOrder` (they read the cart's other codes and Medusa's order, then ask the functions
  // above), order-payment.ts `orderPaymentState` and `orderPaymentOfCollection` (Query and SQL
  // reads, then `shopperOrderStateOf`), order-view.ts `orderView` (reads, then
  // `earlierPaymentOf`).
];

/**
 * `file:start-end`, the lines of the top-level function `fn` (from its `function` line to the
 * first `}` at the start of a line after it).
 * @param {string} file
 * @param {string} fn
 */
function rangeOf(file, fn) {
  const lines = readFileSync(join(here, file), "utf8").split("\n");
  const start = lines.findIndex((line) =>
    new RegExp(`^(export )?(async )?function ${fn}\\b`).test(line),
  );
  const end = lines.findIndex((line, index) => index > start && line.startsWith("}"));
  if (start === -1 || end === -1) {
    throw new Error(
      `stryker.config.mjs: ${file} has no top-level function ${fn} any more; say in TARGETS where it went`,
    );
  }
  return `${file}:${start + 1}-${end + 1}`;
}

export default strykerOptions({
  configFile: "vitest.mutation.config.ts",
  mutate: TARGETS.map(({ file, fn }) => (fn ? rangeOf(file, fn) : file)),
  // Issue #58 asks 85 % of settlement's decisions.
  thresholds: { high: 85, low: 70 },
});
