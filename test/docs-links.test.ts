// Docs are product: every relative link in the repository's Markdown reaches a file that
// exists, and every #anchor a heading of that file (GitHub's slugs, duplicates numbered).
// Splitting a long README into pages is where links break; this keeps them whole. And no doc
// sends its reader outside the repository: what a reader needs is written here, and a page
// elsewhere moves or goes without this repository knowing.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "..");
const files = execFileSync("git", ["ls-files", "*.md"], { cwd: root, encoding: "utf8" })
  .split("\n")
  .filter(
    (file) =>
      file && !file.includes("node_modules") && !file.startsWith("apps/next-storefront/.next"),
  );

/** GitHub's anchors of a Markdown file's headings. */
function anchorsOf(file: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const heading = !fenced && /^#{1,6} (.*)$/.exec(line);
    if (!heading) continue;
    const base = heading[1]!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\- _]/gu, "")
      .replace(/ /g, "-");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** The relative links of a Markdown file, outside code. */
function linksOf(file: string): string[] {
  const text = readFileSync(file, "utf8")
    .replace(/```[\s\S]*?```/g, "")
    .replace(/`[^`\n]*`/g, "");
  return [...text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
    .map((m) => m[1]!)
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith("//"));
}

/**
 * The links of a Markdown file, outside code, that leave the repository: a link or autolink to
 * a web address other than this machine's or a reserved example domain (the addresses a doc
 * shows a merchant to fill in).
 */
function outsideLinksOf(file: string): string[] {
  const text = readFileSync(file, "utf8")
    .replace(/```[\s\S]*?```/g, "")
    .replace(/`[^`\n]*`/g, "");
  const targets = [
    ...[...text.matchAll(/\]\((https?:\/\/[^)\s]+)/g)].map((m) => m[1]!),
    ...[...text.matchAll(/<(https?:\/\/[^>\s]+)>/g)].map((m) => m[1]!),
  ];
  return targets.filter((target) => {
    const host = new URL(target).hostname;
    return !/^(localhost|127\.0\.0\.1)$|(^|\.)example(\.[a-z]+)?$/.test(host);
  });
}

describe("the repository's Markdown links", () => {
  it("finds the docs", () => {
    expect(files.length).toBeGreaterThan(10);
    expect(files).toContain("packages/medusa/docs/operations.md");
  });

  it.each(files)("%s: every relative link and anchor resolves", (file) => {
    const broken: string[] = [];
    const absolute = path.join(root, file);
    for (const link of linksOf(absolute)) {
      const [target = "", anchor] = link.split("#");
      const resolved = target ? path.resolve(path.dirname(absolute), decodeURI(target)) : absolute;
      if (!existsSync(resolved)) {
        broken.push(`${link} (no such file)`);
        continue;
      }
      if (anchor && statSync(resolved).isFile() && resolved.endsWith(".md")) {
        if (!anchorsOf(resolved).has(decodeURIComponent(anchor)))
          broken.push(`${link} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it.each(files)("%s: links nowhere outside the repository", (file) => {
    expect(outsideLinksOf(path.join(root, file))).toEqual([]);
  });
});
