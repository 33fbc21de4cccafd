// Loads <pix-checkout> (it registers itself on import). Kept apart, in plain JS, so that the
// shop keeps working and says what to build when the element package has no build yet,
// and so that type-checking the storefront does not depend on the element's build.
export const elementLoaded = import("@pix-checkout/element").then(
  () => true,
  () => false,
);
