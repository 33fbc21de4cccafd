import { spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { claimRunFolder, runDatabaseName } from "./run-folder.mjs";

describe("claimRunFolder", () => {
  it("gives the first demo the data folder and one beside it demo-2, then frees them", async () => {
    const base = await mkdtemp(join(tmpdir(), "pix-demo-runs-"));
    const first = claimRunFolder(base);
    const second = claimRunFolder(base);
    expect([first.number, first.dir]).toEqual([1, base]);
    expect([second.number, second.dir]).toEqual([2, join(base, "demo-2")]);
    second.release();
    first.release();
    expect(existsSync(join(base, "demo.lock"))).toBe(false);
    const again = claimRunFolder(base);
    expect(again.number).toBe(1);
    again.release();
  });

  it("takes over the folder of a demo that was killed", async () => {
    const base = await mkdtemp(join(tmpdir(), "pix-demo-runs-"));
    // The id of a process that has ended.
    const gone = spawnSync(process.execPath, ["-e", "console.log(process.pid)"], {
      encoding: "utf8",
    }).stdout.trim();
    writeFileSync(join(base, "demo.lock"), gone);
    const run = claimRunFolder(base);
    expect(run.number).toBe(1);
    run.release();
  });
});

describe("runDatabaseName", () => {
  it("keeps the first demo's database and suffixes the others'", () => {
    expect(runDatabaseName("pix_checkout_demo", 1)).toBe("pix_checkout_demo");
    expect(runDatabaseName("pix_checkout_demo", 2)).toBe("pix_checkout_demo_2");
  });
});
