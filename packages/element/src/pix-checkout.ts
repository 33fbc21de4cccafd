import { PixCheckout } from "./pix-checkout.component.js";

export { PixCheckout } from "./pix-checkout.component.js";

// Defining twice throws; a page that loads two copies keeps the first.
if (!customElements.get("pix-checkout")) customElements.define("pix-checkout", PixCheckout);

declare global {
  interface HTMLElementTagNameMap {
    "pix-checkout": PixCheckout;
  }
}
