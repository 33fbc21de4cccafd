// The Vendure dashboard the demo serves, with the plugin's screens in it. Vendure's dashboard is
// compiled by its Vite plugin in the shop's project (about 40 s here); the demo builds it once per
// key, everything the build compiles, in a child process, and later starts serve that build.
// It builds it as a shop does: from the plugin's package as npm installs it (stagePlugin).
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { copyFile, mkdir, rename, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { runChild } from "@pix-checkout/demo/child-process";

const require = createRequire(import.meta.url);

/** The build's configuration: the Vite config and the Vendure config it introspects. */
const CONFIG_DIR = fileURLToPath(new URL("../dashboard/", import.meta.url));

/** The plugin's package folder (in this repository, packages/vendure). */
const PLUGIN_DIR = dirname(require.resolve("@pix-checkout/vendure/package.json"));

/** The plugin's screens (packages/vendure/dashboard), as the build compiles them. */
const SCREENS_DIR = join(PLUGIN_DIR, "dashboard");

/**
 * The key of a build: the dashboard's version, the demo's build configuration, the plugin's
 * screens and its package's manifest. The built app asks the server it is served from, so no port or origin is in it.
 * @returns {string}
 */
export function dashboardBuildKey() {
  const hash = createHash("sha256");
  const dashboardVite = require.resolve("@vendure/dashboard/vite");
  const version = JSON.parse(
    readFileSync(join(dirname(dashboardVite), "..", "..", "package.json"), "utf8"),
  ).version;
  hash.update(`@vendure/dashboard ${version}\n`);
  // The package's manifest too: what it publishes is what the build stages (stagePlugin).
  const manifest = join(PLUGIN_DIR, "package.json");
  for (const file of [...filesUnder(CONFIG_DIR), ...filesUnder(SCREENS_DIR), manifest]) {
    hash.update(`${file}\n`);
    hash.update(readFileSync(file));
  }
  return hash.digest("hex").slice(0, 16);
}

/**
 * The dashboard of this key, built if it is not yet: `dir` is where it is (or will be) served
 * from, `ready` settles when it is there. A build is made in a folder of its own and moved into
 * place whole, so a server never serves half of one and two demos building at once both end well.
 * @param {{ buildsDir: string, logDir: string, track?: (child: import("@pix-checkout/demo/child-process").Child) => void }} where
 *   `track` is given the build's process, for the demo to stop it if it stops first.
 * @returns {{ dir: string, built: boolean, ready: Promise<void> }}
 */
export function ensureDashboard({ buildsDir, logDir, track }) {
  const dir = join(buildsDir, dashboardBuildKey());
  if (existsSync(join(dir, "index.html"))) return { dir, built: true, ready: Promise.resolve() };
  const partial = `${dir}.${process.pid}.partial`;
  const ready = (async () => {
    const nodeModules = join(`${partial}.scratch`, "node_modules");
    await stagePlugin(nodeModules);
    await runChild(
      {
        name: "dashboard build",
        command: process.execPath,
        args: [join(dirname(require.resolve("vite/package.json")), "bin", "vite.js"), "build"],
        cwd: CONFIG_DIR,
        env: {
          ...process.env,
          PIX_CHECKOUT_DASHBOARD_OUT: partial,
          PIX_CHECKOUT_DASHBOARD_NODE_MODULES: nodeModules,
          NODE_ENV: "production",
        },
        logFile: join(logDir, "dashboard-build.log"),
      },
      track,
    );
    await rm(`${partial}.scratch`, { recursive: true, force: true });
    if (existsSync(join(dir, "index.html"))) await rm(partial, { recursive: true, force: true });
    else await rename(partial, dir);
  })();
  return { dir, built: false, ready };
}

/**
 * The plugin as a shop's `npm install` puts it: the files its package publishes (npm's own list,
 * `npm pack --dry-run`), copied into a `node_modules` of the build's own. The build's Vendure
 * config imports the plugin by its name, and the dashboard's scanner finds it there as in a
 * shop's project: its compiled `dist/plugin.js`, whose `dashboard` entry points into the
 * package's `dashboard/` folder. (In this repository the name is also a workspace link, which the
 * scanner would follow as local source, only to a folder's `index.ts`.) A file the package
 * forgets to publish fails this build, as it would fail a shop's.
 * @param {string} nodeModules
 */
async function stagePlugin(nodeModules) {
  const npm = process.env.npm_execpath;
  const args = ["pack", "--dry-run", "--json", "--ignore-scripts"];
  const listed = npm?.endsWith("js")
    ? execFileSync(process.execPath, [npm, ...args], { cwd: PLUGIN_DIR, encoding: "utf8" })
    : execFileSync("npm", args, { cwd: PLUGIN_DIR, encoding: "utf8" });
  const [{ files }] = JSON.parse(listed);
  const into = join(nodeModules, "@pix-checkout", "vendure");
  await rm(into, { recursive: true, force: true });
  for (const { path } of files) {
    await mkdir(dirname(join(into, path)), { recursive: true });
    await copyFile(join(PLUGIN_DIR, path), join(into, path));
  }
}

/** @param {string} dir @returns {string[]} */
function filesUnder(dir) {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? filesUnder(path) : [path];
    });
}
