// The demo storefront's /pagar/ page at 1280 px (the page: ../test-support/pay-link-page.mjs;
// the checks: ./served-pages.ts).
import { servedPagesSuite } from "./served-pages.js";

await servedPagesSuite("demo storefront's /pagar/", 1280, 800);
