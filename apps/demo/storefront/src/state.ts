// The storefront's whole state, in one object the views read and the actions replace.
import type { HttpTypes } from "@medusajs/types";
import { emptyPayer, type PayerField, type PayerFields } from "./payer-fields";
import type { Method } from "./store-api";

/** The checkout steps, in order. */
export type Step = "products" | "cart" | "address" | "payment" | "checkout" | "confirmation";

/** What the page shows. */
export interface State {
  step: Step;
  region: HttpTypes.StoreRegion | null;
  products: HttpTypes.StoreProduct[];
  cart: HttpTypes.StoreCart | null;
  payer: PayerFields;
  /** Fields the shopper has left at least once; only those show their errors. */
  touched: Set<PayerField>;
  shippingOptions: HttpTypes.StoreCartShippingOption[];
  methods: Method[];
  method: Method | null;
  /** The payment session `<pix-checkout>` shows. */
  sessionId: string | null;
  /** Boleto places the order before payment; Pix after. */
  order: HttpTypes.StoreOrder | null;
  paid: boolean;
  /** The Pix charge expired unpaid; the shopper may start a new one. */
  expired: boolean;
  busy: boolean;
  error: string | null;
  /** `<pix-checkout>` could not be loaded (its package has no build). */
  elementMissing: boolean;
}

/** The state of a fresh visit. */
export function initialState(): State {
  return {
    step: "products",
    region: null,
    products: [],
    cart: null,
    payer: emptyPayer(),
    touched: new Set(),
    shippingOptions: [],
    methods: [],
    method: null,
    sessionId: null,
    order: null,
    paid: false,
    expired: false,
    busy: false,
    error: null,
    elementMissing: false,
  };
}

/** What the views may ask for. */
export interface Actions {
  go(step: Step): void;
  add(variantId: string): void;
  setQuantity(lineId: string, quantity: number): void;
  edit(field: PayerField, value: string): void;
  leave(field: PayerField): void;
  submitAddress(): void;
  chooseShipping(optionId: string): void;
  chooseMethod(method: Method): void;
  pay(method: Method): void;
  paid(): void;
  expired(): void;
  startOver(): void;
}
