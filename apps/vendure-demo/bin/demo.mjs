#!/usr/bin/env node
// `npm run demo:vendure`: a Vendure store selling by Pix on this machine, until Ctrl+C.
// `-- --no-dashboard` leaves Vendure's dashboard out (no build at the first start).
import { parseArgs } from "node:util";
import { startVendureDemo } from "../lib/start-vendure-demo.mjs";

const { values: flags } = parseArgs({ options: { "no-dashboard": { type: "boolean" } } });
const started = Date.now();
const demo = await startVendureDemo({ dashboard: !flags["no-dashboard"] });
console.log(`
Pix Checkout on Vendure is ready (${((Date.now() - started) / 1000).toFixed(1)} s)

  storefront   ${demo.storefrontUrl}   buy the shirt and pay its Pix
  Shop API     ${demo.shopApiUrl}
${demo.dashboard ? `  dashboard    ${demo.dashboard.url}   superadmin / superadmin (Vendas → Pix e boleto)\n` : ""}  Admin API    ${demo.adminApiUrl}
  sandbox      ${demo.sandbox.url}   pay a code: POST ${demo.sandbox.url}/__sandbox/charges/<id>/pay
  database     ${demo.databaseSource}

Ctrl+C stops everything it started.
`);
const building = setTimeout(
  () => console.log("The dashboard is being built, once (about a minute)…"),
  2_000,
);
if (demo.dashboard) {
  demo.dashboard.ready.then(
    () => {
      clearTimeout(building);
      console.log(`The dashboard is ready: ${demo.dashboard?.url}`);
    },
    () => clearTimeout(building),
  );
} else clearTimeout(building);
let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    // A stop that hangs (a server waiting on a connection) must not keep the demo alive: a
    // SIGTERM once left it running. Ten seconds, then out.
    setTimeout(() => {
      console.error("The demo took more than 10 s to stop; exiting now.");
      process.exit(1);
    }, 10_000).unref();
    await demo.stop();
    process.exit(0);
  });
}
