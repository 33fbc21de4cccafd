#!/usr/bin/env node
// Screenshots a health alert e-mail as the SMTP server in integration-tests/http/health.test.ts
// received it: its From, To, Subject and date over the HTML body, in Debian's Chromium (headless).
// Usage (after `npm run build -w @pix-checkout/medusa`, with PostgreSQL reachable):
//   node packages/medusa/scripts/alert-email-screenshot.mjs
// runs that test (with ALERT_EMAIL_OUT set, it writes the delivered message) and saves
// packages/medusa/docs/alert-email-pt-BR.png. Given a message the test already wrote:
//   node packages/medusa/scripts/alert-email-screenshot.mjs /tmp/alert.json [out.png]
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const packageRoot = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
const repositoryRoot = path.join(packageRoot, "..", "..");
let [input, output = path.join(packageRoot, "docs", "alert-email-pt-BR.png")] =
  process.argv.slice(2);
if (!input) {
  input = path.join(mkdtempSync(path.join(tmpdir(), "alert-json-")), "alert.json");
  execFileSync(
    "npx",
    [
      "vitest",
      "run",
      "--project",
      "medusa",
      "packages/medusa/integration-tests/http/health.test.ts",
      "--silent=passed-only",
    ],
    {
      cwd: repositoryRoot,
      stdio: "inherit",
      env: { DB_HOST: "localhost", ...process.env, ALERT_EMAIL_OUT: input, JEST_WORKER_ID: "1" },
    },
  );
}
const mail = JSON.parse(readFileSync(input, "utf8"));
const escape = (text) =>
  String(text).replace(
    /[&<>"]/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c],
  );
const when = new Intl.DateTimeFormat("pt-BR", {
  timeZone: "America/Sao_Paulo",
  dateStyle: "short",
  timeStyle: "short",
}).format(new Date(mail.date));
const header = (label, value) =>
  `<div style="margin:2px 0"><span style="display:inline-block;width:64px;color:#6b7280">${label}</span>${escape(value)}</div>`;
const page = `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"></head>
<body style="margin:0;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;background:#fff">
<div style="padding:14px 20px;border-bottom:1px solid #e5e7eb;font-size:13px;color:#111827">
<div style="font-size:17px;font-weight:600;margin-bottom:8px">${escape(mail.subject)}</div>
${header("De", mail.from)}${header("Para", mail.to)}${header("Data", when)}
</div>
<iframe srcdoc="${escape(mail.html)}" style="display:block;width:100%;height:510px;border:0"></iframe>
</body></html>`;
const dir = mkdtempSync(path.join(tmpdir(), "alert-email-"));
try {
  const file = path.join(dir, "mail.html");
  writeFileSync(file, page);
  execFileSync(
    process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--no-first-run",
      "--hide-scrollbars",
      "--force-device-scale-factor=1",
      `--screenshot=${path.resolve(output)}`,
      "--window-size=640,620",
      `file://${file}`,
    ],
    { stdio: ["ignore", "ignore", "ignore"] },
  );
  process.stdout.write(`wrote ${output}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
