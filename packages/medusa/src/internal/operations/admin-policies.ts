// Who may do what on the plugin's admin routes, under Medusa's role-based access control (the
// `rbac` feature flag, MEDUSA_FF_RBAC=true; off by default, and then nothing here is checked).
//
// One table, read by three doors: `api/middlewares.ts` declares each route's `policies` from
// it (Medusa answers 403 before the handler runs), `policies/pix-checkout.ts` registers the
// plugin's own operations with `definePolicies` (so a role can be given them), and the admin
// views hide what the user may not use. This file imports nothing, so the admin's browser
// bundle can take its values without any server code.

/** A permission as Medusa's RBAC checks it: `resource:operation`. */
export interface PolicyAction {
  resource: string;
  operation: string;
}

/** The plugin's own RBAC resource. */
export const PIX_CHECKOUT_RESOURCE = "pix_checkout";

/**
 * The plugin's own operations, one per thing that moves money or hands the books out, each as
 * `definePolicies` takes it. `name` is the key of Medusa's policy registry (unique across the
 * store, hence the prefix); `description` is what Medusa's role editor shows the merchant.
 */
export const PIX_CHECKOUT_POLICIES = [
  {
    name: "PixCheckoutRecordRefund",
    resource: PIX_CHECKOUT_RESOURCE,
    operation: "refund",
    description: "Record money returned to a shopper for a Pix or boleto charge",
  },
  {
    name: "PixCheckoutRecordMed",
    resource: PIX_CHECKOUT_RESOURCE,
    operation: "med",
    description:
      "Record a MED (Pix returned for fraud) on a Pix charge: the blocked amount and its outcome",
  },
  {
    name: "PixCheckoutAcceptAmount",
    resource: PIX_CHECKOUT_RESOURCE,
    operation: "accept",
    description: "Accept the smaller amount an underpaid Pix or boleto charge brought",
  },
  {
    name: "PixCheckoutResolveNote",
    resource: PIX_CHECKOUT_RESOURCE,
    operation: "resolve",
    description: "Resolve a Pix or boleto charge's note in Needs attention",
  },
  {
    name: "PixCheckoutExportBooks",
    resource: PIX_CHECKOUT_RESOURCE,
    operation: "export",
    description: "Read and export the Pix and boleto reconciliation (JSON, CSV, OFX)",
  },
  {
    name: "PixCheckoutRecheckCharge",
    resource: PIX_CHECKOUT_RESOURCE,
    operation: "recheck",
    description: "Re-check a Pix or boleto charge with the payment service (may capture it)",
  },
] as const;

const own = (operation: (typeof PIX_CHECKOUT_POLICIES)[number]["operation"]): PolicyAction => ({
  resource: PIX_CHECKOUT_RESOURCE,
  operation,
});

/**
 * Reading anything of the plugin is reading payments, the same permission Medusa's own payment
 * routes ask (`payment:read`), so a role that sees payments in Medusa sees them here, and every
 * plugin route asks it first.
 */
const READ_PAYMENTS: PolicyAction = { resource: "payment", operation: "read" };

/**
 * What each admin action needs, all of it (Medusa checks every policy a route declares). The
 * Pix discount is a Medusa promotion the plugin keeps, so it asks what Medusa's promotion routes
 * ask; saving may create it on the first call, hence create and update.
 */
export const ADMIN_ACTIONS = {
  read: [READ_PAYMENTS],
  refund: [READ_PAYMENTS, own("refund")],
  med: [READ_PAYMENTS, own("med")],
  accept: [READ_PAYMENTS, own("accept")],
  resolve: [READ_PAYMENTS, own("resolve")],
  export: [READ_PAYMENTS, own("export")],
  recheck: [READ_PAYMENTS, own("recheck")],
  /**
   * "Cobrar por Pix" makes a payment collection for an order, what Medusa's own
   * `POST /admin/payment-collections` asks.
   */
  chargeOrder: [READ_PAYMENTS, { resource: "payment_collection", operation: "create" }],
  readDiscount: [READ_PAYMENTS, { resource: "promotion", operation: "read" }],
  saveDiscount: [
    READ_PAYMENTS,
    { resource: "promotion", operation: "create" },
    { resource: "promotion", operation: "update" },
  ],
} as const satisfies Record<string, readonly PolicyAction[]>;

/** An admin action of the plugin (a key of {@link ADMIN_ACTIONS}). */
export type AdminAction = keyof typeof ADMIN_ACTIONS;

/** One admin route and method, and the action it performs. */
export interface AdminRoutePolicy {
  method: "GET" | "POST";
  /** Medusa's matcher for the route file under `src/api` (`[charge_id]` becomes `:charge_id`). */
  matcher: string;
  action: AdminAction;
}

const base = "/admin/pix-checkout";

/**
 * Every admin route of the plugin with its action. A test keeps this in step with the route
 * files under `src/api/admin` (each exported method listed once, nothing listed that is not a
 * route), so a new route cannot ship without a policy.
 */
export const ADMIN_ROUTE_POLICIES: readonly AdminRoutePolicy[] = [
  { method: "GET", matcher: `${base}/overview`, action: "read" },
  { method: "GET", matcher: `${base}/balance`, action: "read" },
  { method: "GET", matcher: `${base}/transactions`, action: "read" },
  { method: "GET", matcher: `${base}/charges`, action: "read" },
  { method: "GET", matcher: `${base}/deliveries`, action: "read" },
  { method: "GET", matcher: `${base}/health`, action: "read" },
  { method: "GET", matcher: `${base}/orders/:order_id`, action: "read" },
  { method: "POST", matcher: `${base}/orders/:order_id/payment-collection`, action: "chargeOrder" },
  { method: "GET", matcher: `${base}/reconciliation`, action: "export" },
  { method: "GET", matcher: `${base}/reconciliation.csv`, action: "export" },
  { method: "GET", matcher: `${base}/reconciliation.ofx`, action: "export" },
  { method: "POST", matcher: `${base}/charges/:charge_id/refunds`, action: "refund" },
  { method: "POST", matcher: `${base}/charges/:charge_id/med`, action: "med" },
  { method: "POST", matcher: `${base}/charges/:charge_id/med/outcome`, action: "med" },
  { method: "POST", matcher: `${base}/charges/:charge_id/accept`, action: "accept" },
  { method: "POST", matcher: `${base}/charges/:charge_id/resolve`, action: "resolve" },
  { method: "POST", matcher: `${base}/charges/:charge_id/refresh`, action: "recheck" },
  { method: "GET", matcher: `${base}/pix-discount`, action: "readDiscount" },
  { method: "GET", matcher: `${base}/pix-discount/cost`, action: "readDiscount" },
  { method: "POST", matcher: `${base}/pix-discount`, action: "saveDiscount" },
];

/** `resource:operation`, as Medusa's `GET /admin/rbac/me/permissions` lists a user's grants. */
export const permissionOf = (policy: PolicyAction): string =>
  `${policy.resource}:${policy.operation}`;
