// docs/privacy.md promises what never carries a shopper's personal data. Each "never" is only as
// good as the test that proves it, so every line of its "What never carries it" table names a
// test file and a test title, and this checks both exist: a renamed or deleted test breaks here,
// not silently in the page. It also keeps the page's retention period the option's default.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { optionsSchema } from "./internal/platform/options";

const root = path.join(__dirname, "..");
const page = readFileSync(path.join(root, "docs", "privacy.md"), "utf8");

/** The rows of the table under `## What never carries it`: the claim and its proof. */
function neverLines(): { claim: string; file: string; title: string }[] {
  const lines = page.split("\n");
  const start = lines.findIndex((line) => line.trim() === "## What never carries it");
  if (start < 0) throw new Error('docs/privacy.md has no "## What never carries it"');
  const table = lines.slice(start + 1).findIndex((line) => /^\|\s*Never\s*\|/.test(line));
  const rows: { claim: string; file: string; title: string }[] = [];
  for (const line of lines.slice(start + 1 + table + 2)) {
    if (!line.startsWith("|")) break;
    const [, claim = "", proof = ""] = line.split(/\s*\|\s*/);
    const named = /^`([^`]+\.test\.ts)`, "(.+)"$/.exec(proof);
    if (!named) throw new Error(`this line names no test as \`file\`, "title": ${line}`);
    rows.push({ claim, file: named[1]!, title: named[2]! });
  }
  return rows;
}

describe("docs/privacy.md", () => {
  it("says what never carries personal data, each line with a test of its own", () => {
    const rows = neverLines();
    expect(rows.map((row) => row.claim)).toEqual([
      expect.stringMatching(/^A log line/),
      expect.stringMatching(/^A span or a metric/),
      expect.stringMatching(/^A message to the shopper/),
      expect.stringMatching(/^The OFX/),
      expect.stringMatching(/^A session's public data/),
    ]);
    for (const { file, title } of rows) {
      const source = path.join(root, file);
      expect(existsSync(source), file).toBe(true);
      // The title as the test declares it, in an `it("…"` of that file.
      expect(readFileSync(source, "utf8"), `${file}: "${title}"`).toMatch(
        new RegExp(`\\bit\\(\\s*"${title.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}"`),
      );
    }
  });

  it("gives the retention option's default period", () => {
    const days = optionsSchema.shape.retentionDays.parse(undefined);
    expect(page).toContain(`\`retentionDays\` (default **${String(days)}**)`);
  });
});
