#!/usr/bin/env node
// Makes a fresh machine able to run the suites: system browsers for the browser tests
// (Chromium, Firefox ESR, WebKitGTK under Xvfb; no test tool may download its own), and
// Debian's redis-server when no Redis answers at 127.0.0.1:6379. The servers themselves are
// found or started by npm test (scripts/lib/test-services.mjs): PostgreSQL comes from npm.
import { execSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { canConnect } from "../apps/demo/lib/database.mjs";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const FIREFOX = process.env.FIREFOX_PATH ?? "/usr/bin/firefox-esr";

// The element's browser suite runs in three engines, all from Debian (what each package gives):
// chromium; firefox-esr (driven by puppeteer over WebDriver BiDi); webkit2gtk-driver
// (WebKitWebDriver and MiniBrowser); xvfb (Xvfb, and xvfb-run for the screenshot script: MiniBrowser has no headless mode).
// chromium-l10n: Chromium's own pt-BR, so the admin screenshots' native date inputs read
// dd/mm/aaaa as a Brazilian merchant's do (without it, mm/dd/yyyy).
const BROWSERS = [
  { name: "chromium", found: () => existsSync(CHROMIUM), env: "CHROMIUM_PATH" },
  {
    name: "chromium-l10n",
    found: () =>
      !existsSync("/usr/bin/dpkg") ||
      spawnSync("dpkg", ["-s", "chromium-l10n"], { stdio: "ignore" }).status === 0,
  },
  { name: "firefox-esr", found: () => existsSync(FIREFOX), env: "FIREFOX_PATH" },
  { name: "webkit2gtk-driver", found: () => onPath("WebKitWebDriver") },
  { name: "xvfb", found: () => onPath("xvfb-run") && onPath("Xvfb") && onPath("xauth") },
];
// The scale suites' Redis: npm test starts this binary when nothing answers at 6379.
const REDIS_SERVER = { name: "redis-server", found: () => onPath("redis-server") };

function onPath(command) {
  return spawnSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" }).status === 0;
}

function ensurePackages(packages) {
  const missing = packages.filter((b) => !b.found());
  for (const b of packages) if (!missing.includes(b)) console.log(`${b.name}: present`);
  if (!missing.length) return;
  const names = missing.map((b) => b.name).join(" ");
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  if (!isRoot) {
    const paths = missing.filter((b) => b.env).map((b) => b.env);
    console.error(
      `missing ${names}. Install them (Debian: sudo apt-get install -y ${names})` +
        (paths.length ? ` or set ${paths.join("/")} to the binary.` : "."),
    );
    process.exit(1);
  }
  console.log(`installing ${names} from the Debian archive`);
  execSync(
    `apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${names} xauth`,
    { stdio: "inherit" },
  );
}

const redisAnswers = await canConnect("127.0.0.1", 6379);
ensurePackages(redisAnswers ? BROWSERS : [...BROWSERS, REDIS_SERVER]);
