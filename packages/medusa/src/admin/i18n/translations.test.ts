import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import translations from "./index";

type Tree = { [key: string]: string | Tree };

/** Every leaf of a translation tree as `a.b.c` → text. */
function leaves(tree: Tree, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string") out.set(path, value);
    else for (const [k, v] of leaves(value, path)) out.set(k, v);
  }
  return out;
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !name.endsWith(".test.ts") ? [path] : [];
  });
}

const en = leaves(translations.en.translation as Tree);
const ptBR = leaves(translations.ptBR.translation as Tree);

describe("admin translations", () => {
  it("has the same keys in English and Brazilian Portuguese, none empty", () => {
    expect([...ptBR.keys()].sort()).toEqual([...en.keys()].sort());
    for (const [key, text] of [...en, ...ptBR]) expect(text.trim(), key).not.toBe("");
  });

  it("really translates: the Portuguese differs from the English where words are involved", () => {
    expect(ptBR.get("pixCheckout.attention.title")).toBe("Precisa de atenção");
    const same = [...en].filter(([key, text]) => ptBR.get(key) === text && /[a-z]{4}/.test(text));
    // Brand names and placeholders may stay the same; sentences may not.
    // Brand names, loanwords the Brazilian admin uses as is (webhook, admin, checkout).
    expect(same.map(([key]) => key).sort()).toEqual(
      [
        "pixCheckout.title",
        "pixCheckout.widget.webhook",
        "pixCheckout.source.webhook",
        "pixCheckout.source.admin",
        "pixCheckout.source.provider",
      ].sort(),
    );
  });

  it("defines every key the admin code asks for", () => {
    const used = new Set<string>();
    for (const file of sources(join(__dirname, ".."))) {
      for (const [, key] of readFileSync(file, "utf8").matchAll(/\bt\(\s*"([\w.]+)"/g)) {
        if (key) used.add(`pixCheckout.${key}`);
      }
    }
    expect(used.size).toBeGreaterThan(30);
    for (const key of used) expect(en.has(key), key).toBe(true);
  });
});
