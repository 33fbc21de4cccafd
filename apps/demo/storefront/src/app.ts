// The storefront's controller: holds the state, runs the actions against the store API and
// re-renders. products → cart → address and shipping → Pix or boleto → <pix-checkout> →
// confirmation. Each step has its own address (route.ts): the back button walks the steps, and
// a reload comes back to the same step, the same form and the same code.
import { html, nothing, render } from "lit";
import config from "virtual:pix-demo-config";
import {
  billingFields,
  shippingFields,
  validatePayer,
  emptyPayer,
  formatDocument,
  formatPhoneNumber,
  formatPostalCode,
  type PayerField,
} from "./payer-fields";
import {
  cartHoldsDelivery,
  deliveryComplete,
  payerFromCart,
  rememberedPayer,
  rememberPayer,
} from "./cart-address";
import { hashOf, routeOf, type Route } from "./route";
import { initialState, type Actions, type PayerForm, type State } from "./state";
import { logForDevelopers } from "./developer-log";
import { sandboxPageOf } from "./sandbox-link";
import * as api from "./store-api";
import { addressView } from "./views/address";
import { cartView } from "./views/cart";
import { checkoutView, orderCodeView } from "./views/checkout";
import { confirmationView } from "./views/confirmation";
import { paymentView } from "./views/payment";
import { productsView } from "./views/products";

/**
 * Mounts the storefront into `root` and loads the catalog. `elementLoaded` tells whether
 * `<pix-checkout>` could be loaded; without it the checkout step says what to build.
 */
export async function mountStorefront(
  root: HTMLElement,
  elementLoaded: Promise<boolean>,
): Promise<void> {
  // A shopper who bought here before finds the form filled (never the CPF).
  let state: State = { ...initialState(), payer: rememberedPayer(emptyPayer()) };
  void elementLoaded.then((loaded) => update({ elementMissing: !loaded }));

  const update = (patch: Partial<State>) => {
    state = { ...state, ...patch };
    draw();
  };

  /** Runs one store call, showing "busy" and turning a failure into a message. */
  const attempt = async (work: () => Promise<void>) => {
    update({ busy: true, error: null });
    try {
      await work();
    } catch (error) {
      update({ error: api.errorMessage(error) });
    } finally {
      update({ busy: false });
    }
  };

  const touchAll = (fields: PayerField[]) => new Set([...state.touched, ...fields]);

  /**
   * After a refused submit, the first field to fix takes focus: the page scrolls to it (the
   * banner alone may be far above a phone's viewport), and a screen reader reads its label
   * and error (aria-describedby).
   */
  const refuse = (
    fields: PayerField[],
    errors: Partial<Record<PayerField, string>>,
    message: string,
    form: PayerForm = "payer",
  ) => {
    if (form === "payer") update({ touched: touchAll(fields), error: message });
    else update({ billingTouched: new Set([...state.billingTouched, ...fields]), error: message });
    const first = fields.find((field) => errors[field]);
    const control = first ? root.querySelector<HTMLElement>(`#${form}-${first}`) : null;
    control?.focus();
    control?.scrollIntoView({ block: "center" });
  };

  /** Shows the address form filled from the cart, with its shipping options when it has an address. */
  const enterAddress = async (cart: NonNullable<State["cart"]>) => {
    const payer = payerFromCart(cart, state.payer);
    const shippingOptions = cart.shipping_address ? await api.shippingOptions(cart.id) : [];
    update({ payer, shippingOptions, step: "address" });
  };

  /**
   * Saves the form on the cart (e-mail, shipping and billing address) when it is valid, and
   * answers whether it was: an invalid form is refused, its first wrong field focused, and the
   * cart keeps what it had. Every way onwards from the delivery step goes through here, so no
   * tap order reaches the payment with a cart that has no e-mail or address.
   */
  const saveDelivery = async (refusal: string): Promise<boolean> => {
    const errors = validatePayer(state.payer, shippingFields);
    if (Object.keys(errors).length > 0) {
      refuse(shippingFields, errors, refusal);
      return false;
    }
    if (!state.cart) return false;
    rememberPayer(state.payer);
    // "Calcular frete" saved this form already: a tap on an option goes straight to the option.
    if (cartHoldsDelivery(state.cart, state.payer)) return true;
    const cart = await api.saveAddress(state.cart.id, state.payer);
    update({ cart });
    return true;
  };

  /**
   * The methods the region offers, asked once per region: they change only with the store's
   * configuration, and the tap on a shipping option should not wait for them. A failed answer
   * is asked again next time.
   */
  let offered: { regionId: string; methods: Promise<api.Method[]> } | null = null;
  const offeredMethods = (regionId: string): Promise<api.Method[]> => {
    if (offered?.regionId !== regionId) {
      const methods = api.availableMethods(regionId);
      offered = { regionId, methods };
      methods.catch(() => {
        if (offered?.methods === methods) offered = null;
      });
    }
    return offered.methods;
  };

  /**
   * Shows the payment step with the method the cart already has (else the first offered).
   * `chosenAhead`: the cart's method as read beside the shipping option's update (the tap); a
   * cart that had one is read again, since its Pix discount counts the new shipping.
   */
  const enterPayment = async (
    cart: NonNullable<State["cart"]>,
    chosenAhead?: Awaited<ReturnType<typeof api.chosenMethod>>,
  ) => {
    if (!state.region) return;
    const [methods, chosen] = await Promise.all([
      offeredMethods(state.region.id),
      chosenAhead && !chosenAhead.method ? chosenAhead : api.chosenMethod(cart.id),
    ]);
    const method = chosen.method && methods.includes(chosen.method) ? chosen.method : methods[0];
    // The first method is preselected, and the cart's totals are shown for it at once; a
    // method the cart already has is left alone, so coming back changes no amount.
    const recorded =
      method && method !== chosen.method ? await api.choosePaymentMethod(cart.id, method) : null;
    update({
      cart: recorded?.cart ?? cart,
      pixDiscount: recorded?.pixDiscount ?? chosen.pixDiscount,
      buyerDocument: recorded?.buyerDocument ?? chosen.buyerDocument,
      // "Mesmo endereço da entrega" is checked when the cart has a delivery address.
      sameAddress: !!(recorded?.cart ?? cart).shipping_address?.address_1,
      billing: { ...state.payer },
      billingTouched: new Set(),
      methods,
      method: method ?? null,
      step: "payment",
    });
  };

  /**
   * Shows `route`, loading what its step needs from the store. A step the cart is not ready
   * for shows the one it is ready for. `how` says whether the address bar gets a new entry
   * (a shopper's click), has its entry replaced, or already shows the route (back, reload).
   */
  const enter = async (
    route: Route,
    how: "push" | "replace" | "none",
    chosenAhead?: Awaited<ReturnType<typeof api.chosenMethod>>,
  ) => {
    const cart = state.cart;
    const ready = (cart?.items?.length ?? 0) > 0;
    let shown: Route = route;
    if (route.step === "checkout") {
      update({
        sessionId: route.sessionId ?? null,
        step: "checkout",
        refundDue: false,
        checkoutCodeStatus: null,
      });
      const session = cart?.payment_collection?.payment_sessions?.find(
        (candidate) => candidate.id === route.sessionId,
      );
      if (session?.provider_id === api.providerIds.boleto) update({ method: "boleto" });
      else if (session) update({ method: "pix" });
    } else if (route.step === "confirmation" && route.orderId) {
      await readOrder(route.orderId);
      update({ step: "confirmation" });
      void followOrder(route.orderId);
    } else if ((route.step === "address" || route.step === "payment") && cart && ready) {
      // The payment step only for a cart an order can come of: e-mail, address and shipping.
      if (
        route.step === "payment" &&
        deliveryComplete(cart) &&
        (cart.shipping_methods?.length ?? 0) > 0
      ) {
        await enterPayment(cart, chosenAhead);
      } else {
        shown = { step: "address" };
        await enterAddress(cart);
      }
    } else if (route.step === "address" || route.step === "payment") {
      shown = { step: "cart" };
      update({ step: "cart" });
    } else {
      update({ step: route.step === "confirmation" ? "products" : route.step });
      if (route.step === "confirmation") shown = { step: "products" };
    }
    const hash = hashOf(shown);
    if (how === "push" && location.hash !== hash) history.pushState(null, "", hash);
    else if (location.hash !== hash) history.replaceState(null, "", hash);
  };

  /**
   * Reads the order for the confirmation: its lines, and from the plugin whether Medusa's order
   * is paid and what money of an older code goes back. The page says "está pago" only on the
   * plugin's `paid`.
   */
  const readOrder = async (orderId: string) => {
    const [{ order, pixSaved, sessionId }, told] = await Promise.all([
      api.retrieveOrder(orderId),
      api.orderPayment(orderId),
    ]);
    // An excess the order's own code brought, which the store returns (the order cheaper
    // since the code was made, or more paid than it asked).
    const session = sessionId ? await api.sessionState(sessionId) : null;
    const excess = session?.status === "paid" ? api.refundOf(session) : null;
    update({
      order,
      orderPixSaved: pixSaved,
      orderPayment: told?.payment ?? null,
      orderEarlierPayment: told?.earlier_payment ?? null,
      orderSessionId: sessionId,
      orderCodeStatus: session?.status ?? null,
      orderRefund: excess ?? (state.order?.id === orderId ? state.orderRefund : null),
    });
  };

  /** Whether the page still shows `orderId`'s confirmation without a settled payment. */
  const waitingOn = (orderId: string) =>
    state.step === "confirmation" &&
    state.order?.id === orderId &&
    state.orderPayment !== "paid" &&
    state.orderPayment !== "canceled";

  /**
   * An order read a moment after its code was paid may not show the payment yet (Medusa records
   * the capture as the cart completes): read it again, every two seconds for a minute, while the
   * page shows it unpaid. After that the order's own code on the page tells when it is paid.
   */
  const followOrder = async (orderId: string) => {
    for (let tries = 0; tries < 30 && waitingOn(orderId); tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 2000));
      if (!waitingOn(orderId)) return;
      await readOrder(orderId).catch(() => undefined);
    }
  };

  const go = (route: Route, how: "push" | "replace" = "push") =>
    void attempt(async () => {
      update({ error: null });
      await enter(route, how);
    });

  const actions: Actions = {
    go: (step) => go({ step }),
    add: (variantId) =>
      void attempt(async () => {
        if (!state.region) return;
        update({ cart: await api.addToCart(state.region.id, variantId) });
        await enter({ step: "cart" }, "push");
      }),
    setQuantity: (lineId, quantity) =>
      void attempt(async () => {
        if (!state.cart) return;
        update({ cart: await api.setQuantity(state.cart.id, lineId, quantity) });
      }),
    edit: (field, value, form = "payer") =>
      update({ [form]: { ...state[form], [field]: value } } as Partial<State>),
    leave: (field, form = "payer") => {
      const values = state[form];
      const pretty =
        field === "document"
          ? formatDocument(values.document)
          : field === "postalCode"
            ? formatPostalCode(values.postalCode)
            : field === "phone"
              ? formatPhoneNumber(values.phone)
              : values[field];
      if (form === "payer") {
        update({
          touched: new Set([...state.touched, field]),
          payer: { ...state.payer, [field]: pretty },
        });
      } else {
        update({
          billingTouched: new Set([...state.billingTouched, field]),
          billing: { ...state.billing, [field]: pretty },
        });
      }
    },
    setSameAddress: (same) => update({ sameAddress: same, error: null }),
    submitAddress: () =>
      void attempt(async () => {
        if (!(await saveDelivery("Confira os campos destacados."))) return;
        update({ shippingOptions: await api.shippingOptions(state.cart!.id) });
      }),
    // The natural order: fill the form, tap PAC. The form is checked and saved first; the
    // option is taken only for a cart with the shopper's e-mail and address.
    chooseShipping: (optionId) =>
      void attempt(async () => {
        update({ choosing: optionId });
        try {
          if (!(await saveDelivery("Preencha o e-mail e o endereço antes de escolher o frete.")))
            return;
          // The option, and beside it what the payment step reads: the region's methods and
          // the cart's own (the option changes neither).
          const [cart, chosen] = await Promise.all([
            api.chooseShipping(state.cart!.id, optionId),
            api.chosenMethod(state.cart!.id),
            state.region ? offeredMethods(state.region.id) : undefined,
          ]);
          update({ cart });
          await enter({ step: "payment" }, "push", chosen);
        } finally {
          update({ choosing: null });
        }
      }),
    continueToPayment: () =>
      void attempt(async () => {
        if (!(await saveDelivery("Confira os campos destacados."))) return;
        await enter({ step: "payment" }, "push");
      }),
    chooseMethod: (method) => {
      update({ method, error: null });
      // One call: the plugin records the method and Medusa re-prices the cart (Pix discount).
      void attempt(async () => {
        if (!state.cart) return;
        const { cart, pixDiscount, buyerDocument } = await api.choosePaymentMethod(
          state.cart.id,
          method,
        );
        update({ cart, pixDiscount, buyerDocument });
      });
    },
    pay: (method) => {
      // The CPF or CNPJ is one field of the payment step, for a boleto and, when the store asks
      // it on every order, for Pix; a boleto elsewhere than the delivery asks its address too.
      if (method === "boleto" || state.buyerDocument === "every_order") {
        const errors = validatePayer(state.payer, ["document"]);
        if (Object.keys(errors).length > 0) {
          refuse(
            ["document"],
            errors,
            method === "boleto" ? "Confira os dados do boleto." : "Informe o CPF ou CNPJ.",
          );
          return;
        }
      }
      if (method === "boleto" && !state.sameAddress) {
        const errors = validatePayer(state.billing, billingFields);
        if (Object.keys(errors).length > 0) {
          refuse(billingFields, errors, "Confira os dados do boleto.", "billing");
          return;
        }
      }
      void attempt(async () => {
        if (!state.cart) return;
        // A tab left open is stale: another tab, or the e-mail's link, may have paid the cart
        // or made its code since. Read it before making one.
        const cart = await api.freshCart(state.cart.id);
        const live = cart?.payment_collection?.payment_sessions?.find(
          (candidate) => candidate.provider_id === api.providerIds[method],
        );
        const now = live ? await api.sessionState(live.id) : null;
        // Completed by the store (its webhook, another tab), or paid by its live code: the order.
        // A code the cart replaced never counts, whatever it reads: its money goes back.
        if (!cart || cart.completed_at || (live && api.paysTheCart(now))) {
          const placed = await api.completeCart(state.cart.id);
          await enter({ step: "confirmation", orderId: placed.id }, "replace");
          update({ cart: null });
          return;
        }
        if (live && method === "pix" && now?.status === "pending") {
          update({ method, order: null, cart });
          await enter({ step: "checkout", sessionId: live.id }, "push");
          return;
        }
        const payer =
          method === "boleto" && !state.sameAddress
            ? { ...state.billing, email: state.payer.email }
            : state.payer;
        const asked = method === "boleto" || state.buyerDocument === "every_order";
        const sessionId = await api.startPayment(
          cart,
          method,
          payer,
          asked ? state.payer.document : "",
        );
        // Boleto is order-first: the order exists now and waits for the boleto to be paid.
        // Pix is pay-first: the order is created once the charge is paid.
        const order = method === "boleto" ? await api.completeCart(state.cart.id) : null;
        update({ method, order });
        await enter({ step: "checkout", sessionId }, "push");
      });
    },
    paid: (session) => {
      // Only the live code paying the cart completes it; the element fires `pix-paid` for
      // nothing else, and a replaced code's answer is turned away here too.
      if (!api.paysTheCart(session)) return;
      void attempt(async () => {
        const cartId = state.cart?.id ?? api.storedCartId();
        // A refusal (Medusa would not make the order: an item sold out while the shopper paid)
        // is the element's to tell: it says the store is trying, then the order or the refund.
        // A banner of the page's own could only contradict it.
        const placed =
          state.order ??
          (cartId
            ? await api.completeCart(cartId).catch((error: Error) => {
                logForDevelopers(`the paid cart was not completed: ${error.message}`);
                return null;
              })
            : null);
        if (!placed) return;
        // The code that paid may have brought more than the cart costs now: the confirmation
        // names it, whichever session of the cart the store reads for the order.
        update({ order: placed, orderRefund: api.refundOf(session) });
        // The code step is done: back from the confirmation goes to the shop, not to the code.
        await enter({ step: "confirmation", orderId: placed.id }, "replace");
        update({ cart: null });
      });
    },
    // The element tells the shopper what becomes of the money; the cart stays open for its
    // current code, which still pays it.
    refundDue: () => update({ refundDue: true }),
    orderChanged: () => {
      const orderId = state.order?.id;
      if (!orderId) return;
      void attempt(async () => {
        await readOrder(orderId);
        void followOrder(orderId);
      });
    },
    sessionShown: (session) => {
      // The order's payment as the element's session tells it (an order-first boleto canceled
      // by the merchant): the notice beside the element follows it.
      const payment = session.order?.payment;
      if (state.order && payment && payment !== state.orderPayment)
        update({ orderPayment: payment });
      if (session.session_id === state.sessionId && session.status !== state.checkoutCodeStatus)
        update({ checkoutCodeStatus: session.status });
      const home = config.sandboxUrl;
      const known = state.sandboxPage;
      if (!home || (known?.sessionId === session.session_id && known.url !== home)) return;
      void (async () => {
        let url = sandboxPageOf(home, session);
        if (url === home) {
          // Variant A's code names no page: the charge's id is in the session's data in Medusa.
          const cartId = state.cart?.id ?? api.storedCartId();
          const cart = cartId ? await api.freshCart(cartId) : null;
          const data = cart?.payment_collection?.payment_sessions?.find(
            (candidate) => candidate.id === session.session_id,
          )?.data;
          const chargeId = typeof data?.charge_id === "string" ? data.charge_id : null;
          url = sandboxPageOf(home, session, chargeId);
        }
        const now = state.sandboxPage;
        if (now?.sessionId === session.session_id && now.url === url) return;
        update({ sandboxPage: { sessionId: session.session_id, url } });
      })();
    },
    renewed: (sessionId) => {
      update({ sessionId, refundDue: false, checkoutCodeStatus: null });
      history.replaceState(null, "", hashOf({ step: "checkout", sessionId }));
    },
    startOver: () => {
      api.forgetCart();
      update({
        ...initialState(),
        region: state.region,
        products: state.products,
        payer: { ...state.payer, document: "" },
        elementMissing: state.elementMissing,
      });
      history.pushState(null, "", hashOf({ step: "products" }));
    },
  };

  const itemCount = () => (state.cart?.items ?? []).reduce((sum, item) => sum + item.quantity, 0);

  const views: Record<State["step"], (state: State, actions: Actions) => unknown> = {
    products: productsView,
    cart: cartView,
    address: addressView,
    payment: paymentView,
    checkout: checkoutView,
    confirmation: (state, actions) =>
      confirmationView(state, actions, (sessionId) => orderCodeView(sessionId, actions)),
  };

  function draw() {
    render(
      html`
        <header>
          <h1>
            <a href="#/" @click=${(e: Event) => (e.preventDefault(), actions.go("products"))}
              >Loja Pix Checkout</a
            >
          </h1>
          ${
            // The cart stays in reach while a Pix code waits (pay-first: no order yet).
            state.step === "confirmation" || (state.step === "checkout" && state.order)
              ? nothing
              : html`<button class="cart-button secondary" @click=${() => actions.go("cart")}>
                  Carrinho (${itemCount()})
                </button>`
          }
        </header>
        <main aria-busy=${state.busy ? "true" : "false"}>
          ${
            state.error && state.step !== "checkout"
              ? html`<p class="error banner" role="alert">${state.error}</p>`
              : nothing
          }
          ${views[state.step](state, actions)}
        </main>
      `,
      root,
    );
  }

  draw();
  // Back and forward walk the steps; each shows what the store holds now.
  addEventListener("popstate", () => go(routeOf(location.hash), "replace"));
  await attempt(async () => {
    const region = await api.getRegion();
    const [products, cart] = await Promise.all([api.listProducts(region.id), api.currentCart()]);
    update({ region, products, cart });
    await enter(routeOf(location.hash), "none");
  });
}
