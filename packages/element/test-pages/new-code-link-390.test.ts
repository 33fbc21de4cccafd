// The plugin's new-code link pages at 390 px (the checks: ./served-pages.ts).
import { servedPagesSuite } from "./served-pages.js";

await servedPagesSuite("new-code link", 390, 844);
