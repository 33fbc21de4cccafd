#!/usr/bin/env node
// Makes a fresh machine able to run the suites: system browsers for the browser tests
// (Chromium, Firefox ESR, WebKitGTK under Xvfb; no test tool may download its own) and a
// reachable PostgreSQL for Medusa's runner.
import { execSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import net from "node:net";

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

function onPath(command) {
  return spawnSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" }).status === 0;
}

function ensureBrowsers() {
  const missing = BROWSERS.filter((b) => !b.found());
  for (const b of BROWSERS) if (!missing.includes(b)) console.log(`${b.name}: present`);
  if (!missing.length) return;
  const names = missing.map((b) => b.name).join(" ");
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  if (!isRoot) {
    const paths = missing.filter((b) => b.env).map((b) => b.env);
    console.error(
      `browsers: missing ${names}. Install them (Debian: sudo apt-get install -y ${names})` +
        (paths.length ? ` or set ${paths.join("/")} to the binary.` : "."),
    );
    process.exit(1);
  }
  console.log(`browsers: installing ${names} from the Debian archive`);
  execSync(
    `apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${names} xauth`,
    { stdio: "inherit" },
  );
}

function canConnect(host, port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port, timeout: 1500 });
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
    socket.once("timeout", () => (socket.destroy(), resolve(false)));
  });
}

async function ensurePostgres() {
  const host = process.env.DB_HOST ?? "localhost";
  const port = Number(process.env.DB_PORT ?? 5432);
  if (await canConnect(host, port)) return console.log(`postgres: ${host}:${port}`);
  // A machine with a stopped cluster (Debian's pg_ctlcluster) gets it started; otherwise say what to do.
  const started = spawnSync("sh", [
    "-c",
    "command -v pg_ctlcluster >/dev/null && pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql | head -1) main start",
  ]);
  if (started.status === 0 && (await canConnect(host, port))) {
    return console.log(`postgres: started ${host}:${port}`);
  }
  console.error(
    `postgres: nothing answers at ${host}:${port}. Start a PostgreSQL there (trust auth, user postgres) ` +
      `or set DB_HOST/DB_PORT.`,
  );
  process.exit(1);
}

ensureBrowsers();
await ensurePostgres();
