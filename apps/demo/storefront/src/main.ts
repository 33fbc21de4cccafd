// Entry point: loads <pix-checkout> and mounts the storefront.
import "./styles.css";
import { mountStorefront } from "./app";
import { elementLoaded } from "./load-element.js";

const root = document.querySelector<HTMLElement>("#app");
if (!root) throw new Error("index.html has no #app element");

void mountStorefront(root, elementLoaded);
