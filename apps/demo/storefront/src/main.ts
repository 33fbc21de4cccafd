// Entry point: loads <pix-checkout> and mounts the storefront, or the "come back and pay" page
// when the shopper arrives from the message with their code.
import "./styles.css";
import { mountStorefront } from "./app";
import { elementLoaded } from "./load-element.js";
import { payLinkSession } from "./pay-link";
import { mountPayLink } from "./views/pay-link";

const root = document.querySelector<HTMLElement>("#app");
if (!root) throw new Error("index.html has no #app element");

const sessionId = payLinkSession(location.pathname);
if (sessionId) {
  mountPayLink(root, sessionId, elementLoaded);
} else {
  void mountStorefront(root, elementLoaded);
}
