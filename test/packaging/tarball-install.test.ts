// A merchant's install, proved on the runtimes merchants run in 2027 and at both ends of the
// Medusa versions the plugin supports: the four packages packed with `npm pack`, ONLY the
// tarballs installed into a scratch Medusa app outside the repository (no workspace links), the
// app configured from the plugin README's own snippet, migrated, booted, and one Pix checkout
// taken to captured against the sandbox. The plugin README's "Medusa versions" table lists
// these five. Each Node.js comes from the npm registry's `node` package, cached outside the
// repository (scripts/cached-install.mjs), so the stores run on the same binaries everywhere.
// - Node 24 (scripts/node-24/, the runtime `npm test` itself runs on), the newest Medusa
//   release (the root install): Medusa and every third-party package come from the root
//   node_modules through symlinks, which keeps the install to seconds.
// - Node 24, the next minor's newest build (next-medusa/): Medusa from the registry as that
//   folder's lock says, cached like the Node binaries.
// - Node 22 (node-22/), the newest release (the root install again), and the next minor's
//   newest build, whose admin, with the plugin's extension, its own bundler builds.
// - Node 22 again for the legacy line: the version Medusa's dtc-starter pins (oldest-medusa/),
//   its admin built by that version's bundler on React Router 6. Node.js 20 reached its end of
//   life on 2026-04-30 and the plugin's `engines` no longer name it.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
} from "node:fs";
import { createRequire, isBuiltin } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { medusa } from "../../packages/medusa/scripts/lib/built-app.mjs";
import {
  cachedInstall,
  copyNodeModules,
  NEXT_MEDUSA,
  node22,
  node24,
  OLDEST_MEDUSA,
  OLDEST_REACT_ROUTER,
  specManifest,
  type InstallSpec,
} from "./cached-installs.js";
import {
  PACKAGES,
  packagedStore,
  packTarballs,
  root,
  type PackagedStore,
} from "./packaged-store.js";

let work: string;
const tarballs = () => path.join(work, "tarballs");

beforeAll(() => {
  work = mkdtempSync(path.join(tmpdir(), "pix-packaging-"));
  const started = Date.now();
  packTarballs(tarballs());
  console.log(`packaging test: npm pack ${((Date.now() - started) / 1000).toFixed(1)} s`);
});

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

/**
 * The folder and version of `module` as code in the folder `from` (the app, or a package in it)
 * finds it: Node's lookup from there (its node_modules first), read from the folder since not
 * every package exports package.json.
 */
function installed(from: string, module: string): { version: string; dir: string } {
  const lookup = createRequire(path.join(from, "package.json")).resolve.paths(module) ?? [];
  for (const modules of lookup) {
    const file = path.join(modules, module, "package.json");
    if (!existsSync(file)) continue;
    return {
      version: JSON.parse(readFileSync(file, "utf8")).version,
      dir: realpathSync(path.dirname(file)),
    };
  }
  throw new Error(`${module} is not installed where ${from} looks`);
}

/** A wrong value in the plugin entry's options stops Medusa's start, naming every wrong field. */
async function wrongPluginOptionStopsTheStart(store: PackagedStore): Promise<void> {
  const outcome = await store.startWithPluginOptions({
    fairness: { clientCreatesPerMinute: 0 },
    notifications: { codeMailWindowMinutes: "30" },
  });
  expect(outcome).not.toBe("started");
  expect(outcome).toContain("Pix Checkout plugin options are invalid");
  expect(outcome).toContain("fairness.clientCreatesPerMinute");
  expect(outcome).toContain("notifications.codeMailWindowMinutes");
  // The same start with right values in those sections goes through.
  expect(
    await store.startWithPluginOptions({
      fairness: { clientCreatesPerMinute: 30 },
      notifications: { codeMailWindowMinutes: 60 },
    }),
  ).toBe("started");
}

/** The root install's node_modules, linked entry by entry, without the workspace packages. */
function linkRootInstall(modules: string): void {
  mkdirSync(modules, { recursive: true });
  for (const entry of readdirSync(path.join(root, "node_modules"))) {
    if (entry === "@pix-checkout" || entry === ".package-lock.json") continue;
    symlinkSync(path.join(root, "node_modules", entry), path.join(modules, entry));
  }
}

/**
 * A store on a Medusa of its own (`spec`: a cached install from the registry), with the
 * dtc-starter's tsconfig, whose admin is built alongside by that Medusa's own bundler.
 */
function storeOnOwnInstall(
  spec: InstallSpec,
  name: string,
  {
    node,
    config,
    admin = true,
  }: { node?: () => string; config?: "readme" | "guide"; admin?: boolean } = {},
) {
  const cli = (app: string) => path.join(app, "node_modules/@medusajs/cli/cli.js");
  return packagedStore({
    app: () => path.join(work, name),
    tarballs,
    config,
    packageJson: specManifest(spec),
    // `medusa build` reads the app's tsconfig even for the admin alone; this is the starter's.
    files: {
      "tsconfig.json": JSON.stringify({
        compilerOptions: {
          target: "ES2021",
          module: "Node16",
          moduleResolution: "Node16",
          esModuleInterop: true,
          skipLibCheck: true,
          jsx: "react-jsx",
          resolveJsonModule: true,
          outDir: "./.medusa/server",
          rootDir: "./",
        },
        include: ["src/**/*", ".medusa/types/*"],
        exclude: ["node_modules", ".medusa/server", ".medusa/admin"],
      }),
    },
    installMedusa: (modules) => {
      const cached = cachedInstall(spec);
      const started = Date.now();
      const how = copyNodeModules(cached.nodeModules, modules);
      console.log(
        `packaging test (${name}): ${cached.installed ? "npm install" : "cached install"} ${cached.seconds.toFixed(1)} s, node_modules ${how} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
      );
    },
    cli,
    ...(node ? { node } : {}),
    // The dashboard with the plugin's widgets and page, as `medusa build` makes it for a store
    // that hosts its admin: Vite over Medusa's dashboard and every plugin's `./admin` export.
    ...(admin
      ? {
          alongside: (app: string, env: NodeJS.ProcessEnv) =>
            medusa(["build", "--admin-only"], { cwd: app, env, cli: cli(app), node: node?.() }),
        }
      : {}),
  });
}

/** The admin `medusa build` made holds the plugin's page and order widget, in both languages. */
async function adminHasThePlugin(store: PackagedStore): Promise<void> {
  const started = Date.now();
  await store.alongside;
  console.log(
    `packaging test (${path.basename(store.app)}): admin build waited ${((Date.now() - started) / 1000).toFixed(1)} s after the checkout`,
  );
  const assets = path.join(store.app, ".medusa/admin/assets");
  const bundle = readdirSync(assets)
    .filter((file) => file.endsWith(".js"))
    .map((file) => readFileSync(path.join(assets, file), "utf8"))
    .join("\n");
  // The routes the plugin's page and widget read, and a string of each of its two languages.
  expect(bundle).toContain("/admin/pix-checkout/charges");
  expect(bundle).toContain("/admin/pix-checkout/reconciliation");
  expect(bundle).toContain("Verificar agora");
  expect(bundle).toContain("Re-check now");
}

const NODE_24 = () => node24().binary;
const NODE_22 = () => node22().binary;

describe("the packed tarballs on Node.js 24 with the newest Medusa (the root install)", () => {
  const store = packagedStore({
    app: () => path.join(work, "newest"),
    tarballs,
    installMedusa: linkRootInstall,
    node: NODE_24,
  });

  it("runs the store's code on Node.js 24", () => {
    expect(store.runtime.node).toMatch(/^v24\./);
    expect(store.runtime.medusa).toBe(installed(root, "@medusajs/medusa").version);
  });

  it("loads the plugin and the client from the tarballs, not from the workspace", () => {
    for (const id of ["@pix-checkout/medusa", "@pix-checkout/client"]) {
      expect(installed(store.app, id).dir.startsWith(store.app)).toBe(true);
    }
  });

  // The app links every third-party package from the root, so a dependency missing from a
  // package.json would go unnoticed at run time; this reads the shipped code instead.
  it.each(PACKAGES)("@pix-checkout/%s declares every package its shipped code imports", (name) => {
    const dir = path.join(store.app, "node_modules", "@pix-checkout", name);
    const manifest = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8"));
    const declared = new Set([
      manifest.name,
      ...Object.keys(manifest.dependencies ?? {}),
      ...Object.keys(manifest.peerDependencies ?? {}),
    ]);
    const undeclared = new Set<string>();
    for (const file of readdirSync(dir, { recursive: true, encoding: "utf8" })) {
      // The package's own code; what npm nested beside it (node_modules/) declares its own.
      if (!/\.(c|m)?js$/.test(file) || file.startsWith("node_modules")) continue;
      const code = readFileSync(path.join(dir, file), "utf8");
      // TypeScript's import scanner: import/export from, import() and require(), not strings.
      const specifiers = ts
        .preProcessFile(code, true, true)
        .importedFiles.map((ref) => ref.fileName)
        .filter((specifier) => !specifier.startsWith("."));
      for (const specifier of specifiers) {
        if (specifier.startsWith("node:") || isBuiltin(specifier)) continue;
        const parts = specifier.split("/");
        const pkg = specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
        if (!declared.has(pkg)) undeclared.add(`${pkg} (${file})`);
      }
    }
    expect([...undeclared]).toEqual([]);
  });

  it("takes a Pix checkout from payment session to captured", () => store.checkoutToCaptured());

  it("stops at start on a wrong plugin option, naming the field", () =>
    wrongPluginOptionStopsTheStart(store));
});

// The oldest supported Medusa is the DTC starter's pin, so this store is the starter's backend
// as the DTC starter guide sets it up: its medusa-config.ts and the .env values it suggests.
describe(`the packed tarballs on Node.js 24 with the next Medusa minor's newest build (${NEXT_MEDUSA})`, () => {
  const store = storeOnOwnInstall("next-medusa", "next-node-24", { node: NODE_24, admin: false });

  it(`runs Medusa ${NEXT_MEDUSA} on Node.js 24, the plugin from its tarball`, () => {
    expect(store.runtime).toMatchObject({
      node: expect.stringMatching(/^v24\./),
      medusa: NEXT_MEDUSA,
    });
    expect(installed(store.app, "@pix-checkout/medusa").dir.startsWith(store.app)).toBe(true);
  });

  it("takes a Pix checkout from payment session to captured", () => store.checkoutToCaptured());
});

describe(`the legacy line: the packed tarballs on Node.js 22 with the oldest supported Medusa (${OLDEST_MEDUSA}, react-router-dom ${OLDEST_REACT_ROUTER}), configured as the DTC starter guide says`, () => {
  const store = storeOnOwnInstall("oldest-medusa", "oldest", { config: "guide", node: NODE_22 });

  it(`runs Medusa ${OLDEST_MEDUSA} on Node.js 22, the oldest Node.js the plugin supports`, () => {
    expect(store.runtime.node).toMatch(/^v22\./);
  });

  it(`runs Medusa ${OLDEST_MEDUSA} and React Router ${OLDEST_REACT_ROUTER} from the app's own node_modules, the plugin from its tarball`, () => {
    expect(installed(store.app, "@medusajs/medusa").version).toBe(OLDEST_MEDUSA);
    expect(installed(store.app, "@medusajs/framework").version).toBe(OLDEST_MEDUSA);
    expect(installed(store.app, "react-router-dom").version).toBe(OLDEST_REACT_ROUTER);
    for (const id of ["@medusajs/medusa", "@pix-checkout/medusa", "@pix-checkout/client"]) {
      expect(installed(store.app, id).dir.startsWith(store.app)).toBe(true);
    }
  });

  // The tarballs' own dependencies are not installed from the registry here (no version of
  // them exists there yet): the lock carries them. This keeps the lock honest, and the plugin's
  // peer ranges open to the oldest version it is tested on. (npm's semver, declared by the
  // oldest app for this check.)
  it.each(["medusa", "client"])(
    "@pix-checkout/%s: every dependency and peer range is met by the oldest app",
    (name) => {
      const semver = createRequire(path.join(store.app, "package.json"))("semver") as {
        satisfies: (version: string, range: string) => boolean;
      };
      const plugin = path.join(store.app, "node_modules/@pix-checkout", name);
      const manifest = JSON.parse(readFileSync(path.join(plugin, "package.json"), "utf8"));
      const unmet: string[] = [];
      for (const [dep, range] of Object.entries<string>({
        ...manifest.dependencies,
        ...manifest.peerDependencies,
      })) {
        if (dep.startsWith("@pix-checkout/")) continue;
        // Resolved from the package itself, as Node does when the package loads it: npm nests a
        // copy under the package when the app's own copy is older (ipaddr.js 1.x from Express).
        const { version } = installed(plugin, dep);
        if (!semver.satisfies(version, range)) unmet.push(`${dep}@${version} (wants ${range})`);
      }
      expect(unmet).toEqual([]);
    },
  );

  it("takes a Pix checkout from payment session to captured", () => store.checkoutToCaptured());

  it("stops at start on a wrong plugin option, naming the field", () =>
    wrongPluginOptionStopsTheStart(store));

  it(`builds the admin with the plugin's page and order widget, by Medusa ${OLDEST_MEDUSA}'s admin bundler on React Router 6`, () =>
    adminHasThePlugin(store));
});

describe("the packed tarballs on Node.js 22 with the newest Medusa (the root install)", () => {
  const store = packagedStore({
    app: () => path.join(work, "newest-node-22"),
    tarballs,
    installMedusa: linkRootInstall,
    node: NODE_22,
  });

  it("runs the store's code on Node.js 22", () => {
    expect(store.runtime.node).toMatch(/^v22\./);
    expect(store.runtime.medusa).toBe(installed(root, "@medusajs/medusa").version);
  });

  it("takes a Pix checkout from payment session to captured", () => store.checkoutToCaptured());
});

describe(`the packed tarballs on Node.js 22 with the next Medusa minor's newest build (${NEXT_MEDUSA})`, () => {
  const store = storeOnOwnInstall("next-medusa", "next", { node: NODE_22 });

  it(`runs Medusa ${NEXT_MEDUSA} on Node.js 22, the plugin from its tarball`, () => {
    expect(store.runtime).toMatchObject({
      node: expect.stringMatching(/^v22\./),
      medusa: NEXT_MEDUSA,
    });
    for (const id of ["@medusajs/medusa", "@pix-checkout/medusa", "@pix-checkout/client"]) {
      expect(installed(store.app, id).dir.startsWith(store.app)).toBe(true);
    }
  });

  it("takes a Pix checkout from payment session to captured", () => store.checkoutToCaptured());

  it("stops at start on a wrong plugin option, naming the field", () =>
    wrongPluginOptionStopsTheStart(store));

  it(`builds the admin with the plugin's page and order widget, by Medusa ${NEXT_MEDUSA}'s admin bundler`, () =>
    adminHasThePlugin(store));
});
