// `medusa exec ./src/scripts/remind.ts`, run by the demo's clock (`+25m` typed into
// `npm run demo`): one pass of the plugin's reminders at the sandbox's moved time, the pass its
// 30 s job runs at the real one. The demo lives beside the plugin in this repository, so it
// reaches the built pass directly; a store never needs this (its job uses the real clock).
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { ExecArgs } from "@medusajs/framework/types";

export default async function remindAt({ container }: ExecArgs): Promise<void> {
  const at = new Date(process.env.PIX_DEMO_REMIND_AT ?? Date.now());
  const require = createRequire(__filename);
  const server = path.join(
    path.dirname(require.resolve("@pix-checkout/medusa/package.json")),
    ".medusa",
    "server",
    "src",
  );
  const { remindOnce } = require(path.join(server, "internal/recovery/send-reminders.js"));
  const { settleContext } = require(path.join(server, "internal/settlement/context.js"));
  const report = await remindOnce(settleContext(container), at);
  if (process.env.PIX_DEMO_REMIND_OUTPUT) {
    writeFileSync(process.env.PIX_DEMO_REMIND_OUTPUT, JSON.stringify(report));
  }
}
