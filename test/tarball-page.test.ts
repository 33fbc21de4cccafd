// docs/install-from-tarballs.md is typed by a developer before 0.1.0 is on npm: it packs the
// packages into one folder, then installs them from a store (npm) or from Medusa's dtc-starter
// (pnpm), each command from a folder of its own. A path one `..` short or long there names no
// tarball, and the install fails far from its cause (the page once packed into `../pix-packs`
// and installed from `dtc-starter/pix-packs`). This follows the page as a shell would: every
// `cd`, from where each block starts, and every path to a pack, which must land in the folder
// the packs went into and name a tarball `npm pack` makes there.
import { readFileSync } from "node:fs";
import { posix } from "node:path";
import { describe, expect, it } from "vitest";

const root = new URL("../", import.meta.url);
const page = readFileSync(new URL("docs/install-from-tarballs.md", root), "utf8");

type Block = { lang: string; code: string };

/** The code blocks of a page's text in order, with their language. */
const blocksOf = (text: string): Block[] =>
  [...text.matchAll(/```(sh|json)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1]!, code: m[2]! }));
const blocks = blocksOf(page);

/**
 * Where each block starts, as its prose says: the clone's parent folder holds `pix-checkout/`,
 * the store and the starter (`/parent`); the npm block goes on from where the first left off;
 * the starter's `pnpm.overrides` path and its pnpm commands are "from the starter's root".
 */
const STARTS = ["/parent", null, "/parent/dtc-starter", "/parent/dtc-starter"] as const;

/** The tarball `npm pack` makes of a workspace: its scoped name flattened, and its version. */
function tarballOf(dir: string): { workspace: string; file: string } {
  const pkg = JSON.parse(readFileSync(new URL(`packages/${dir}/package.json`, root), "utf8")) as {
    name: string;
    version: string;
  };
  return {
    workspace: pkg.name,
    file: `${pkg.name.replace("@", "").replace("/", "-")}-${pkg.version}.tgz`,
  };
}
const TARBALLS = ["client", "medusa", "sandbox", "element"].map(tarballOf);

/** Follows the page: the folder packs went into, the workspaces packed, every pack path used. */
function follow(list: Block[] = blocks) {
  let cwd = "/parent";
  let packDir: string | null = null;
  const packed: string[] = [];
  const used: { path: string; from: string; block: number }[] = [];
  list.forEach((block, index) => {
    cwd = STARTS[index] ?? cwd;
    if (block.lang === "json") {
      for (const [, path] of block.code.matchAll(/"file:([^"]+)"/g)) {
        used.push({ path: posix.resolve(cwd, path!), from: cwd, block: index });
      }
      return;
    }
    const joined = block.code.replace(/\\\n/g, " ");
    for (const line of joined.split("\n")) {
      const command = line.replace(/#.*$/, "");
      for (const part of command.split("&&")) {
        const words = part.trim().split(/\s+/).filter(Boolean);
        if (words[0] === "cd" && words[1]) cwd = posix.resolve(cwd, words[1]);
        const destination = words.indexOf("--pack-destination");
        if (destination >= 0) packDir = posix.resolve(cwd, words[destination + 1]!);
        words.forEach((word, at) => {
          if (word === "-w" && words[0] === "npm" && words[1] === "pack")
            packed.push(words[at + 1]!);
          if (word.endsWith(".tgz"))
            used.push({ path: posix.resolve(cwd, word), from: cwd, block: index });
        });
      }
    }
  });
  return { packDir, packed, used };
}

describe("the tarball install page, followed as a shell would", () => {
  it("has the blocks this test knows where to start", () => {
    expect(blocks.map((b) => b.lang)).toEqual(["sh", "sh", "json", "sh"]);
  });

  it("packs the four packages into one folder beside the clone", () => {
    const { packDir, packed } = follow();
    expect(packDir).toBe("/parent/pix-packs");
    expect(packed.sort()).toEqual(TARBALLS.map((t) => t.workspace).sort());
  });

  it("installs every pack from that folder, by a name npm pack gives it, from wherever its command runs", () => {
    const { packDir, used } = follow();
    expect(used.length).toBeGreaterThanOrEqual(6);
    for (const { path, from } of used) {
      expect({ path: posix.dirname(path), from }).toEqual({ path: packDir, from });
      expect(TARBALLS.map((t) => t.file)).toContain(posix.basename(path));
    }
    // The pnpm commands run in the starter's two apps, three folders below the packs' parent.
    expect(new Set(used.filter((u) => u.block === 3).map((u) => u.from))).toEqual(
      new Set(["/parent/dtc-starter/apps/backend", "/parent/dtc-starter/apps/storefront"]),
    );
  });

  it("catches a path one folder short: the pnpm commands as two folders up", () => {
    const broken = page.replaceAll("../../../pix-packs/", "../../pix-packs/");
    expect(broken).not.toBe(page);
    const { packDir, used } = follow(blocksOf(broken));
    expect(used.some((u) => posix.dirname(u.path) !== packDir)).toBe(true);
  });
});
