// The demo storefront's /pagar/ page at 390 px (the page: ../test-support/pay-link-page.mjs;
// the checks: ./served-pages.ts).
import { servedPagesSuite } from "./served-pages.js";

await servedPagesSuite("demo storefront's /pagar/", 390, 844);
