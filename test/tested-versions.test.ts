// The plugin README's "Medusa versions" table is a promise: each row must be a combination
// test/packaging runs, on the versions its installs pin, and each such combination a row,
// newest Node.js first.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { NEXT_MEDUSA, OLDEST_MEDUSA } from "./packaging/cached-installs.js";

const readme = readFileSync(new URL("../packages/medusa/README.md", import.meta.url), "utf8");
const rootMedusa = JSON.parse(
  readFileSync(new URL("../node_modules/@medusajs/medusa/package.json", import.meta.url), "utf8"),
).version as string;
/** The major.minor of the Node.js a runtime folder pins (its package.json's `node`). */
const nodeOf = (folder: string): string =>
  (
    JSON.parse(readFileSync(new URL(`${folder}/package.json`, import.meta.url), "utf8"))
      .dependencies.node as string
  )
    .split(".")
    .slice(0, 2)
    .join(".");

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
      return [/^[\d.]+/.exec(node!)![0], /^[\w.-]+?(?=,|$| )/.exec(medusa!)![0]];
    });
}

describe("the tested combinations in the plugin README", () => {
  it("are what test/packaging runs, on the versions it pins", () => {
    const [node24, node22] = [nodeOf("../scripts/node-24"), nodeOf("./packaging/node-22")];
    expect(rows()).toEqual([
      [node24, rootMedusa],
      [node24, NEXT_MEDUSA],
      [node22, rootMedusa],
      [node22, NEXT_MEDUSA],
      [node22, OLDEST_MEDUSA],
    ]);
  });
});
