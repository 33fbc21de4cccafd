// The plugin's opt-out link pages at 1280 px (the checks: ./served-pages.ts).
import { servedPagesSuite } from "./served-pages.js";

await servedPagesSuite("opt-out link", 1280, 800);
