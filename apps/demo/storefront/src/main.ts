// Entry point: loads <pix-checkout> and mounts the storefront, or the "come back and pay" page
// when the shopper arrives from the message with their code.
import "./styles.css";
import { mountStorefront } from "./app";
import { elementLoaded } from "./load-element.js";
import { payLinkSession } from "./pay-link";
import { mountPayLink } from "./views/pay-link";
import config from "virtual:pix-demo-config";
import { paymentCollectionPage } from "./payment-collection";

const root = document.querySelector<HTMLElement>("#app");
if (!root) throw new Error("index.html has no #app element");

const sessionId = payLinkSession(location.pathname);
// Medusa's "Copy payment link", when the store's admin.storefrontUrl is this storefront.
const collectionPage = paymentCollectionPage(location.pathname, location.search, config.backendUrl);
if (collectionPage) {
  location.replace(collectionPage);
} else if (sessionId) {
  mountPayLink(root, sessionId, elementLoaded);
} else {
  void mountStorefront(root, elementLoaded);
}
