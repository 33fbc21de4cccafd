// The docs' pictures are re-taken by script (`npm run screenshots`), never by hand, and none is
// older than what it shows: each picture's fingerprint, recorded when its script took it, must
// equal the fingerprint of its sources now. A change to the element, a storefront, the admin
// or the sandbox's pages that is not followed by new pictures fails here, naming the command.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { LOCK, SHOTS, fingerprint, root, sourceFiles } from "../scripts/screenshot-manifest.mjs";

const lock = JSON.parse(readFileSync(new URL(LOCK, `file://${root}`), "utf8")) as Record<
  string,
  string
>;
const tracked = execFileSync("git", ["ls-files", "-z", "--", "*.png"], {
  cwd: root,
  encoding: "utf8",
})
  .split("\0")
  .filter(Boolean);

describe("the docs' screenshots", () => {
  it("are each taken by one script: no picture in the repository is made by hand", () => {
    const scripted = SHOTS.flatMap((shot) => shot.pictures);
    expect(new Set(scripted).size).toBe(scripted.length);
    expect(tracked.filter((file) => !scripted.includes(file))).toEqual([]);
    for (const picture of scripted)
      expect(existsSync(new URL(picture, `file://${root}`)), picture).toBe(true);
  });

  it("name sources that exist, so a fingerprint covers something", () => {
    for (const shot of SHOTS) {
      expect(sourceFiles(shot.sources).length, shot.name).toBeGreaterThan(0);
      for (const source of shot.sources)
        expect(sourceFiles([source]).length, `${shot.name}: ${source}`).toBeGreaterThan(0);
    }
  });

  it.each(SHOTS.map((shot) => [shot.name, shot] as const))(
    "%s: taken after the last change to what they show",
    (name, shot) => {
      const now = fingerprint(shot.sources);
      const stale = shot.pictures.filter((picture) => lock[picture] !== now);
      expect(
        stale,
        `taken before ${shot.sources.join(", ")} last changed: run \`npm run screenshots -- ${name}\` and commit the pictures with ${LOCK}`,
      ).toEqual([]);
    },
  );
});
