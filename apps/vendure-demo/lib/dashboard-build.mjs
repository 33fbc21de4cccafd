// The Vendure dashboard the demo serves, with the plugin's screens in it. Vendure's dashboard is
// compiled by its Vite plugin in the shop's project (about 40 s here); the demo builds it once per
// key, everything the build compiles, in a child process, and later starts serve that build.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { rename, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { runChild } from "@pix-checkout/demo/child-process";

const require = createRequire(import.meta.url);

/** The build's configuration: the Vite config and the Vendure config it introspects. */
const CONFIG_DIR = fileURLToPath(new URL("../dashboard/", import.meta.url));

/** The plugin's screens (packages/vendure/dashboard), as the build compiles them. */
const SCREENS_DIR = join(dirname(require.resolve("@pix-checkout/vendure")), "..", "dashboard");

/**
 * The key of a build: the dashboard's version, the demo's build configuration and the plugin's
 * screens. The built app asks the server it is served from, so no port or origin is in it.
 * @returns {string}
 */
export function dashboardBuildKey() {
  const hash = createHash("sha256");
  const dashboardVite = require.resolve("@vendure/dashboard/vite");
  const version = JSON.parse(
    readFileSync(join(dirname(dashboardVite), "..", "..", "package.json"), "utf8"),
  ).version;
  hash.update(`@vendure/dashboard ${version}\n`);
  for (const file of [...filesUnder(CONFIG_DIR), ...filesUnder(SCREENS_DIR)]) {
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
    await runChild(
      {
        name: "dashboard build",
        command: process.execPath,
        args: [join(dirname(require.resolve("vite/package.json")), "bin", "vite.js"), "build"],
        cwd: CONFIG_DIR,
        env: { ...process.env, PIX_CHECKOUT_DASHBOARD_OUT: partial, NODE_ENV: "production" },
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

/** @param {string} dir @returns {string[]} */
function filesUnder(dir) {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? filesUnder(path) : [path];
    });
}
