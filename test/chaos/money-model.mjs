#!/usr/bin/env node
// `npm run chaos` (second part): the money model (packages/medusa/integration-tests/http/
// money-model.test.ts) with many more random sequences than `npm test` runs, from a random seed
// it prints first, so a failure can be replayed with PIX_MODEL_SEED=<seed>.
// Options (environment): CHAOS_MODEL_RUNS (120), PIX_MODEL_SEED (random).
import { spawnSync } from "node:child_process";
import { randomInt } from "node:crypto";
import { runOnNode24 } from "../../scripts/on-node-24.mjs";

// The test's Medusa runs in vitest's workers, on the Node.js that starts them: 24, as in `npm test`.
runOnNode24(import.meta.url, "the chaos money model");

const root = new URL("../..", import.meta.url).pathname;
const seed = process.env.PIX_MODEL_SEED ?? String(randomInt(1, 2 ** 31 - 1));
const runs = process.env.CHAOS_MODEL_RUNS ?? "120";
console.log(`money model: ${runs} sequences from seed ${seed} (replay: PIX_MODEL_SEED=${seed})`);
const result = spawnSync(
  "npx",
  [
    "vitest",
    "run",
    "--project",
    "medusa",
    "packages/medusa/integration-tests/http/money-model.test.ts",
  ],
  {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, PIX_MODEL_SEED: seed, PIX_MODEL_RUNS: runs },
  },
);
if (result.status !== 0) console.error(`money model failed; replay with PIX_MODEL_SEED=${seed}`);
process.exit(result.status ?? 1);
