// The DTC starter guide (docs/guides/medusa-dtc-starter.md) is code a merchant copies into
// their storefront. apps/next-storefront is built from that same code and runs in the
// end-to-end suite, so every block the guide gives for a file must be in the app's file of
// the same path: when the app changes, the guide has to change with it. And as whole code
// (support/whole-code.ts): a block cut short is still text of the file, but no run of its
// syntax nodes, and a merchant who pastes it gets a storefront that does not build. And every
// name a block uses is declared where the merchant types it (support/free-names.ts): by the
// block, by an earlier block, or by the starter, and then the step says so.
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { usedOutsideRun } from "./support/free-names.js";
import { wholeCodeRuns } from "./support/whole-code.js";

const root = new URL("../", import.meta.url);
const guide = readFileSync(new URL("docs/guides/medusa-dtc-starter.md", root), "utf8");
const appSrc = new URL("apps/next-storefront/src/", root);

type Section = {
  step: string;
  file: string;
  blocks: string[];
  replaced: string[];
  /** The names the step's prose gives in backticks (see `saidNames`). */
  said: Set<string>;
};

/**
 * Each section's step number and file (the backticked path in its `## N.` heading), its code
 * blocks, the starter's lines it says to replace ("Replace the line `import ...` with"), and the
 * names its prose says.
 */
function sections(text = guide): Section[] {
  const found: Section[] = [];
  for (const part of text.split(/^## /m).slice(1)) {
    const heading = part.slice(0, part.indexOf("\n"));
    const [, step, file] = /^(\d+)\.\s+`([^`]+)`/.exec(heading) ?? [];
    if (!step || !file) continue;
    const blocks = [...part.matchAll(/```(?:tsx?|ts)\n([\s\S]*?)```/g)].map((m) => m[1]!);
    const replaced = [...part.matchAll(/[Rr]eplace the line\s+`([^`]+)`/g)].map((m) => m[1]!);
    found.push({ step, file, blocks, replaced, said: saidNames(part) });
  }
  return found;
}

/**
 * The names a step's prose says the file has where its blocks go: every identifier in its
 * backticked code, outside its heading and its code blocks. "the starter's `activeSession`"
 * says it, and so does a quoted line of the starter's ("below `if (!cart) { return notFound() }`"
 * says `cart`), or an instruction that gives no block ("add `getShopperAddressHeaders` to the
 * file's import"). A path (`app/[countryCode]/…`, `lib/data/cart.ts`) or a module's name in
 * quotes (`"./cookies"`) names a file, not a name of its code.
 */
function saidNames(part: string): Set<string> {
  const prose = part.slice(part.indexOf("\n")).replace(/^```[^\n]*\n[\s\S]*?^```/gm, "");
  const spans = [...prose.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
  return new Set(
    spans
      .filter((span) => !/^[\w@.()[\]-]+(\/[\w@.()[\]-]+)+$/.test(span))
      .flatMap((span) => span.replace(/"[^"]*"|'[^']*'/g, "").match(/[A-Za-z_$][\w$]*/g) ?? []),
  );
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

/**
 * Every name a block uses that its file declares elsewhere (support/free-names.ts), where the
 * merchant could not have it, as "step N (file): name, why". A name must be declared by an
 * earlier block of the guide for the same file (an earlier step's, or an earlier one of the same
 * step); a block the guide gives later does not count, since the code does not build until it
 * comes. A name declared by no block is the starter's (apps/next-storefront keeps the starter's
 * code around the guide's), or one the prose says to add without a block: the step's prose must
 * say it in backticks, so a merchant whose starter has moved knows what the block leans on.
 * Globals and lib types are no code of the file, and not listed (free-names.ts).
 */
function undeclaredNames(all: Section[]): string[] {
  const located = all.flatMap((section) => {
    const source = readFileSync(new URL(section.file, appSrc), "utf8");
    // A block that is no whole code fails the test above; one that fits in two places is
    // taken at the first.
    return section.blocks.flatMap(pieces).flatMap((piece) =>
      wholeCodeRuns(source, piece, section.file)
        .slice(0, 1)
        .map((run) => ({ section, source, run })),
    );
  });
  const found = located.flatMap(({ section, source, run }, at) => {
    const sameFile = located.filter((other) => other.section.file === section.file);
    const declaring = (position: number) =>
      sameFile.find((other) => position >= other.run.start && position < other.run.end);
    return usedOutsideRun(source, run, section.file).flatMap(({ name, declaredAt }) => {
      const block = declaring(declaredAt);
      const where = `step ${section.step} (${section.file}): ${name}`;
      if (block) {
        return located.indexOf(block) < at ? [] : [`${where}, declared by a later block`];
      }
      return section.said.has(name) ? [] : [`${where}, not said by the step's prose`];
    });
  });
  // Once per step: a step says a name once for all its blocks.
  return [...new Set(found)];
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

  it("each block's names are declared by the block, an earlier step, or named as the starter's in its step", () => {
    expect(undeclaredNames(all)).toEqual([]);
  });

  it("catches a name nothing declares: step 22 without the block that reads countryCode", () => {
    // The starter's checkout page reads no country: typed without that block, the step's
    // redirect answered every shopper with "ReferenceError: countryCode is not defined".
    const step22 = all.find((s) => s.step === "22")!;
    const reads = step22.blocks.find((b) => b.includes("const [{ countryCode }"))!;
    const copy = sections(guide.replace("```tsx\n" + reads + "```\n", ""));
    expect(undeclaredNames(copy)).toEqual([
      "step 22 (app/[countryCode]/(checkout)/checkout/page.tsx): step, not said by the step's prose",
      "step 22 (app/[countryCode]/(checkout)/checkout/page.tsx): countryCode, not said by the step's prose",
    ]);
  });

  it("catches a starter name the step's prose no longer says", () => {
    // Step 7's buttons draw the starter's `Button`: without the word, the step would lean on it
    // unsaid.
    const step7 = guide.slice(guide.indexOf("\n## 7. "), guide.indexOf("\n## 8. "));
    expect(step7).toContain("`Button`");
    const copy = sections(guide.replace(step7, step7.replaceAll("`Button`", "button")));
    expect(undeclaredNames(copy)).toEqual([
      "step 7 (modules/checkout/components/payment-button/index.tsx): Button, not said by the step's prose",
    ]);
  });

  it("catches a block that leans on a later one: step 1's icons before their import", () => {
    const [imports, entries] = all.find((s) => s.step === "1")!.blocks;
    const fence = (code: string) => "```tsx\n" + code + "```";
    const swapped = guide
      .replace(fence(imports!), "IMPORTS")
      .replace(fence(entries!), fence(imports!))
      .replace("IMPORTS", fence(entries!));
    expect(undeclaredNames(sections(swapped))).toEqual([
      "step 1 (lib/constants.tsx): Bolt, declared by a later block",
      "step 1 (lib/constants.tsx): DocumentText, declared by a later block",
    ]);
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

// The guide is checked by hand on the real starter (medusajs/dtc-starter), which this repository
// never holds: it says at which commit, so a reader whose starter has moved knows what to diff.
describe("the DTC starter guide says which starter it was checked on", () => {
  it("names the starter's commit and says what to do when the starter has moved", () => {
    const part = guide.slice(guide.indexOf("\n## Checked against the starter"));
    const checked = part.slice(0, part.indexOf("\n## ", 1));
    const [, commit] = /at commit \*\*`([0-9a-f]{7,40})`\*\*/.exec(checked) ?? [];
    expect(commit).toBeDefined();
    expect(checked).toContain("### When the starter has moved");
    expect(checked).toContain(`git diff ${commit}`);
  });
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
