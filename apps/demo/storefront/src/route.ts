import type { Step } from "./state";

/*
 * Each step has its own address (a hash, so the static server needs no rewrites), so the
 * browser's back button walks the steps and a reload lands where the shopper was. The code
 * step carries its payment session: a phone that drops the tab while the shopper is in the
 * bank app comes back to the same code, never to a new one.
 */

/** Where the page is: a step, and the session or order that step shows. */
export interface Route {
  step: Step;
  /** The payment session `<pix-checkout>` shows (the code step). */
  sessionId?: string;
  /** The paid order (the confirmation). */
  orderId?: string;
}

const paths: Record<Exclude<Step, "checkout" | "confirmation">, string> = {
  products: "",
  cart: "carrinho",
  address: "entrega",
  payment: "pagamento",
};

// Medusa ids: a prefix and a ULID. Anything else in the address is not ours to act on.
const SESSION = /^payses_[A-Za-z0-9]{1,64}$/;
const ORDER = /^order_[A-Za-z0-9]{1,64}$/;

/** The route a location hash names; an unknown hash is the catalog. */
export function routeOf(hash: string): Route {
  const [first = "", second, ...rest] = hash.replace(/^#\/?/, "").split("/");
  if (rest.length > 0) return { step: "products" };
  if (first === "pagamento" && second !== undefined) {
    return SESSION.test(second) ? { step: "checkout", sessionId: second } : { step: "payment" };
  }
  if (first === "pedido" && second !== undefined && ORDER.test(second)) {
    return { step: "confirmation", orderId: second };
  }
  if (second !== undefined) return { step: "products" };
  const step = (Object.keys(paths) as (keyof typeof paths)[]).find((key) => paths[key] === first);
  return { step: step ?? "products" };
}

/** The hash of a route: `#/entrega`, `#/pagamento/payses_…`, `#/pedido/order_…`. */
export function hashOf(route: Route): string {
  if (route.step === "checkout") return `#/pagamento/${route.sessionId ?? ""}`;
  if (route.step === "confirmation") return `#/pedido/${route.orderId ?? ""}`;
  return `#/${paths[route.step]}`;
}
