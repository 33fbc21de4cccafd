#!/usr/bin/env node
// Each money rule, and the unit test that fails without it (docs/internals.md, "Mutation
// testing"): for each row, the rule's code is replaced by what stands in its place without it,
// the named unit test runs (vitest.mutation.config.ts), and the row passes only when that test
// runs and fails; the source is put back whatever happens. A rule whose code changed since says
// so (its text is not found once): update the row. Usage, from this package:
//   node scripts/rule-removals.mjs            every row
//   node scripts/rule-removals.mjs 4b 6       the rows whose rule starts with one of these
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const internal = join(dirname(fileURLToPath(import.meta.url)), "..", "src", "internal");

/** @type {{ rule: string, file: string, code: string, without: string, test: string, name: string }[]} */
const ROWS = [
  {
    rule: "1",
    file: "settlement/decide.ts",
    code: "  if (money.held === 0) {\n    return {",
    without: "  if (false) {\n    return {",
    test: "settlement/decide.test.ts",
    name: "leaves owed money owed",
  },
  {
    rule: "2 less held",
    file: "settlement/decide.ts",
    code: "  if (receivedCents < askedCents) {",
    without: "  if (false) {",
    test: "settlement/decide.test.ts",
    name: "less is held for the merchant's decision",
  },
  {
    rule: "2 hold",
    file: "settlement/decide.ts",
    code: '  if (!heldForCapture(money)) return { kind: "hold", reason: "underpaid" };\n',
    without: "",
    test: "settlement/decide.test.ts",
    name: "holds a charge the bank credited R$ 10,00 short for the merchant",
  },
  {
    rule: "2 excess",
    file: "settlement/decide.ts",
    code: "    owed: receivedCents - askedCents,",
    without: "    owed: 0,",
    test: "settlement/decide.test.ts",
    name: "more is held up to what the code asked, and the excess is owed back",
  },
  {
    rule: "3 paid_twice",
    file: "settlement/decide.ts",
    code: "  if (before > 0 && (asks === null || before >= asks || cartStillShopping)) {",
    without: "  if (false) {",
    test: "settlement/decide.test.ts",
    name: "makes the second of two codes paid in full owed back (first paid wins)",
  },
  {
    rule: "3 captured first",
    file: "settlement/decide.ts",
    code: "        Number(b.everCapturedCents > 0) - Number(a.everCapturedCents > 0) ||\n",
    without: "",
    test: "settlement/decide.test.ts",
    name: "keeps a captured charge the payment even if the other was paid earlier by the API's clock",
  },
  {
    rule: "3 claimed next",
    file: "settlement/decide.ts",
    code: "        Number(b.captureClaimed) - Number(a.captureClaimed) ||\n",
    without: "",
    test: "settlement/decide.test.ts",
    name: "keeps a code whose capture is in flight the payment even if another was paid earlier by the API's clock",
  },
  {
    rule: "3 then paid_at",
    file: "settlement/decide.ts",
    code: "        (a.paidAt?.getTime() ?? 0) - (b.paidAt?.getTime() ?? 0) ||\n",
    without: "",
    test: "settlement/decide.test.ts",
    name: "makes the code paid first by the API's clock the payment, whatever its id or place in the list",
  },
  {
    rule: "3 ever captured",
    file: "settlement/decide.ts",
    code: "  return charge.everCapturedCents + held;",
    without: "  return capturedInMedusa(charge.money) + held;",
    test: "settlement/decide.test.ts",
    name: "owes back a code of a collection whose earlier code was captured and refunded: money returned still paid it once",
  },
  {
    rule: "3 cart's own money",
    file: "settlement/decide.ts",
    code: '  if (stage === "cart") return capturedInMedusa(charge.money) + held;\n',
    without: "",
    test: "settlement/decide.test.ts",
    name: "captures a new code of a cart whose earlier code's captured money was owed back (out_of_stock): that money no longer pays the cart",
  },
  {
    rule: "3 paid_elsewhere",
    file: "settlement/decide.ts",
    code: "  if (paidAnotherWay(snapshot.payments, sessionsOfCharges(snapshot.charges))) {",
    without: "  if (false) {",
    test: "settlement/decide.test.ts",
    name: "owes back a code whose own session is live when the merchant marked the order paid (a captured payment of no charge)",
  },
  {
    rule: "3 coverage",
    file: "settlement/decide.ts",
    code: "remainingCents: Math.max(0, (asksCents ?? 0) - paidCents)",
    without: "remainingCents: asksCents ?? 0",
    test: "settlement/decide.test.ts",
    name: "counts money captured (returned since or not) and money held for the capture, and leaves the rest",
  },
  {
    rule: "3 paid in full",
    file: "settlement/decide.ts",
    code: "(asksCents === null || coverageOf(charges, asksCents, stage).remainingCents === 0)",
    without: "true",
    test: "settlement/decide.test.ts",
    name: "is not paid while its charges paid less than it asks (an order edited up), and is once they paid it all",
  },
  {
    rule: "4 at most asked",
    file: "settlement/decide.ts",
    code: "  const payable = cartStillShopping ? held : Math.min(held, remaining);",
    without: "  const payable = held;",
    test: "settlement/decide.test.ts",
    name: "captures what an order edited down still asks of its order-first code, and owes the rest back",
  },
  {
    rule: "4 cart exemption",
    file: "settlement/decide.ts",
    code: '  const cartStillShopping = stage === "cart";',
    without: "  const cartStillShopping = false;",
    test: "settlement/decide.test.ts",
    name: "reads a cart's code by its session alone: Medusa deletes a cart's sessions when its total moves",
  },
  {
    rule: "4 own session",
    file: "settlement/decide.ts",
    code: "  if (!charge.superseded && (ownSessionLive || ownPayment)) {",
    without: "  if (false) {",
    test: "settlement/decide.test.ts",
    name: "captures on its own session once the order holds its payment (sessions of a completed cart)",
  },
  {
    rule: "4b same provider",
    file: "settlement/decide.ts",
    code: "        s.providerId === charge.providerId &&\n",
    without: "",
    test: "settlement/decide.test.ts",
    name: "never adopts onto a live session of another account's provider, whatever it asks",
  },
  {
    rule: "4b only in full",
    file: "settlement/decide.ts",
    code: "  if (held >= remaining) {",
    without: "  if (true) {",
    test: "settlement/decide.test.ts",
    name: "owes back a replaced code that paid less than the cart now costs",
  },
  {
    rule: "4b no payment stands",
    file: "settlement/decide.ts",
    code: "        s.amountCents >= remaining &&\n        !paymentStandsOn(snapshot.payments, s.id),",
    without: "        s.amountCents >= remaining,",
    test: "settlement/decide.test.ts",
    name: "never adopts onto a session whose Medusa payment stands (authorized at cart completion)",
  },
  {
    rule: "4b excess owed",
    file: "settlement/decide.ts",
    code: "    if (live) return on(live.id, true, remaining);",
    without: "    if (live) return on(live.id, true, held);",
    test: "settlement/decide.test.ts",
    name: "adopts a replaced code that paid more than the cheaper cart now costs: captures what it asks, owes the difference",
  },
  {
    rule: "4c canceled",
    file: "settlement/decide.ts",
    code: '  if (asks === null) return owe("collection_canceled");\n',
    without: "",
    test: "settlement/decide.test.ts",
    name: "owes back a code paid after Medusa canceled its collection",
  },
  {
    rule: "5 after cancel",
    file: "settlement/decide.ts",
    code: '  if (snapshot.order?.canceledAt) return owe("paid_after_order_canceled");\n',
    without: "",
    test: "settlement/decide.test.ts",
    name: "owes back a payment that arrived after its order was canceled",
  },
  {
    rule: "5 order canceled",
    file: "settlement/decide.ts",
    code: "  if (order?.canceledAt) {\n    const after",
    without: "  if (false) {\n    const after",
    test: "settlement/decide.test.ts",
    name: "owes back captured money whose order was canceled after the capture",
  },
  {
    rule: "5 beside another",
    file: "settlement/decide.ts",
    code: "  if (snapshot.payments.some((p) => !p.ours && !p.canceled)) {",
    without: "  if (false) {",
    test: "settlement/decide.test.ts",
    name: "owes back captured money beside another provider's standing payment (a session swap raced the payment)",
  },
  {
    rule: "6 ends",
    file: "settlement/decide.ts",
    code: '    ? { kind: "end_order", orderId: order.id }',
    without: '    ? { kind: "keep_order", orderId: order.id }',
    test: "settlement/decide.test.ts",
    name: "ends the order that waits on an expired Pix",
  },
  {
    rule: "6 grace",
    file: "settlement/decide.ts",
    code: "  if (inGrace) return recheck();\n",
    without: "",
    test: "settlement/decide.test.ts",
    name: "waits for a boleto's grace period before ending its order",
  },
  {
    rule: "6 holds money",
    file: "settlement/decide.ts",
    code: "  if (snapshot.charges.some(holdsMoney)) {\n    return inGrace",
    without: "  if (false) {\n    return inGrace",
    test: "settlement/decide.test.ts",
    name: "never ends an order while another code of the cart is paid",
  },
  {
    rule: "6 replaced",
    file: "settlement/decide.ts",
    code: "  if (charge.superseded) {\n    return inGrace",
    without: "  if (false) {\n    return inGrace",
    test: "settlement/decide.test.ts",
    name: "does nothing for a replaced code that expired",
  },
  {
    rule: "6 cancelOrderOnExpiry",
    file: "settlement/decide.ts",
    code: "  return snapshot.cancelOrderOnExpiry\n",
    without: "  return true\n",
    test: "settlement/decide.test.ts",
    name: "keeps the order when the merchant turned cancelOrderOnExpiry off",
  },
  {
    rule: "6 order's own collection",
    file: "settlement/decide.ts",
    code: '  if (!order || order.status === "canceled" || !snapshot.cartId) return otherwise;',
    without: '  if (!order || order.status === "canceled") return otherwise;',
    test: "settlement/decide.test.ts",
    name: "never ends the order of an order's own collection (an edit's difference, a converted draft): only its code is closed",
  },
  {
    rule: "6 waits on this session",
    file: "settlement/decide.ts",
    code: "  return standing.some((payment) => payment.sessionId === sessionId);",
    without: "  return true;",
    test: "settlement/decide.test.ts",
    name: "does not end an order whose payment is another session's",
  },
  {
    rule: "6 failed create",
    file: "settlement/decide.ts",
    code: '  return endOrderWaitingOn(snapshot, sessionId, {\n    kind: "nothing",',
    without: '  return ({\n    kind: "nothing",',
    test: "settlement/decide.test.ts",
    name: "ends the order-first order that waits on the session",
  },
  {
    rule: "7 completes",
    file: "settlement/decide.ts",
    code: '    return { kind: "complete_cart", cartId: snapshot.cartId };',
    without: '    return { kind: "nothing", why: DELIVERY_DETAILS.alreadyCaptured };',
    test: "settlement/decide.test.ts",
    name: "completes the cart of captured money that is no order yet",
  },
  {
    rule: "7 owed after attempts",
    file: "settlement/decide.ts",
    code: "  if (tries.failures < CART_COMPLETION_ATTEMPTS) {",
    without: "  if (true) {",
    test: "settlement/decide.test.ts",
    name: "owes back captured money whose cart kept failing for its stock, and closes the session",
  },
  {
    rule: "8",
    file: "settlement/decide.ts",
    code: '  if (decision.kind === "refund_due" && charge.captureClaimed) {',
    without: "  if (false) {",
    test: "settlement/decide.test.ts",
    name: "waits for a capture in flight instead of owing its money back from under it",
  },
  {
    rule: "returnOf held",
    file: "settlement/refund-portions.ts",
    code: 'const held = money.heldReason === "underpaid" ? money.held : 0;',
    without: "const held = money.held;",
    test: "settlement/decide.test.ts",
    name: "never returns money Medusa's capture is taking, nor more than the charge holds",
  },
  {
    rule: "returnOf owed in Medusa",
    file: "settlement/refund-portions.ts",
    code: '    { from: "owed", cents: owedInMedusaFree, in_medusa: true, why: money.owedReason },',
    without:
      '    { from: "owed", cents: owedInMedusaFree, in_medusa: false, why: money.owedReason },',
    test: "settlement/decide.test.ts",
    name: "owed money Medusa holds captured (an order canceled after its capture) is refunded in Medusa",
  },
  {
    rule: "returnOf owed first",
    file: "settlement/refund-portions.ts",
    code: '    { from: "owed", cents: owedOutside, in_medusa: false, why: money.owedReason },\n    { from: "owed", cents: owedInMedusaFree, in_medusa: true, why: money.owedReason },\n    { from: "held", cents: held, in_medusa: false, why: "underpaid" },\n    { from: "captured", cents: money.captured, in_medusa: true, why: null },',
    without:
      '    { from: "captured", cents: money.captured, in_medusa: true, why: null },\n    { from: "owed", cents: owedOutside, in_medusa: false, why: money.owedReason },\n    { from: "owed", cents: owedInMedusaFree, in_medusa: true, why: money.owedReason },\n    { from: "held", cents: held, in_medusa: false, why: "underpaid" },',
    test: "settlement/decide.test.ts",
    name: "owed money first, then the order's captured money",
  },
  {
    rule: "verdict right to capture",
    file: "settlement/session-answer.ts",
    code: "      const capturesHere = (!authorizing || claim !== undefined) && !decision.partOfSession;",
    without: "      const capturesHere = !decision.partOfSession;",
    test: "settlement/session-answer.test.ts",
    name: "authorized at cart completion while another door (a webhook's capture) holds the right to capture: Medusa captures once",
  },
  {
    rule: "verdict refund due",
    file: "settlement/session-answer.ts",
    code: '  if (own.status === "paid") {',
    without: "  if (false) {",
    test: "settlement/session-answer.test.ts",
    name: "error, refund due, for a paid code that is not the collection's payment: the cart never completes on money owed back",
  },
  {
    rule: "keepsItsSession",
    file: "settlement/decide.ts",
    code: ' || row.held_reason === "underpaid";',
    without: ";",
    test: "settlement/paid-collection-guard.test.ts",
    name: "money short of the code, waiting for the merchant's decision, keeps it: no new code meanwhile",
  },
  {
    rule: "refusalOf",
    file: "settlement/paid-collection-guard.ts",
    code: "  if (standing.heldForMerchant) {",
    without: "  if (false) {",
    test: "settlement/paid-collection-guard.test.ts",
    name: "refuses while a payment short of its code waits for the store's decision",
  },
  {
    rule: "newCodeCents",
    file: "settlement/snapshot.ts",
    code: "    return Math.min(sessionCents, standing.remainingCents);",
    without: "    return sessionCents;",
    test: "settlement/snapshot.test.ts",
    name: "only what is left once a code paid part of it (an order edited up): the same link collects the rest",
  },
  {
    rule: "asksOf",
    file: "settlement/snapshot.ts",
    code: "  if (!medusa.cartId && !medusa.order) return null;\n",
    without: "",
    test: "settlement/snapshot.test.ts",
    name: "a collection no cart and no order owns (the merchant deleted it) pays for nothing",
  },
  {
    rule: "paymentsOf by id",
    file: "settlement/snapshot.ts",
    code: "      if (named.has(capture.id)) return { ...capture, recorded: true };\n",
    without: "",
    test: "settlement/snapshot.test.ts",
    name: "counts a capture recorded by its id whichever charge's entry names it (never by the session alone)",
  },
  {
    rule: "earlier payment",
    file: "storefront/earlier-payment.ts",
    code: '  "paid_old_amount",\n',
    without: "",
    test: "storefront/earlier-payment.test.ts",
    name: "tells of an older code paid for an amount the cart no longer has, while this code is still to pay",
  },
  {
    rule: "shopperIsThere",
    file: "storefront/mailbox-proof.ts",
    code: "  return Boolean(recipient.order) || Boolean(code.shown_at);",
    without: "  return true;",
    test: "storefront/mailbox-proof.test.ts",
    name: "nobody while no page showed the code and no order exists",
  },
  {
    rule: "wholeCentShares",
    file: "medusa/whole-cent-shares.ts",
    code: "    shares[index]! += 1;\n",
    without: "",
    test: "medusa/whole-cent-shares.test.ts",
    name: "spreads the rounded total by largest remainder, so the lines add up to it",
  },
  {
    rule: "reminder paid",
    file: "settlement/reminder-verdict.ts",
    code: '  if (facts.collectionPaid || charge.status === "paid") return skip("paid");\n',
    without: "",
    test: "settlement/reminder-verdict.test.ts",
    name: "sends nothing once the cart is paid, by this code or another",
  },
  // What a shopper's page says of a code's money (store-view.ts `toStoreView`): a storefront
  // completes its cart on `paid`, so `paid` is said only of money that is the cart's payment.
  {
    rule: "view held",
    file: "storefront/store-view.ts",
    code: '  if (money.heldReason === "underpaid") {\n    view.status = "held";',
    without: '  if (false) {\n    view.status = "held";',
    test: "storefront/store-view.test.ts",
    name: "says a payment short of the code is held, with what arrived, never paid (issue #69)",
    // Also caught at `npm test` size by the money model's invariant 9 ("told",
    // integration-tests/http/money-model.test.ts): an underpaid code told paid fails it after
    // the step that pays it short (checked by hand: it boots Medusa, so it is not a row here).
  },
  {
    rule: "view replaced payment",
    file: "storefront/store-view.ts",
    code: "  const replacedPayment =\n    Boolean(row.superseded_at) &&",
    without: "  const replacedPayment =\n    false &&",
    test: "storefront/store-view.test.ts",
    name: "never says paid for a replaced code the shopper paid while the store decides what it becomes",
  },
  {
    rule: "view refund due",
    file: "storefront/store-view.ts",
    code: '    if (money.captured === 0 && money.held === 0 && money.contested === 0) {\n      view.status = "refund_due";',
    without: '    if (false) {\n      view.status = "refund_due";',
    test: "storefront/store-view.test.ts",
    name: "tells a shopper whose code no order came of what the store returns, and why",
  },
  // A paid code whose cart Medusa refused to complete, with no order, is `confirming`: a
  // storefront completes its cart on `paid`, and would be refused the same way.
  {
    rule: "view cart refused",
    file: "storefront/store-view.ts",
    code: '  if (view.status !== "paid" || view.order || cartFailures === 0) return view;',
    without: "  return view;",
    test: "storefront/store-view.test.ts",
    name: "says a paid code whose cart Medusa refused to complete is confirming, never paid, until an order comes",
  },
  // A canceled order ends its codes in what the shopper reads (store-view.ts `withOrderState`):
  // a code still told `paid`, its money blocked by a MED that no decision owes back while the
  // MED is open, reads `canceled`.
  {
    rule: "view canceled order",
    file: "storefront/store-view.ts",
    code: '  if (view.status !== "paid") return { ...rest, order: shown };',
    without: "  return { ...rest, order: shown };",
    test: "storefront/store-view.test.ts",
    name: "tells a code whose money a MED blocks that its order is canceled, never paid (issue #69)",
  },
  // While a paid code's money is on its way to the order, the page names no amount the order
  // owes (store-view.ts `withOrderState` drops `owes` on `paymentOnItsWay`): this code pays it.
  {
    rule: "view payment on its way",
    file: "storefront/live-status/order-news.ts",
    code: "  return captureDue || Boolean(row.awaiting_order_since);",
    without: "  return false;",
    test: "storefront/live-status/order-news.test.ts",
    name: "says a paid code's money is on its way while settlement captures it or its cart becomes an order",
  },
  // A MED's block falls on money already owed back first (operations/med-split.ts), and a
  // merchant's refund leaves the owed money an open MED blocked to its outcome.
  {
    rule: "MED owed first",
    file: "operations/med-split.ts",
    code: "  const owedCents = Math.min(amountCents, Math.max(money.owed, 0));",
    without: "  const owedCents = 0;",
    test: "operations/med-split.test.ts",
    name: "owed 500 and captured 3500: a block of 1500 takes 500 owed, then 1000 captured",
  },
  {
    rule: "MED blocked not refundable",
    file: "settlement/refund-portions.ts",
    code: "  const blocked = Math.min(Math.max(money.medBlockedOwed ?? 0, 0), money.owed);",
    without: "  const blocked = 0;",
    test: "settlement/refund-portions.test.ts",
    name: "owed money an open MED blocked is left out: the case's outcome settles it",
  },
  {
    rule: "MED holds",
    file: "settlement/decide.ts",
    code: "const holdsMoney = (c: ChargeFacts) => c.money.held > 0 || capturedInMedusa(c.money) > 0;",
    without: "const holdsMoney = (c: ChargeFacts) => c.money.held > 0 || c.money.captured > 0;",
    test: "settlement/decide.test.ts",
    name: "never ends an order while a MED blocks a sibling's captured money (Medusa still holds it)",
  },
  {
    rule: "MED waits",
    file: "settlement/decide.ts",
    code: "  if (money.held === 0 && money.contested > 0) {",
    without: "  if (false) {",
    test: "settlement/decide.test.ts",
    name: "leaves money a MED blocked where it is, captured in Medusa, until the merchant's outcome",
  },
];

const wanted = process.argv.slice(2);
const rows = ROWS.filter((row) => !wanted.length || wanted.some((w) => row.rule.startsWith(w)));
/** @type {{ path: string, text: string } | null} */
let changed = null;
const restore = () => {
  if (changed) writeFileSync(changed.path, changed.text);
  changed = null;
};
process.on("SIGINT", () => {
  restore();
  process.exit(130);
});

/** One line to the person running it. */
const say = (/** @type {string} */ line) => process.stdout.write(`${line}\n`);

let failures = 0;
for (const row of rows) {
  const path = join(internal, row.file);
  const text = readFileSync(path, "utf8");
  const found = text.split(row.code).length - 1;
  if (found !== 1) {
    failures += 1;
    say(`✖ ${row.rule}: its code is found ${found} times in ${row.file}; update the row`);
    continue;
  }
  changed = { path, text };
  writeFileSync(
    path,
    text.replace(row.code, () => row.without),
  );
  try {
    const escaped = row.name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const run = spawnSync(
      "npx",
      [
        "vitest",
        "run",
        "--config",
        "vitest.mutation.config.ts",
        join("src", "internal", row.test),
        "-t",
        `${escaped}$`,
        "--reporter=json",
      ],
      { cwd: join(internal, "..", ".."), encoding: "utf8" },
    );
    const report = JSON.parse(run.stdout.slice(run.stdout.indexOf("{")));
    /** @type {{ status: string, title: string }[]} */
    const ran = report.testResults
      .flatMap(
        (/** @type {{ assertionResults: { status: string, title: string }[] }} */ f) =>
          f.assertionResults,
      )
      .filter(
        (/** @type {{ status: string }} */ a) => a.status === "passed" || a.status === "failed",
      );
    const failed = ran.filter((a) => a.status === "failed").length;
    const ok = ran.length > 0 && failed === ran.length && ran.every((a) => a.title === row.name);
    if (!ok) failures += 1;
    say(`${ok ? "✔" : "✖"} ${row.rule}: ${failed}/${ran.length} failed without it: ${row.name}`);
  } finally {
    restore();
  }
}
say(`\n${rows.length - failures} of ${rows.length} rules: their test fails without them`);
process.exit(failures ? 1 : 0);
