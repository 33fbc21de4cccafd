// npm 12 runs a package's install scripts only when the installing package.json lists it under
// `allowScripts`. Every install the project makes (the repository's own, and the cached ones
// scripts/cached-install.mjs makes outside it: the Node.js `npm test` runs on, the Medusa apps
// and the Node.js the packaging test runs stores with) says, for each locked package with an
// install script, whether it runs: one left out is skipped with a warning, and a binary it
// would have fetched (the `node` package's Node.js, esbuild's) is missing later, offline.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const read = (path: string) =>
  JSON.parse(readFileSync(new URL(`../${path}`, import.meta.url), "utf8"));

const INSTALLS = [
  ".",
  "scripts/node-24",
  "test/packaging/node-22",
  "test/packaging/oldest-medusa",
  "test/packaging/next-medusa",
];

/** Every package of `folder`'s lock that has an install script, by name. */
function withInstallScripts(folder: string): string[] {
  const lock = read(`${folder}/package-lock.json`) as {
    packages: Record<string, { hasInstallScript?: boolean }>;
  };
  const names = Object.entries(lock.packages)
    .filter(([, entry]) => entry.hasInstallScript)
    .map(([key]) => key.split("node_modules/").at(-1)!);
  return [...new Set(names)].sort();
}

describe("install scripts under npm 12's allowScripts", () => {
  it.each(INSTALLS)("%s names every locked package with an install script", (folder) => {
    const listed = (read(`${folder}/package.json`).allowScripts ?? {}) as Record<string, boolean>;
    const needing = withInstallScripts(folder);
    expect(needing.length).toBeGreaterThan(0);
    for (const name of needing) expect(listed, `${folder}: ${name}`).toHaveProperty([name]);
  });

  it.each(["scripts/node-24", "test/packaging/node-22"])(
    "%s lets the node package fetch its Node.js",
    (folder) => {
      expect(read(`${folder}/package.json`).allowScripts).toEqual({ node: true });
    },
  );

  it("the Medusa apps build their admin with esbuild and swc, as the repository does", () => {
    for (const folder of ["test/packaging/oldest-medusa", "test/packaging/next-medusa"]) {
      const listed = read(`${folder}/package.json`).allowScripts;
      expect(listed, folder).toMatchObject({ esbuild: true, "@swc/core": true });
    }
  });
});
