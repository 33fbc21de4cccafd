// The DTC starter guide (docs/guides/medusa-dtc-starter.md) is code a merchant copies into
// their storefront. apps/next-storefront is built from that same code and runs in the
// end-to-end suite, so every block the guide gives for a file must be in the app's file of
// the same path: when the app changes, the guide has to change with it. And as whole code
// (support/whole-code.ts): a block cut short is still text of the file, but no run of its
// syntax nodes, and a merchant who pastes it gets a storefront that does not build.
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { wholeCodeRuns } from "./support/whole-code.js";

const root = new URL("../", import.meta.url);
const guide = readFileSync(new URL("docs/guides/medusa-dtc-starter.md", root), "utf8");
const appSrc = new URL("apps/next-storefront/src/", root);

type Section = { file: string; blocks: string[]; replaced: string[] };

/**
 * Each section's file (the backticked path in its `## N.` heading), its code blocks, and the
 * starter's lines it says to replace ("Replace the line `import ...` with").
 */
function sections(text = guide): Section[] {
  const found: Section[] = [];
  for (const part of text.split(/^## /m).slice(1)) {
    const heading = part.slice(0, part.indexOf("\n"));
    const file = /^\d+\.\s+`([^`]+)`/.exec(heading)?.[1];
    if (!file) continue;
    const blocks = [...part.matchAll(/```(?:tsx?|ts)\n([\s\S]*?)```/g)].map((m) => m[1]!);
    const replaced = [...part.matchAll(/[Rr]eplace the line\s+`([^`]+)`/g)].map((m) => m[1]!);
    found.push({ file, blocks, replaced });
  }
  return found;
}

/** Formatting aside (line breaks, indentation, trailing commas), the same code. */
const normalize = (code: string) =>
  code
    .replace(/\s+/g, "")
    .replace(/,([)\]}>])/g, "$1")
    .replace(/,$/, "");

/**
 * What must be in the file: the block as one piece, or, for a block of imports (which go among
 * the file's other imports), each import whole (one may span lines).
 */
function pieces(block: string): string[] {
  const lines = block.split("\n").filter((line) => line.trim());
  const imports = lines.join("\n").match(/^import [^;]*?from "[^"]+"$/gm) ?? [];
  return imports.join("\n") === lines.join("\n") ? imports : [block];
}

/**
 * The blocks of `section` that are not in the app's file as whole code (wholeCodeRuns): a block
 * cut short, or one that only fits inside a larger piece of code, is text of the file but no
 * run of its syntax nodes.
 */
function notWholeCode({ file, blocks }: Section): string[] {
  const source = readFileSync(new URL(file, appSrc), "utf8");
  return blocks.flatMap(pieces).filter((piece) => wholeCodeRuns(source, piece, file).length === 0);
}

describe("the DTC starter guide quotes apps/next-storefront", () => {
  const all = sections();

  it("names a file for every numbered step", () => {
    expect(all.length).toBeGreaterThanOrEqual(9);
    expect(all.flatMap((s) => s.blocks).length).toBeGreaterThanOrEqual(15);
  });

  it("says which line each import replaces, at least where a second import would not build", () => {
    // Adding `import { isBoleto, isStripeLike, ... }` beside the starter's own import of
    // isStripeLike stops `next build` ("'isStripeLike' has already been declared").
    const replaced = all.flatMap((s) => s.replaced);
    expect(replaced).toContain('import { isStripeLike, paymentInfoMap } from "@lib/constants"');
    expect(replaced).toContain('import { isManual, isStripeLike } from "@lib/constants"');
  });

  it.each(all)("$file: each of the guide's blocks is in the app's file", ({ file, blocks }) => {
    const path = new URL(file, appSrc);
    expect(existsSync(path), `apps/next-storefront/src/${file} exists`).toBe(true);
    const source = normalize(readFileSync(path, "utf8"));
    for (const piece of blocks.flatMap(pieces)) {
      expect(source.includes(normalize(piece)), `this code of the guide:\n${piece}`).toBe(true);
    }
  });

  it.each(all)(
    "$file: each block is whole code of the app's file, never part of a node",
    (section) => {
      expect(notWholeCode(section)).toEqual([]);
    },
  );

  it("catches a block cut short: one closing parenthesis less, and the block is no whole code", () => {
    // The block that once shipped cut short: "Expected ',', got 'const'" in `next build`.
    const block = all.flatMap((s) => s.blocks).find((b) => b.includes('"every_order">('))!;
    expect(block.trimEnd().endsWith(")")).toBe(true);
    const cut = block.trimEnd().slice(0, -1) + "\n";
    const copy = sections(guide.replace(block, cut));
    const failing = copy.flatMap(notWholeCode);
    expect(failing).toEqual([cut]);
  });

  it.each(all.filter((s) => s.replaced.length > 0))(
    "$file: none of the lines the guide replaces is left in the app's file",
    ({ file, replaced }) => {
      const source = normalize(readFileSync(new URL(file, appSrc), "utf8"));
      for (const line of replaced) {
        expect(source.includes(normalize(line)), `a line the guide replaces:\n${line}`).toBe(false);
      }
    },
  );
});

// The starter's backend as it ships is what test/packaging runs the packed plugin on (the
// oldest supported Medusa, oldest-medusa/package.json); the guide must not send a merchant to
// upgrade it, and what it adds to the backend is at that same version.
describe("the DTC starter guide keeps the starter's backend as it ships", () => {
  const oldest = JSON.parse(
    readFileSync(new URL("test/packaging/oldest-medusa/package.json", root), "utf8"),
  ) as { dependencies: Record<string, string> };

  it("adds @medusajs packages only at the version the packaging test runs the plugin on", () => {
    const pins = [...guide.matchAll(/(@medusajs\/[\w-]+)@(\d[\w.-]*)/g)];
    expect(pins.length).toBeGreaterThan(0);
    for (const [, name, version] of pins) {
      expect(`${name}@${version}`).toBe(`${name}@${oldest.dependencies[name!]}`);
    }
  });

  it("never moves Medusa itself, its admin or React Router", () => {
    expect(guide).not.toMatch(
      /(@medusajs\/(medusa|framework|dashboard|admin-sdk|admin-shared|cli|ui)|react-router-dom)@\d/,
    );
  });
});
