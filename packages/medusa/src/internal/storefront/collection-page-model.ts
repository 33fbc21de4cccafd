import type { NotPayable } from "../checkout/order-collection";
import type { CollectionPurpose } from "../medusa/order-collections";

/*
 * What the payment page (collection-page.ts decides it, collection-page-html.ts draws it) shows:
 * its model, in a file of its own so that the two read it and neither reads the other's back.
 */

/** The order, as the page names it: never its e-mail, name or address (anyone with the link sees the page). */
export interface PageOrder {
  id: string;
  displayId: number | null;
}

/** A method the page offers: the provider the button asks Medusa's route for. */
export interface OfferedMethod {
  providerId: string;
}

/** What the page shows, decided from the store's own records, never from the URL beyond the ids. */
export type CollectionPage =
  | { kind: "unknown" }
  | {
      kind: "closed";
      /** Null for a collection nothing owns any more (the merchant deleted it). */
      order: PageOrder | null;
      store: string | null;
      refusal: NotPayable;
    }
  | { kind: "paid"; order: PageOrder; store: string | null; byCode: boolean }
  | {
      kind: "not_offered";
      order: PageOrder;
      store: string | null;
      /** `no_key`: no publishable key serves the order's sales channel; `no_pix`: its region offers no Pix of this plugin; `no_element`: the element's files are not installed; `currency`: not in reais. */
      why: "no_key" | "no_pix" | "no_element" | "currency";
    }
  | {
      kind: "open";
      order: PageOrder;
      store: string | null;
      purpose: CollectionPurpose;
      collectionId: string;
      amountCents: number;
      publishableKey: string;
      pix: OfferedMethod;
      /** Offered where the region has it and the order has an address to print on it. */
      boleto: (OfferedMethod & { askPhone: boolean }) | null;
      /** The collection's live session of this plugin for its current amount, shown at once. */
      session: { id: string; method: "pix" | "boleto" } | null;
      /** The element's entry file, versioned (element-assets.ts). */
      elementEntry: string;
    };
