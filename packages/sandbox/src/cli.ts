#!/usr/bin/env node
import { randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import { isExtraHoliday } from "@pix-checkout/client/bank-days";
import { startSandbox } from "./internal/server.js";

const HELP = `Usage: pix-sandbox [options]

  --port <n>               port to listen on (default 4010; 0 picks a free one)
  --host <addr>            address to listen on (default 127.0.0.1)
  --variant <a|b>          API variant (default b, the endpoint reference)
  --key <sk_live_...>      accepted secret key; repeat for more (replaces the default key)
  --webhook-url <url>      where to POST webhook events; repeat for more. A URL without
                           ?token= gets a generated one, printed once: set the store's
                           webhookSecret to it (a store in production refuses to start
                           without one)
  --state <file>           persist state to this JSON file across restarts
  --pix-expiry-seconds <n> Pix charge lifetime (default 1800)
  --boleto-due-days <n>    boleto lifetime in bank business days (default 3)
  --bank-holiday <day>     an extra bank holiday the due dates skip: YYYY-MM-DD (that day)
                           or MM-DD (every year); repeat for more
  --spec-literal-webhooks  charge.* events carry the charge only as \`uuid\`, as the spec's
                           payload table says (no Variant B \`id\`)
  --help                   show this text

Prints the API base URL (ending in /v1) on stdout once it listens.`;

function fail(message: string): never {
  console.error(`pix-sandbox: ${message}\n\n${HELP}`);
  process.exit(2);
}

function positiveInt(
  name: string,
  raw: string | undefined,
  fallback: number,
  allowZero = false,
): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || (!allowZero && value === 0))
    fail(`--${name} must be a ${allowZero ? "non-negative" : "positive"} integer`);
  return value;
}

let parsed;
try {
  parsed = parseArgs({
    options: {
      port: { type: "string" },
      host: { type: "string" },
      variant: { type: "string" },
      key: { type: "string", multiple: true },
      "webhook-url": { type: "string", multiple: true },
      state: { type: "string" },
      "pix-expiry-seconds": { type: "string" },
      "boleto-due-days": { type: "string" },
      "bank-holiday": { type: "string", multiple: true },
      "spec-literal-webhooks": { type: "boolean" },
      help: { type: "boolean" },
    },
    strict: true,
  }).values;
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}

if (parsed.help) {
  console.log(HELP);
  process.exit(0);
}
const variant = parsed.variant ?? "b";
if (variant !== "a" && variant !== "b") fail("--variant must be a or b");
for (const key of parsed.key ?? [])
  if (!key.startsWith("sk_live_")) fail("--key must be a secret key starting with sk_live_");
for (const day of parsed["bank-holiday"] ?? [])
  if (!isExtraHoliday(day))
    fail(`--bank-holiday ${JSON.stringify(day)} is not a day: write YYYY-MM-DD or MM-DD`);
for (const url of parsed["webhook-url"] ?? [])
  if (!/^https?:\/\/./.test(url)) fail("--webhook-url must be an http(s) URL");

/**
 * A webhook URL with the store's token: as given when it has one; otherwise with a generated
 * one, printed once on stderr for the developer to set as the provider's `webhookSecret`.
 */
function withToken(raw: string): string {
  const url = new URL(raw);
  if (url.searchParams.get("token")) return raw;
  const token = randomBytes(18).toString("base64url");
  url.searchParams.set("token", token);
  console.error(
    `pix-sandbox: ${raw} has no ?token=; sending to it with a generated one. Set the store's webhookSecret (PIX_WEBHOOK_SECRET) to ${token}`,
  );
  return url.toString();
}

const options: Parameters<typeof startSandbox>[0] = {
  variant,
  port: positiveInt("port", parsed.port, 4010, true),
  host: parsed.host ?? "127.0.0.1",
  webhookUrls: (parsed["webhook-url"] ?? []).map(withToken),
  pixExpirySeconds: positiveInt("pix-expiry-seconds", parsed["pix-expiry-seconds"], 1_800),
  boletoDueDays: positiveInt("boleto-due-days", parsed["boleto-due-days"], 3),
};
if (parsed.key) options.keys = parsed.key;
if (parsed.state) options.statePath = parsed.state;
if (parsed["bank-holiday"]) options.bankHolidays = parsed["bank-holiday"];
if (parsed["spec-literal-webhooks"]) options.specLiteralWebhooks = true;

try {
  const sandbox = await startSandbox(options);
  console.log(sandbox.baseUrl);
  // Keys are never printed: the default one is documented, custom ones are secrets.
  console.error(
    `pix-sandbox: variant ${variant.toUpperCase()} listening; ${parsed.key ? `${parsed.key.length} custom key(s)` : "default key sk_live_sandbox_default"}; human page ${sandbox.url}/`,
  );
  const stop = (): void => {
    void sandbox.close().then(() => process.exit(0));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
} catch (error) {
  console.error(`pix-sandbox: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
