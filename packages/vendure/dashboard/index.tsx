/**
 * Pix Checkout in Vendure's dashboard: on each order, what each of its codes received and
 * became; and a page of what needs the merchant (money held, refunds to make), in Portuguese.
 * Everything shown comes from the plugin's Admin API, decided on the server: this file only
 * lays it out. Vendure's dashboard compiles it (the plugin's `dashboard` entry).
 */
import { defineDashboardExtension } from "@vendure/dashboard";
import { OrderCodesBlock } from "./order-codes-block";
import { PendingPage } from "./pending-page";

defineDashboardExtension({
  pageBlocks: [
    {
      id: "pix-checkout-order-codes",
      title: "Pix e boleto",
      location: {
        pageId: "order-detail",
        column: "main",
        position: { blockId: "payment-details", order: "after" },
      },
      component: OrderCodesBlock,
      requiresPermission: "ReadOrder",
    },
  ],
  routes: [
    {
      path: "/pix-checkout",
      loader: () => ({ breadcrumb: "Pix e boleto" }),
      navMenuItem: { sectionId: "sales", id: "pix-checkout", title: "Pix e boleto" },
      component: () => <PendingPage />,
    },
  ],
});
