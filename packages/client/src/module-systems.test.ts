// The built package as both module systems load it: Medusa projects compile to CommonJS and
// reach the client through require(), ESM projects through import. Runs against dist/, so
// `npm run build` comes first (as `npm test` does).
import { execFile } from "node:child_process";
import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { startSandbox, type Sandbox } from "@pix-checkout/sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const packageDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");

// A scratch project that sees the client only as an installed package, through its exports map.
let project: string;
let sandbox: Sandbox;

beforeAll(async () => {
  project = mkdtempSync(join(tmpdir(), "pix-client-loaders-"));
  mkdirSync(join(project, "node_modules", "@pix-checkout"), { recursive: true });
  symlinkSync(packageDir, join(project, "node_modules", "@pix-checkout", "client"), "dir");
  sandbox = await startSandbox({ variant: "a", port: 0 });
});
afterAll(async () => {
  await sandbox?.close();
  if (project) rmSync(project, { recursive: true, force: true });
});

/** A script that creates one Pix charge and prints it, in the given module syntax. */
function chargeScript(syntax: "require" | "import"): string {
  const load =
    syntax === "require"
      ? 'const { PixClient, PixError } = require("@pix-checkout/client");'
      : 'import { PixClient, PixError } from "@pix-checkout/client";';
  return `${load}
const client = new PixClient({ apiKey: ${JSON.stringify(sandbox.defaultKey)}, baseUrl: ${JSON.stringify(sandbox.baseUrl)}, variant: "a" });
client.charges.create({ method: "pix", amountCents: 1990 }).then((charge) => {
  console.log(JSON.stringify({ status: charge.status, amountCents: charge.amountCents, errorsExported: typeof PixError === "function" }));
});
`;
}

// Child processes and tsc on a shared machine: seconds each, far past the default 5 s.
describe("the built client under each module system", { timeout: 60_000 }, () => {
  it.each([
    ["require()", "charge.cjs", "require"],
    ["import", "charge.mjs", "import"],
  ] as const)(
    "creates a Pix charge against the sandbox when loaded with %s",
    async (_, file, syntax) => {
      writeFileSync(join(project, file), chargeScript(syntax));
      const { stdout } = await run(process.execPath, [join(project, file)], { cwd: project });
      expect(JSON.parse(stdout)).toEqual({
        status: "pending",
        amountCents: 1990,
        errorsExported: true,
      });
    },
  );

  it.each([
    [
      "require()",
      "days.cjs",
      'const { endOfBusinessDaysAfter } = require("@pix-checkout/client/bank-days");',
    ],
    [
      "import",
      "days.mjs",
      'import { endOfBusinessDaysAfter } from "@pix-checkout/client/bank-days";',
    ],
  ] as const)("loads the bank calendar's subpath with %s", async (_, file, load) => {
    // The calendar the plugin (CommonJS) and the sandbox (ES modules) both count with.
    writeFileSync(
      join(project, file),
      `${load}\nconsole.log(endOfBusinessDaysAfter(new Date("2026-11-26T10:00:00-03:00"), 3).toISOString());\n`,
    );
    const { stdout } = await run(process.execPath, [join(project, file)], { cwd: project });
    expect(stdout.trim()).toBe("2026-12-02T02:59:59.999Z"); // end of Tuesday 01/12 in São Paulo
  });

  it.each([
    ["require()", "books.cjs", 'const { brl, toCsv } = require("@pix-checkout/client/books");'],
    ["import", "books.mjs", 'import { brl, toCsv } from "@pix-checkout/client/books";'],
  ] as const)("loads the books' subpath with %s", async (_, file, load) => {
    // What the Medusa plugin (CommonJS) and the Vendure plugin (CommonJS) write books with.
    writeFileSync(
      join(project, file),
      `${load}\nconsole.log(JSON.stringify([brl(1234567), toCsv([["a", 11480]])]));\n`,
    );
    const { stdout } = await run(process.execPath, [join(project, file)], { cwd: project });
    expect(JSON.parse(stdout)).toEqual(["R$ 12.345,67", "\uFEFFa;114,80\r\n"]);
  });

  it("resolves require() to the CommonJS build and import to the ES module build", async () => {
    const { stdout } = await run(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `import { createRequire } from "node:module";
console.log(createRequire(process.cwd() + "/x.js").resolve("@pix-checkout/client"));
console.log(import.meta.resolve("@pix-checkout/client"));`,
      ],
      { cwd: project },
    );
    const [required, imported] = stdout.trim().split("\n");
    expect(required).toMatch(/dist[\\/]cjs[\\/]index\.js$/);
    expect(imported).toMatch(/dist\/index\.js$/);
  });

  it.each(["commonjs", "node16", "nodenext"] as const)(
    "type-checks `import { PixClient }` in a project compiled with module %s",
    async (module) => {
      const dir = join(project, `ts-${module}`);
      mkdirSync(dir, { recursive: true });
      // No "type" field: like a Medusa project, .ts files here compile to CommonJS.
      writeFileSync(join(dir, "package.json"), "{}\n");
      writeFileSync(
        join(dir, "script.ts"),
        `import { PixClient, type Charge } from "@pix-checkout/client";
export const client: PixClient = new PixClient({ apiKey: "sk_live_x", baseUrl: "http://localhost/v1", variant: "a" });
export type Created = Charge;
`,
      );
      const moduleResolution = module === "commonjs" ? "node10" : module;
      const args = [tsc, "--noEmit", "--strict", "--types", "node", "--skipLibCheck"];
      args.push("--module", module, "--moduleResolution", moduleResolution, join(dir, "script.ts"));
      // --typeRoots lets the scratch project find @types/node from the workspace.
      args.push("--typeRoots", join(packageDir, "..", "..", "node_modules", "@types"));
      // tsc exits non-zero on TS1479 (an ESM-only package imported from CommonJS) and the like.
      await expect(run(process.execPath, args, { cwd: dir })).resolves.toBeDefined();
    },
  );
});
