// The options a merchant reads about are the options the plugin checks: every field of each
// zod schema (which are also the public types, see types.ts) has a row in its documentation
// table, and every row names a field the schema has.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { optionsSchema } from "./internal/platform/options";
import { PLUGIN_OPTION_SECTIONS } from "./modules/pix-checkout/loaders/check-plugin-options";

const docs = path.join(__dirname, "..", "docs");

/**
 * The first column of the options table (its header starts with "Option") under `heading` in
 * `file`, without backticks or `prefix`.
 */
function documented(file: string, heading: string, prefix = ""): string[] {
  const text = readFileSync(path.join(docs, file), "utf8");
  const start = text.split("\n").findIndex((line) => line.trim() === heading);
  if (start < 0) throw new Error(`${file} has no heading "${heading}"`);
  const lines = text.split("\n").slice(start + 1);
  const table = lines.findIndex((line) => /^\|\s*[Oo]ption\b/.test(line));
  const rows: string[] = [];
  for (const line of lines.slice(table + 2)) {
    if (!line.startsWith("|")) break;
    const name = /^\|\s*`([^`]+)`/.exec(line)?.[1];
    if (name) rows.push(name.startsWith(prefix) ? name.slice(prefix.length) : name);
  }
  return rows.sort();
}

const fields = (schema: z.ZodObject) => Object.keys(schema.shape).sort();

describe("the documented options", () => {
  it("are the provider options, one row each", () => {
    expect(documented("options.md", "## Options")).toEqual(fields(optionsSchema));
  });

  it.each([
    ["fairness", "operations.md", "### One client cannot starve the line", ""],
    ["notifications", "store-api.md", "## Notifications (the shopper who closes the tab)", ""],
    ["stream", "store-api.md", "### Stream options", "stream."],
    ["alerts", "operations.md", "## Alerts", ""],
    ["recovery", "store-api.md", "## Reminders (a second chance for unpaid codes)", ""],
    ["calendar", "options.md", "## Bank calendar", ""],
  ] as const)("are the plugin's %s section, one row each", (section, file, heading, prefix) => {
    expect(documented(file, heading, prefix)).toEqual(fields(PLUGIN_OPTION_SECTIONS[section]));
  });

  it("name every section of the plugin entry", () => {
    const text = readFileSync(path.join(docs, "options.md"), "utf8");
    const listed = /options }\]`: (.*?)\) are checked/s.exec(text)?.[1] ?? "";
    expect([...listed.matchAll(/`(\w+)`/g)].map((m) => m[1]).sort()).toEqual(
      Object.keys(PLUGIN_OPTION_SECTIONS).sort(),
    );
  });
});
