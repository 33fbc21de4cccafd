// `npm pack` ships package.json as it is. Its scripts and devDependencies point at files the
// tarball leaves out (src/, bench/, scripts/), so prepack strips them and postpack puts the
// original back. Usage: node scripts/pack-manifest.mjs strip|restore
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";

const manifest = new URL("../package.json", import.meta.url);
const backup = new URL("../package.json.prepack", import.meta.url);

if (process.argv[2] === "strip") {
  const original = readFileSync(manifest, "utf8");
  writeFileSync(backup, original);
  const shipped = JSON.parse(original);
  delete shipped.scripts;
  delete shipped.devDependencies;
  writeFileSync(manifest, `${JSON.stringify(shipped, null, 2)}\n`);
} else if (process.argv[2] === "restore") {
  if (existsSync(backup)) renameSync(backup, manifest);
} else {
  throw new Error("usage: node scripts/pack-manifest.mjs strip|restore");
}
