// The storefront's controller: holds the state, runs the actions against the store API and
// re-renders. products → cart → address and shipping → Pix or boleto → <pix-checkout> →
// confirmation.
import { html, nothing, render } from "lit";
import {
  boletoFields,
  shippingFields,
  validatePayer,
  formatDocument,
  formatPostalCode,
  type PayerField,
} from "./payer-fields";
import { initialState, type Actions, type State } from "./state";
import * as api from "./store-api";
import { addressView } from "./views/address";
import { cartView } from "./views/cart";
import { checkoutView } from "./views/checkout";
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
  let state: State = initialState();
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
  ) => {
    update({ touched: touchAll(fields), error: message });
    const first = fields.find((field) => errors[field]);
    const control = first ? root.querySelector<HTMLElement>(`#payer-${first}`) : null;
    control?.focus();
    control?.scrollIntoView({ block: "center" });
  };

  const actions: Actions = {
    go: (step) => update({ step, error: null }),
    add: (variantId) =>
      void attempt(async () => {
        if (!state.region) return;
        update({ cart: await api.addToCart(state.region.id, variantId), step: "cart" });
      }),
    setQuantity: (lineId, quantity) =>
      void attempt(async () => {
        if (!state.cart) return;
        update({ cart: await api.setQuantity(state.cart.id, lineId, quantity) });
      }),
    edit: (field, value) => update({ payer: { ...state.payer, [field]: value } }),
    leave: (field) => {
      const pretty =
        field === "document"
          ? formatDocument(state.payer.document)
          : field === "postalCode"
            ? formatPostalCode(state.payer.postalCode)
            : state.payer[field];
      update({
        touched: new Set([...state.touched, field]),
        payer: { ...state.payer, [field]: pretty },
      });
    },
    submitAddress: () => {
      const errors = validatePayer(state.payer, shippingFields);
      if (Object.keys(errors).length > 0) {
        refuse(shippingFields, errors, "Confira os campos destacados.");
        return;
      }
      void attempt(async () => {
        if (!state.cart) return;
        const cart = await api.saveAddress(state.cart.id, state.payer);
        update({ cart, shippingOptions: await api.shippingOptions(cart.id) });
      });
    },
    chooseShipping: (optionId) =>
      void attempt(async () => {
        if (!state.cart || !state.region) return;
        const cart = await api.chooseShipping(state.cart.id, optionId);
        const methods = await api.availableMethods(state.region.id);
        const method = methods[0] ?? null;
        // The first method is preselected: the cart's totals are shown for it at once.
        const chosen = method ? await api.choosePaymentMethod(cart.id, method) : null;
        update({
          cart: chosen?.cart ?? cart,
          pixDiscount: chosen?.pixDiscount ?? null,
          methods,
          method,
          step: "payment",
        });
      }),
    chooseMethod: (method) => {
      update({ method, error: null });
      // One call: the plugin records the method and Medusa re-prices the cart (Pix discount).
      void attempt(async () => {
        if (!state.cart) return;
        const { cart, pixDiscount } = await api.choosePaymentMethod(state.cart.id, method);
        update({ cart, pixDiscount });
      });
    },
    pay: (method) => {
      if (method === "boleto") {
        const errors = validatePayer(state.payer, boletoFields);
        if (Object.keys(errors).length > 0) {
          refuse(boletoFields, errors, "Confira os dados do boleto.");
          return;
        }
      }
      void attempt(async () => {
        if (!state.cart) return;
        const sessionId = await api.startPayment(state.cart, method, state.payer);
        if (method === "boleto") {
          // Order-first: the order exists now and waits for the boleto to be paid.
          const order = await api.completeCart(state.cart.id);
          update({ method, sessionId, order, step: "checkout" });
        } else {
          // Pay-first: the order is created once the charge is paid.
          update({ method, sessionId, order: null, step: "checkout" });
        }
      });
    },
    paid: () =>
      void attempt(async () => {
        const order = state.order ?? (state.cart ? await api.completeCart(state.cart.id) : null);
        if (!order) return;
        update({
          order: await api.retrieveOrder(order.id),
          paid: true,
          step: "confirmation",
          cart: null,
        });
      }),
    renewed: (sessionId) => update({ sessionId }),
    startOver: () => {
      api.forgetCart();
      update({
        ...initialState(),
        region: state.region,
        products: state.products,
        payer: state.payer,
        elementMissing: state.elementMissing,
      });
    },
  };

  const itemCount = () => (state.cart?.items ?? []).reduce((sum, item) => sum + item.quantity, 0);

  const views: Record<State["step"], (state: State, actions: Actions) => unknown> = {
    products: productsView,
    cart: cartView,
    address: addressView,
    payment: paymentView,
    checkout: checkoutView,
    confirmation: confirmationView,
  };

  function draw() {
    render(
      html`
        <header>
          <h1>
            <a href="#" @click=${(e: Event) => (e.preventDefault(), actions.go("products"))}
              >Loja Pix Checkout</a
            >
          </h1>
          ${
            state.step === "checkout" || state.step === "confirmation"
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
  await attempt(async () => {
    const region = await api.getRegion();
    const [products, cart] = await Promise.all([api.listProducts(region.id), api.currentCart()]);
    update({ region, products, cart });
  });
}
