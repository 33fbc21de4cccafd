// Vendure's dashboard with the plugin's screens, built by `lib/dashboard-build.mjs` into the folder
// it names (PIX_CHECKOUT_DASHBOARD_OUT) and served by the demo at /dashboard/.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { vendureDashboardPlugin } from "@vendure/dashboard/vite";
import { defineConfig } from "vite";

const here = dirname(fileURLToPath(import.meta.url));
const dashboard = join(fileURLToPath(import.meta.resolve("@vendure/dashboard/vite")), "../../..");
const out = process.env.PIX_CHECKOUT_DASHBOARD_OUT ?? join(here, "..", ".data", "dashboard-dev");
// The build's own working files (the introspected schema, the compiled config), beside its output.
const scratch = `${out}.scratch`;
// The dashboard runs on its own React; the plugin's screens must use that one, not the React the
// Medusa side of this repository hoists.
const own = (name: string) => join(dashboard, "node_modules", name);

export default defineConfig({
  base: "/dashboard/",
  build: {
    outDir: out,
    emptyOutDir: true,
  },
  // An object, not a list: the dashboard's plugin merges these into its own aliases by key.
  resolve: { alias: { react: own("react"), "react-dom": own("react-dom") } },
  plugins: [
    vendureDashboardPlugin({
      vendureConfigPath: join(here, "vendure-config.ts"),
      // The app asks the server it is served from.
      api: { host: "auto", port: "auto" },
      i18n: { defaultLanguage: "pt_BR" as never, defaultLocale: "pt-BR" },
      gqlOutputPath: join(scratch, "gql"),
      tempCompilationDir: join(scratch, "config"),
      // Where the plugin's package is staged as a shop installs it (lib/dashboard-build.mjs).
      ...(process.env.PIX_CHECKOUT_DASHBOARD_NODE_MODULES
        ? {
            pluginPackageScanner: {
              nodeModulesRoot: process.env.PIX_CHECKOUT_DASHBOARD_NODE_MODULES,
            },
          }
        : {}),
    }),
  ],
});
