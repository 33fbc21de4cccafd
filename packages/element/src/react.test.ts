import { createElement } from "react";
import { createRoot, type Root } from "react-dom/client";
import { expect } from "@esm-bundle/chai";
import {
  backendUrl,
  eventually,
  newId,
  patchSession,
  pixSession,
  PUBLISHABLE_KEY,
  putSession,
} from "../test-support/control.js";
import type { PixPaidDetail } from "./events.js";
import { PixCheckout } from "./react.js";

let root: Root | undefined;
afterEach(() => root?.unmount());

it("renders <pix-checkout> from React and calls onPixPaid with the typed detail", async () => {
  const id = newId("react");
  await putSession(pixSession(id));
  const container = document.createElement("div");
  document.body.append(container);
  const paid = new Promise<PixPaidDetail>((resolve) => {
    root = createRoot(container);
    root.render(
      createElement(PixCheckout, {
        backendUrl,
        publishableKey: PUBLISHABLE_KEY,
        sessionId: id,
        onPixPaid: (event) => resolve(event.detail),
      }),
    );
  });
  await eventually(() => expect(container.querySelector("pix-checkout")?.view).to.equal("pending"));
  await patchSession(id, { status: "paid" });
  expect((await paid).session.session_id).to.equal(id);
});
