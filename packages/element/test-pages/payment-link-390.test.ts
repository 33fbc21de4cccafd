// The plugin's payment link pages at 390 px (the checks: ./served-pages.ts).
import { servedPagesSuite } from "./served-pages.js";

await servedPagesSuite("payment link", 390, 844);
