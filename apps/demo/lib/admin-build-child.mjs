// Builds the demo's admin as `medusa build` does (its compiler's admin step: the app's config,
// its plugins' admin extensions, Medusa's admin bundler), but into the folder given as the
// first argument, which lib/admin-build.mjs renames into place once the build is whole.
// medusa-config.ts is loaded the way Medusa's own CLI loads it: through ts-node's hook.
import { createRequire } from "node:module";

const load = createRequire(import.meta.url);
load("ts-node").register({ transpileOnly: true });
load("tsconfig-paths").register({});
const { getConfigFile, getResolvedPlugins } = load("@medusajs/framework/utils");
const { build } = load("@medusajs/admin-bundler");

const outDir = process.argv[2];
if (!outDir) throw new Error("usage: admin-build-child.mjs <output folder>");
const root = process.cwd();
const { configModule, error } = await getConfigFile(root, "medusa-config");
if (error) throw error;
const plugins = await getResolvedPlugins(root, configModule, true);
/** @param {"local" | "package"} type */
const adminOf = (type) =>
  plugins
    .filter((/** @type {any} */ plugin) => plugin.admin?.type === type)
    .map((/** @type {any} */ plugin) => plugin.admin.resolve);
await build({
  disable: false,
  sources: adminOf("local"),
  plugins: adminOf("package"),
  ...configModule.admin,
  outDir,
});
// Vite may leave handles open (its workers); the build is done.
process.exit(0);
