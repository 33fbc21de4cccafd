// Node.js 20 is past its end of life and 24 is what a new store runs, so every suite and run
// of the repository's own (`npm test`, `npm run chaos`) runs on 24, whatever the shell has.
import { spawnSync } from "node:child_process";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { cachedNode } from "./cached-install.mjs";

/**
 * On another Node.js than 24, runs the script at `scriptUrl` again on 24 (fetched once from the
 * npm registry's `node` package, scripts/node-24/, cached in ~/.cache/pix-checkout), with it
 * first on the PATH so that npm, npx and every process the script starts with
 * `process.execPath` run on it too, and exits with its status. On 24 it returns at once.
 * @param {string} scriptUrl the calling script's `import.meta.url`
 * @param {string} what the command's name, for the line it prints
 */
export function runOnNode24(scriptUrl, what) {
  if (process.versions.node.split(".")[0] === "24") return;
  const here = fileURLToPath(import.meta.url);
  const { binary, version } = cachedNode(join(dirname(here), "node-24"), 24);
  console.log(`${what} runs on Node.js ${version} (this shell's is ${process.version})`);
  const again = spawnSync(binary, [fileURLToPath(scriptUrl), ...process.argv.slice(2)], {
    stdio: "inherit",
    env: { ...process.env, PATH: `${dirname(binary)}${delimiter}${process.env.PATH ?? ""}` },
  });
  process.exit(again.status ?? 1);
}
