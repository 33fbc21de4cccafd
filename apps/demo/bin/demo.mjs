#!/usr/bin/env node
// `npm run demo`: starts the whole store, prints where everything is, and stops it all on
// Ctrl-C (SIGINT) or SIGTERM.
import { parseArgs } from "node:util";
import { createInterface } from "node:readline";
import { resolve } from "node:path";
import { clockStep, msToNextMorning } from "../lib/clock-step.mjs";
import { redactUrl } from "../lib/database.mjs";
import { defaultPorts, portFlags, startDemo } from "../lib/index.mjs";
import { storefrontOrigin } from "../lib/storefront-origin.mjs";

const usage = `Usage: npm run demo -- [options]

  --variant a|b          which variant of the payment service the sandbox plays (default a)
  --store-port N         Medusa store, admin and webhooks (default ${defaultPorts.store})
  --storefront-port N    the storefront (default ${defaultPorts.storefront})
  --sandbox-port N       the payment-service sandbox (default ${defaultPorts.sandbox})
  --mail-smtp-port N     the mailbox's SMTP server, where the store sends (default ${defaultPorts.mailSmtp})
  --mail-web-port N      the mailbox's web inbox (default ${defaultPorts.mailWeb})
  --postgres-port N      the embedded PostgreSQL, when one is used (default ${defaultPorts.embeddedPostgres},
                         ${defaultPorts.embeddedPostgres + 1} for a second demo running beside the first, …)
  --storefront-origin URL
                         another storefront whose pages call the Store API from a browser
                         (http://localhost:8000, say); may be given more than once. The
                         store's CORS allows the demo's own storefront and these only
  --data-dir DIR         where the demo keeps its data (default apps/demo/.data)
  --fresh-sandbox        start the sandbox without the charges of the last run
  --embedded-postgres    use the demo's own PostgreSQL (under the data folder) even when
                         DATABASE_URL is set or one answers at localhost:5432
  -h, --help             show this help

A port given by a flag must be free. A default port that is taken (another demo's) gives way
to a free one, printed when the demo is ready. A second demo running beside the first keeps
its data in <data dir>/demo-2 and uses database pix_checkout_demo_2.

Environment: DATABASE_URL (else localhost:5432, else an embedded PostgreSQL), REDIS_URL
(optional), PIX_DEMO_ADMIN_EMAIL, PIX_DEMO_ADMIN_PASSWORD. See apps/demo/README.md.`;

/**
 * @param {string} message
 * @returns {never}
 */
function fail(message) {
  console.error(`demo: ${message}\n\n${usage}`);
  process.exit(2);
}

let parsed;
try {
  parsed = parseArgs({
    options: {
      variant: { type: "string", default: "a" },
      "store-port": { type: "string" },
      "storefront-port": { type: "string" },
      "sandbox-port": { type: "string" },
      "mail-smtp-port": { type: "string" },
      "mail-web-port": { type: "string" },
      "postgres-port": { type: "string" },
      "data-dir": { type: "string" },
      "storefront-origin": { type: "string", multiple: true },
      "fresh-sandbox": { type: "boolean", default: false },
      "embedded-postgres": { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  }).values;
} catch (error) {
  fail(error.message);
}
if (parsed.help) {
  console.log(usage);
  process.exit(0);
}
if (parsed.variant !== "a" && parsed.variant !== "b")
  fail(`--variant must be a or b, not "${parsed.variant}"`);

function port(flag) {
  const value = parsed[flag];
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1 || number > 65535) {
    fail(`--${flag} must be a port number between 1 and 65535, not "${value}"`);
  }
  return number;
}
const ports = Object.fromEntries(
  Object.entries({
    store: port("store-port"),
    storefront: port("storefront-port"),
    sandbox: port("sandbox-port"),
    mailSmtp: port("mail-smtp-port"),
    mailWeb: port("mail-web-port"),
    embeddedPostgres: port("postgres-port"),
  }).filter(([, value]) => value !== undefined),
);

let extraStoreOrigins = [];
try {
  extraStoreOrigins = (parsed["storefront-origin"] ?? []).map(storefrontOrigin);
} catch (error) {
  fail(error.message);
}

const log = (message) => console.log(`  · ${message}`);
console.log("Starting the Pix Checkout demo store…");

let demo;
let stopping = false;
async function shutdown(signal) {
  if (stopping) return;
  stopping = true;
  console.log(`\n${signal}: stopping the demo…`);
  await demo?.stop();
  console.log("Stopped.");
  process.exit(0);
}
process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("SIGTERM", () => void shutdown("SIGTERM"));

try {
  demo = await startDemo({
    variant: parsed.variant,
    ports,
    sandboxStatePath: parsed["fresh-sandbox"] ? null : undefined,
    embeddedPostgres: parsed["embedded-postgres"],
    extraStoreOrigins,
    adminBuild: true,
    ...(parsed["data-dir"] ? { dataDir: resolve(parsed["data-dir"]) } : {}),
    admin: {
      email: process.env.PIX_DEMO_ADMIN_EMAIL,
      password: process.env.PIX_DEMO_ADMIN_PASSWORD,
    },
    log,
  });
} catch (error) {
  console.error(`\nThe demo could not start: ${error.message}`);
  process.exit(1);
}
if (stopping) await new Promise(() => {});

/** The database the demo used, its password hidden, and how it was found. */
function databaseLine() {
  const url = redactUrl(demo.database.url);
  if (demo.database.source === "DATABASE_URL") return `${url} (from DATABASE_URL)`;
  if (demo.database.source === "embedded")
    return `${url} (embedded, data in ${demo.dataDir}/postgres)`;
  return url;
}

function pluginNote() {
  if (demo.paymentProviders.some((id) => id.endsWith("_pix-checkout"))) return "";
  const why =
    demo.variant === "b"
      ? "Variant B needs the plugin's Pix-only provider (@pix-checkout/medusa/providers/pix-only),\n" +
        "    which this build of the plugin does not have."
      : "Build it (npm run build -w @pix-checkout/medusa) and restart the demo.";
  return (
    "\n  ! The Pix Checkout plugin is not registered: the region uses Medusa's system provider.\n" +
    `    ${why}\n`
  );
}
/**
 * Which other storefronts' pages the Store API answers (CORS): a page from an origin not listed
 * reaches nothing, and its shopper can only be told that the store did not answer.
 */
function originsNote() {
  const others = extraStoreOrigins.length
    ? `also answers pages from ${extraStoreOrigins.join(", ")}`
    : "answers the demo's storefront only; another one's pages need --storefront-origin";
  return `\n               ${others}`;
}

/** Where the store sends its e-mails: the mailbox's SMTP port. */
function smtpNote() {
  return demo.ports.mailSmtp ? ` (SMTP ${demo.ports.mailSmtp})` : "";
}

/** How the admin opens: at once when served built, else what its first visit costs and why. */
function adminNote() {
  const bundle = demo.adminBundle;
  if (bundle.serving === "built") return "\n               served built: it opens at once";
  return `\n               compiled at its first visit (about 20 s), ${bundle.why ?? ""}`;
}

/** Says that another demo runs beside this one, with its own data and database. */
function runNote() {
  return demo.run === 1
    ? ""
    : `    demo ${demo.run} of this data folder: its own mail, logs and database`;
}

/** Names the default ports that were taken and the free ones picked instead. */
function movedNote() {
  if (demo.movedPorts.length === 0) return "";
  const moves = demo.movedPorts.map(
    (name) => `${name} ${defaultPorts[name]} → ${demo.ports[name]} (${portFlags[name]})`,
  );
  return (
    `\n  ! Default port(s) taken (another demo?), free ones picked instead:\n` +
    `    ${moves.join(", ")}\n`
  );
}

console.log(`
Pix Checkout demo is ready in ${(demo.readyInMs / 1000).toFixed(1)} s (sandbox variant ${demo.variant.toUpperCase()})

  Storefront   ${demo.urls.storefront}
  Admin        ${demo.urls.admin}    ${demo.admin.email} / ${demo.admin.password}${adminNote()}
               in Portuguese for a Brazilian browser; another language under Perfil → Idioma
  Store API    ${demo.urls.store}    publishable key ${demo.publishableKey}${originsNote()}
  Sandbox      ${demo.urls.sandbox}    pay or expire charges here
  E-mails      ${demo.urls.mail}    every message the store sent, as the shopper reads it${smtpNote()}
  Webhooks     ${demo.urls.webhook}
  Database     ${databaseLine()}
  Data         ${demo.dataDir}${runNote()}
  Logs         ${demo.logDir}
${movedNote()}${pluginNote()}
  Clock        type +25m, +2h or +1d and Enter: the sandbox's clock moves (charges expire),
               then the reminders due by then go out (read them under E-mails);
               manhã moves it to the next 10:00 in São Paulo, outside the quiet hours

Press Ctrl-C to stop everything.`);

// The background admin build ends while the demo runs: say what it cost and what it buys.
void demo.adminBundle.building?.then((result) => {
  if (stopping) return;
  console.log(
    result.built
      ? `admin: built in ${(result.ms / 1000).toFixed(1)} s; the next start serves it at once`
      : `admin: the build for the next start failed (${result.why}); it compiles at each first visit`,
  );
});

// The demo's clock, so the reminders' whole cadence shows in minutes (apps/demo/README.md).
const sandboxNow = async () => {
  const answer = await fetch(`${demo.urls.sandbox}/__sandbox/clock`);
  return new Date(/** @type {{ now: string }} */ (await answer.json()).now);
};
let moving = Promise.resolve();
createInterface({ input: process.stdin }).on("line", (line) => {
  const morning = /^\s*(manh[ãa]|morning)\s*$/i.test(line);
  const ms = morning ? 0 : clockStep(line);
  if (ms === null) {
    if (line.trim()) console.log("clock: type +25m, +2h, +1d or manhã");
    return;
  }
  moving = moving.then(async () => {
    try {
      const step = morning ? msToNextMorning(await sandboxNow()) : ms;
      const { at, report } = await demo.moveClock(step);
      const when = at.toLocaleString("pt-BR", { timeZone: "America/Sao_Paulo" });
      console.log(
        `clock: ${when} (São Paulo): ${report.sent} reminder(s) sent, ${report.skipped} not needed, ${report.deferred} later`,
      );
    } catch (error) {
      console.error(`clock: ${error.message}`);
    }
  });
});
