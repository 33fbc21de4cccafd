import { readFileSync } from "node:fs";
import { join } from "node:path";
import { MedusaError } from "@medusajs/framework/utils";
import { describe, expect, it } from "vitest";
import { ERROR_STATUS, PixCheckoutError } from "./errors";

/** The error table of docs/errors.md: code → the HTTP status it documents. */
function documentedStatuses(): Map<string, number> {
  const readme = readFileSync(join(__dirname, "../../../docs/errors.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Errors\n"), readme.indexOf("## Secrets\n"));
  const documented = new Map<string, number>();
  for (const row of section.split("\n").filter((line) => line.startsWith("| `"))) {
    const [codes = "", status = ""] = row.split("|").slice(1, 3);
    for (const [, code] of codes.matchAll(/`([a-z_]+)`/g)) {
      if (code) documented.set(code, Number(status));
    }
  }
  return documented;
}

describe("the one error tree", () => {
  it("documents every code the plugin answers, with the status it answers it with", () => {
    const documented = documentedStatuses();
    for (const [code, status] of Object.entries(ERROR_STATUS)) {
      expect({ code, status: documented.get(code) }).toEqual({ code, status });
    }
  });

  it("answers through Medusa's handler with the nearest status Medusa has", () => {
    expect(new PixCheckoutError("invalid_payer_data", "x").type).toBe(
      MedusaError.Types.INVALID_DATA,
    );
    expect(new PixCheckoutError("charge_not_found", "x").type).toBe(MedusaError.Types.NOT_FOUND);
    expect(new PixCheckoutError("store_unavailable", "x").type).toBe(MedusaError.Types.CONFLICT);
    // A passing upstream failure: 503 in the plugin's routes, "you may retry" (409) in Medusa's.
    const busy = new PixCheckoutError("timeout", "x", 503);
    expect([busy.status, busy.type]).toEqual([503, MedusaError.Types.CONFLICT]);
  });
});
