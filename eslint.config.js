// One lint config for the whole monorepo. Type-aware rules are left out on purpose:
// `tsc --noEmit` in each package already type-checks, and untyped linting stays fast.
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import globals from "globals";

export default tseslint.config(
  {
    ignores: [
      "**/node_modules/**",
      "**/dist/**",
      "**/.medusa/**",
      "**/coverage/**",
      // The demos' own folders: databases, logs, the built Vendure dashboard.
      "apps/*/.data/**",
      // npm run mutation: Stryker's sandboxes (copies of the sources) and its report.
      "**/.stryker-tmp/**",
      "packages/medusa/reports/**",
      "packages/element/reports/**",
      "apps/next-storefront/.next/**",
      "apps/next-storefront/next-env.d.ts",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { ...globals.node },
    },
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" },
      ],
      // Libraries log through an injected logger, never the console.
      "no-console": "error",
    },
  },
  {
    // The plugin's dashboard screens run in the merchant's browser, compiled by Vendure's build.
    files: ["packages/vendure/dashboard/**"],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // The element runs in shoppers' browsers (its test support and build scripts stay node).
    files: ["packages/element/**"],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // The Vendure demo's storefront page runs in the shopper's browser as it is.
    files: ["apps/vendure-demo/storefront/**"],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // Command-line entry points, scripts and benches talk to a human on stdout.
    files: ["scripts/**", "test/**", "**/bin/**", "**/cli.ts", "**/*.bench.ts", "**/bench/**"],
    rules: { "no-console": "off" },
  },
);
