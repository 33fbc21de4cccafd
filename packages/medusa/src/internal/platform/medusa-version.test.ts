import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { installedMedusaVersion, lockingHoldsForJob } from "./medusa-version";

describe("lockingHoldsForJob", () => {
  it("is true from Medusa 2.21.0, whose locking holds a job's lock until the job ends", () => {
    for (const version of ["2.21.0", "2.21.2", "2.22.0-snapshot-20261101", "2.30.1", "3.0.0"]) {
      expect(lockingHoldsForJob(version), version).toBe(true);
    }
  });

  it("is false before 2.21.0, and for a version it cannot read", () => {
    for (const version of ["2.18.0", "2.19.0-preview-20260811104048", "2.20.1", "", null]) {
      expect(lockingHoldsForJob(version), String(version)).toBe(false);
    }
  });
});

describe("installedMedusaVersion", () => {
  it("reads the framework this package is developed on (its pinned devDependency)", () => {
    const manifest = JSON.parse(readFileSync(join(__dirname, "../../../package.json"), "utf8"));
    expect(installedMedusaVersion()).toBe(manifest.devDependencies["@medusajs/framework"]);
  });
});
