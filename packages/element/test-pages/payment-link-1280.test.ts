// The plugin's payment link pages at 1280 px (the checks: ./served-pages.ts).
import { servedPagesSuite } from "./served-pages.js";

await servedPagesSuite("payment link", 1280, 800);
