import { createHash } from "node:crypto";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";

/*
 * A committed migration never changes. A database that ran a migration never runs it again, so
 * an edited migration reaches fresh databases only and the two schemas drift apart (builds
 * before 0.1.0 had one renamed and one edited after databases ran them). migrations/hashes.json
 * holds the sha256 of every migration as committed; this test fails when one changed or
 * disappeared, and when a new one has no hash yet. Line endings are read as "\n", so a Windows
 * checkout hashes the same.
 */

const dir = path.join(__dirname, "migrations");
const HASHES = "migrations/hashes.json";

const hashes = JSON.parse(readFileSync(path.join(dir, "hashes.json"), "utf8")) as Record<
  string,
  string
>;
const files = readdirSync(dir)
  .filter((name) => /^Migration\d+\.ts$/.test(name))
  .sort();

function sha256Of(file: string): string {
  const text = readFileSync(path.join(dir, file), "utf8").replace(/\r\n/g, "\n");
  return createHash("sha256").update(text).digest("hex");
}

describe("the plugin's migrations", () => {
  it.each(Object.keys(hashes))("%s is as it was committed", (file) => {
    if (!files.includes(file)) {
      throw new Error(
        `${file} is gone, but ${HASHES} says it was committed: databases ran it. A committed ` +
          `migration never changes or disappears: put it back as it was, and to undo what it ` +
          `did, add a new migration instead.`,
      );
    }
    const found = sha256Of(file);
    if (found !== hashes[file]) {
      throw new Error(
        `${file} changed after it was committed (sha256 ${found}, ${HASHES} has ` +
          `${hashes[file]}). A database that ran it never runs it again, so the change would ` +
          `reach fresh databases only: put it back as it was and add a new migration instead.`,
      );
    }
  });

  it("has the hash of every migration", () => {
    const missing = files.filter((file) => !(file in hashes));
    if (missing.length > 0) {
      throw new Error(
        `Not in ${HASHES}: ${missing.join(", ")}. Once a new migration is final, add its hash ` +
          `there, and from then on never change the file:\n` +
          missing.map((file) => `  "${file}": "${sha256Of(file)}"`).join(",\n"),
      );
    }
  });
});
