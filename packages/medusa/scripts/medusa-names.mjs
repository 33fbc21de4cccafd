#!/usr/bin/env node
// Which names the BUILT plugin takes from Medusa, and whether a given Medusa install has them:
// every `require("@medusajs/…")` in .medusa/server (the admin aside, which its own bundler
// checks) and every property the compiled code reads from it (`utils_1.Modules`, …).
//
//   node scripts/medusa-names.mjs [install-dir]
//
// `install-dir` holds the node_modules of the Medusa to check (by default this package's own);
// prints each name with its type there, and exits 1 when one is missing. One Medusa per run:
// two versions of core-flows cannot be loaded in one process. RELEASING.md says when to run it.
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const server = path.join(packageDir, ".medusa", "server");
const install = path.resolve(process.argv[2] ?? packageDir);
const require = createRequire(path.join(install, "package.json"));

/** module id → the property names the built code reads from it */
const uses = new Map();
for (const file of readdirSync(server, { recursive: true, encoding: "utf8" })) {
  if (!file.endsWith(".js") || file.startsWith(`src${path.sep}admin`)) continue;
  const code = readFileSync(path.join(server, file), "utf8");
  const imports = code.matchAll(
    /const (\w+) = (?:__importDefault\()?require\("(@medusajs\/[^"]+)"\)/g,
  );
  for (const [, binding, id] of imports) {
    const names = uses.get(id) ?? new Set();
    uses.set(id, names);
    for (const [, name] of code.matchAll(new RegExp(`\\b${binding}\\.(\\w+)`, "g"))) {
      if (name !== "default") names.add(name);
    }
  }
}

let missing = 0;
for (const [id, names] of [...uses].sort(([a], [b]) => a.localeCompare(b))) {
  let exports;
  try {
    exports = require(id);
  } catch (error) {
    process.stdout.write(`MISSING ${id}: ${error.message.split("\n")[0]}\n`);
    missing++;
    continue;
  }
  for (const name of [...names].sort()) {
    const type = typeof exports[name];
    if (type === "undefined") missing++;
    process.stdout.write(
      `${type === "undefined" ? "MISSING" : "ok     "} ${id} ${name} (${type})\n`,
    );
  }
}
process.exit(missing ? 1 : 0);
