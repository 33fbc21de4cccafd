// The Custom Elements Manifest (dist/custom-elements.json, named by `customElements` in
// package.json) that editors, Storybook and lit-analyzer read. It comes from the class
// JSDoc (@event, @csspart, @cssproperty) and the `static properties` of the public modules.
export default {
  globs: [
    "src/index.ts",
    "src/pix-checkout.ts",
    "src/pix-checkout.component.ts",
    "src/events.ts",
    "src/session.ts",
  ],
  outdir: "dist",
  litelement: true,
  plugins: [
    {
      name: "pix-checkout-manifest",
      packageLinkPhase({ customElementsManifest }) {
        for (const mod of customElementsManifest.modules) {
          for (const declaration of mod.declarations ?? []) {
            // `#emit(name, …)` dispatches every event through one variable; the JSDoc
            // @event tags are the real list.
            if (declaration.events) {
              declaration.events = declaration.events.filter((e) => e.description);
            }
          }
        }
        // Point at what ships: dist/index.js bundles every module, and each keeps its
        // declarations in dist/*.d.ts (the TypeScript sources are not published).
        const text = JSON.stringify(customElementsManifest).replace(
          /src\/([\w./-]+)\.ts/g,
          "dist/$1.d.ts",
        );
        Object.assign(customElementsManifest, JSON.parse(text));
      },
    },
  ],
};
