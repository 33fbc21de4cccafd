// Entry point: registers <pix-checkout> and mounts the storefront.
import "./styles.css";
import { mountStorefront } from "./app";

const root = document.querySelector<HTMLElement>("#app");
if (!root) throw new Error("index.html has no #app element");

// The element registers itself on import. Loaded apart so that a missing build leaves the
// rest of the shop working; the checkout step then says what to build.
import("@pix-checkout/element").catch(() => {});

void mountStorefront(root);
