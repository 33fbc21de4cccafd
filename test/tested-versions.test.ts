// The plugin README's "Medusa versions" table is a promise: each row must be a combination
// test/packaging runs, on the versions its installs pin, and each such combination a row.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { NEXT_MEDUSA, OLDEST_MEDUSA, specManifest } from "./packaging/cached-installs.js";

const readme = readFileSync(new URL("../packages/medusa/README.md", import.meta.url), "utf8");
const rootMedusa = JSON.parse(
  readFileSync(new URL("../node_modules/@medusajs/medusa/package.json", import.meta.url), "utf8"),
).version as string;
const node22 = specManifest("node-22").dependencies.node!;

/** The table's rows as [Node.js, Medusa], each the first version in its cell. */
function rows(): [string, string][] {
  const section = readme.slice(readme.indexOf("## Medusa versions"));
  return section
    .split("\n")
    .filter((line) => /^\| \d/.test(line))
    .map((line) => {
      const [node, medusa] = line
        .split("|")
        .slice(1, 3)
        .map((cell) => cell.trim());
      return [node!, /^[\w.-]+?(?=,|$| )/.exec(medusa!)![0]];
    });
}

describe("the tested combinations in the plugin README", () => {
  it("are what test/packaging runs, on the versions it pins", () => {
    const minor = node22.split(".").slice(0, 2).join(".");
    expect(rows()).toEqual([
      ["20", OLDEST_MEDUSA],
      ["20", rootMedusa],
      [minor, rootMedusa],
      [minor, NEXT_MEDUSA],
    ]);
  });
});
