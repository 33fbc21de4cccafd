import { describe, expect, it } from "vitest";
import { hashOf, routeOf, type Route } from "./route";

describe("the storefront's addresses", () => {
  it("reads back every step it writes, with the code's session and the order", () => {
    const routes: Route[] = [
      { step: "products" },
      { step: "cart" },
      { step: "address" },
      { step: "payment" },
      { step: "checkout", sessionId: "payses_01JX3Q8Z2K4T0M9V6R7W5Y1N2B" },
      { step: "confirmation", orderId: "order_01JX3Q8Z2K4T0M9V6R7W5Y1N2B" },
    ];
    for (const route of routes) expect(routeOf(hashOf(route))).toEqual(route);
    expect(hashOf({ step: "address" })).toBe("#/entrega");
  });

  it("takes anything else for the catalog, or the payment step without a code", () => {
    for (const hash of ["", "#", "#/nada", "#/carrinho/x", "#/pedido/x<script>", "#/a/b/c"]) {
      expect(routeOf(hash)).toEqual({ step: "products" });
    }
    expect(routeOf("#/pagamento/cart_01")).toEqual({ step: "payment" });
  });
});
