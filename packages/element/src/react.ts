/**
 * `@pix-checkout/element/react`: `<PixCheckout>` for React and Next.js storefronts.
 * Importing it registers `<pix-checkout>`, which needs a DOM: in Next.js load it with
 * `next/dynamic` and `ssr: false` (see the README).
 * @packageDocumentation
 */
import { createComponent, type EventName } from "@lit/react";
import * as React from "react";
import type { PixCheckoutEventMap } from "./events.js";
import { PixCheckout as PixCheckoutElement } from "./pix-checkout.js";

type Handler<K extends keyof PixCheckoutEventMap> = EventName<PixCheckoutEventMap[K]>;

/** The React component: props are the element's properties plus typed `onPix*` handlers. */
export const PixCheckout = createComponent({
  react: React,
  tagName: "pix-checkout",
  elementClass: PixCheckoutElement,
  events: {
    onPixPaid: "pix-paid" as Handler<"pix-paid">,
    onPixRefundDue: "pix-refund-due" as Handler<"pix-refund-due">,
    onPixExpired: "pix-expired" as Handler<"pix-expired">,
    onPixRenewed: "pix-renewed" as Handler<"pix-renewed">,
    onPixStatusChange: "pix-status-change" as Handler<"pix-status-change">,
    onPixCopy: "pix-copy" as Handler<"pix-copy">,
    onPixError: "pix-error" as Handler<"pix-error">,
  },
  displayName: "PixCheckout",
});
