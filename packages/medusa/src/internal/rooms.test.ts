import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// What src/internal/README.md says of the rooms, held against the code: arrows point one way
// (a room imports only from the rooms above it), and Medusa's entities are read in `medusa/`
// alone, so the README cannot drift from the code unnoticed.

const SRC = path.join(__dirname, "..");
const ROOMS = [
  "platform",
  "records",
  "medusa",
  "checkout",
  "create-line",
  "settlement",
  "storefront",
  "recovery",
  "operations",
  "books",
];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return sources(file);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [file] : [];
  });
}

const roomOf = (file: string) =>
  path.relative(path.join(SRC, "internal"), file).split(path.sep)[0]!;

describe("the rooms of src/internal", () => {
  it("import only from the rooms above them", () => {
    const upward: string[] = [];
    for (const file of sources(path.join(SRC, "internal"))) {
      const room = ROOMS.indexOf(roomOf(file));
      if (room === -1) continue;
      for (const [, target] of readFileSync(file, "utf8").matchAll(/from "(\.[^"]+)"/g)) {
        const imported = ROOMS.indexOf(roomOf(path.resolve(path.dirname(file), target!)));
        if (imported > room) upward.push(`${path.relative(SRC, file)} imports ${target}`);
      }
    }
    expect(upward).toEqual([]);
  });

  it("read Medusa's entities with Query in medusa/ alone", () => {
    const elsewhere = sources(SRC)
      .filter((file) => !file.startsWith(path.join(SRC, "internal", "medusa") + path.sep))
      .filter((file) =>
        /ContainerRegistrationKeys\.QUERY|query\.graph\(/.test(readFileSync(file, "utf8")),
      )
      .map((file) => path.relative(SRC, file));
    expect(elsewhere).toEqual([]);
  });
});
