import { PixCheckout } from "./pix-checkout.component.js";

export { PixCheckout } from "./pix-checkout.component.js";

// Defining twice throws; a page that loads two copies keeps the first. On a server
// (Node, Next's server layers) there is no registry: the server build still imports
// cleanly and the browser build registers the tag when the page hydrates.
if (typeof customElements !== "undefined" && !customElements.get("pix-checkout")) {
  customElements.define("pix-checkout", PixCheckout);
}

declare global {
  interface HTMLElementTagNameMap {
    "pix-checkout": PixCheckout;
  }
}
