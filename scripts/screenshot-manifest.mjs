// Every picture the repository's docs show, the script that takes it, and the files whose
// content the picture shows. `npm run screenshots` runs the scripts and records, per picture,
// a fingerprint of those files (screenshots.lock.json); test/screenshots.test.ts fails when a
// picture's files changed after it was taken, or when a picture is in the repository that no
// script takes. So a screenshot cannot go stale unnoticed.
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const root = fileURLToPath(new URL("..", import.meta.url));

/** The element as shoppers see it: its source without its tests. */
const ELEMENT = "packages/element/src";

/**
 * One script run: `name` selects it (`npm run screenshots -- admin`), `command` runs from the
 * repository's root, `pictures` are what it writes, `sources` what the pictures show (folders
 * or files; tests and test support are left out, they draw nothing).
 */
export const SHOTS = [
  {
    name: "demo",
    command: ["node", "test/e2e/screenshots.mjs"],
    pictures: [
      "docs/checkout-pix-phone.png",
      "docs/checkout-paid-phone.png",
      "docs/checkout-boleto-cpf-error-phone.png",
      "docs/checkout-boleto-phone.png",
      "docs/checkout-replaced-code-phone.png",
      "docs/checkout-replaced-code-paid-phone.png",
      "docs/checkout-underpaid-phone.png",
      "docs/checkout-boleto-canceled-phone.png",
      "docs/checkout-edited-up-phone.png",
      "docs/checkout-sold-out-phone.png",
    ],
    sources: ["apps/demo/storefront", ELEMENT, "test/e2e/screenshots.mjs"],
  },
  {
    name: "next",
    command: ["node", "test/e2e/next-screenshots.mjs"],
    pictures: [
      "apps/next-storefront/docs/review-pix-phone.png",
      "apps/next-storefront/docs/review-pix-expired-phone.png",
      "apps/next-storefront/docs/payment-boleto-phone.png",
      "apps/next-storefront/docs/order-boleto-phone.png",
      "apps/next-storefront/docs/order-boleto-canceled-phone.png",
      "apps/next-storefront/docs/review-pix-underpaid-phone.png",
      "apps/next-storefront/docs/order-pix-edited-up-phone.png",
      "apps/next-storefront/docs/review-pix-sold-out-phone.png",
    ],
    sources: ["apps/next-storefront/src", ELEMENT, "test/e2e/next-screenshots.mjs"],
  },
  {
    name: "discount",
    command: ["node", "test/e2e/discount-screenshots.mjs", "--next"],
    pictures: [
      "docs/checkout-pix-discount-phone.png",
      "apps/next-storefront/docs/payment-pix-discount-phone.png",
    ],
    sources: [
      "apps/demo/storefront",
      "apps/next-storefront/src",
      ELEMENT,
      "test/e2e/discount-screenshots.mjs",
    ],
  },
  {
    name: "admin",
    command: ["node", "packages/medusa/scripts/admin-screenshots.mjs"],
    pictures: [
      "packages/medusa/docs/admin-pix-checkout-page.png",
      "packages/medusa/docs/admin-attention-1024.png",
      "packages/medusa/docs/admin-order-widget.png",
      "packages/medusa/docs/admin-order-without-code.png",
      "packages/medusa/docs/admin-transactions.png",
      "packages/medusa/docs/admin-record-refund.png",
      "packages/medusa/docs/admin-health-ok.png",
      "packages/medusa/docs/admin-health-broken.png",
    ],
    sources: ["packages/medusa/src/admin", "packages/medusa/scripts/admin-screenshots.mjs"],
  },
  {
    name: "admin-discount",
    command: ["node", "packages/medusa/scripts/pix-discount-screenshots.mjs"],
    pictures: ["packages/medusa/docs/admin-pix-discount-phone.png"],
    sources: ["packages/medusa/src/admin", "packages/medusa/scripts/pix-discount-screenshots.mjs"],
  },
  {
    name: "beyond-cart",
    // An order edit's difference: the order widget's card with the link, and the page the link
    // opens on a phone with its code.
    command: ["node", "packages/medusa/scripts/beyond-cart-screenshots.mjs"],
    pictures: [
      "packages/medusa/docs/admin-order-outstanding.png",
      "packages/medusa/docs/payment-page-phone.png",
    ],
    sources: [
      "packages/medusa/src/admin",
      "packages/medusa/src/internal/storefront/collection-page-html.ts",
      ELEMENT,
      "packages/medusa/scripts/beyond-cart-screenshots.mjs",
    ],
  },
  {
    name: "alert-email",
    // The e-mail as the health test's SMTP server received it, then drawn in Chromium.
    command: ["node", "packages/medusa/scripts/alert-email-screenshot.mjs"],
    pictures: ["packages/medusa/docs/alert-email-pt-BR.png"],
    sources: [
      "packages/medusa/src/internal/operations/alert-message.ts",
      "packages/medusa/scripts/alert-email-screenshot.mjs",
    ],
  },
  {
    name: "vendure-dashboard",
    // The Vendure plugin's screens in Vendure's dashboard, on the Vendure demo.
    command: ["node", "packages/vendure/scripts/dashboard-screenshots.mjs"],
    pictures: [
      "packages/vendure/docs/dashboard-order-codes.png",
      "packages/vendure/docs/dashboard-pending.png",
      "packages/vendure/docs/dashboard-order-med-1024.png",
    ],
    sources: ["packages/vendure/dashboard", "packages/vendure/scripts/dashboard-screenshots.mjs"],
  },
  {
    name: "element",
    command: ["npm", "run", "screenshots", "--silent", "-w", "@pix-checkout/element"],
    pictures: [
      "boleto",
      "canceled",
      "desktop-1280",
      "error",
      "expired",
      "failed",
      "paid",
      "phone-copy-first",
      "phone-expired",
      "phone-one-minute",
      "phone-pix-discount",
      "phone-qr",
      "pix-chromium",
      "pix-desktop-dark",
      "pix-firefox",
      "pix-webkit",
      "pix",
      "preparing",
      "refund-due",
      "superseded",
      "phone-earlier-payment",
      "phone-replaced-code-paid",
      "phone-held",
      "phone-confirming",
      "phone-order-owes",
      "phone-canceled",
    ].map((name) => `packages/element/docs/${name}.png`),
    sources: [ELEMENT, "packages/element/scripts"],
  },
  {
    name: "sandbox",
    command: ["node", "packages/sandbox/scripts/phone-screenshots.mjs"],
    pictures: [
      "packages/sandbox/docs/sandbox-phone.png",
      "packages/sandbox/docs/sandbox-boleto-phone.png",
    ],
    sources: [
      "packages/sandbox/src/internal/pages.ts",
      "packages/sandbox/src/internal/html.ts",
      "packages/sandbox/scripts/phone-screenshots.mjs",
      "packages/sandbox/scripts/phone-scene.mjs",
    ],
  },
];

/** Where the fingerprints of the pictures as last taken are kept. */
export const LOCK = "scripts/screenshots.lock.json";

const isTest = (file) => /(\.test\.|\/test-support\/|\/__tests__\/)/.test(file);

/** The tracked files under `sources`, tests left out, in a stable order. */
export function sourceFiles(sources) {
  const listed = execFileSync("git", ["ls-files", "-z", "--", ...sources], {
    cwd: root,
    encoding: "utf8",
  });
  return listed
    .split("\0")
    .filter((file) => file && !isTest(file))
    .sort();
}

/**
 * A fingerprint of what a picture shows: the hash of each source file's path and content, as
 * the working tree holds them (a clean clone holds what was committed).
 */
export function fingerprint(sources) {
  const hash = createHash("sha256");
  for (const file of sourceFiles(sources)) {
    hash.update(file).update("\0");
    hash.update(readFileSync(new URL(file, `file://${root}`))).update("\0");
  }
  return hash.digest("hex").slice(0, 16);
}
