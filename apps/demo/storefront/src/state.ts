// The storefront's whole state, in one object the views read and the actions replace.
import type { HttpTypes } from "@medusajs/types";
import { emptyPayer, type PayerField, type PayerFields } from "./payer-fields";
import type {
  EarlierPayment,
  Method,
  OrderPaymentStatus,
  PixDiscount,
  RefundOwed,
  BuyerDocumentAsked,
} from "./store-api";

/** Which form a field belongs to: the delivery's (`payer`) or a boleto payer's elsewhere. */
export type PayerForm = "payer" | "billing";

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
  /** The option the shopper tapped, while the form is checked and saved for it. */
  choosing: string | null;
  methods: Method[];
  method: Method | null;
  /** The store's Pix discount, as the payment-method route last told it. */
  pixDiscount: PixDiscount | null;
  /** When the store asks the CPF or CNPJ (the payment-method route's `buyer_document`). */
  buyerDocument: BuyerDocumentAsked;
  /**
   * The boleto's payer lives at the delivery address ("Mesmo endereço da entrega", checked by
   * default): the payment step asks only the document. Unchecked, it asks `billing`.
   */
  sameAddress: boolean;
  /** The boleto payer's address when it is not the delivery's, as typed. */
  billing: PayerFields;
  /** Fields of `billing` the shopper has left at least once. */
  billingTouched: Set<PayerField>;
  /** The payment session `<pix-checkout>` shows. */
  sessionId: string | null;
  /** Boleto places the order before payment; Pix after. */
  order: HttpTypes.StoreOrder | null;
  /** Integer cents the Pix discount took off `order`, as the shopper was told. */
  orderPixSaved: number;
  /**
   * Whether Medusa's `order` is paid, as the plugin's order route says; null while unknown (the
   * page then claims nothing). "Está pago" is said only for `paid`.
   */
  orderPayment: OrderPaymentStatus | null;
  /** Money an older code of `order`'s cart brought, which the store gives back; null: none. */
  orderEarlierPayment: EarlierPayment | null;
  /** The order's Pix or boleto session: the code that still pays an order awaiting payment. */
  orderSessionId: string | null;
  /**
   * The status the store gives that session's code (`paid`, `pending`, `expired`...); null while
   * unknown. A paid code pays nothing more: the page then does not ask to pay it (an order edited
   * up after its code was paid owes the difference, which the element names).
   */
  orderCodeStatus: string | null;
  /**
   * Money the code that paid `order` brought beyond what the order costs, which the store gives
   * back (a code paid with more than it asked, or the order cheaper since): amount and why.
   */
  orderRefund: RefundOwed | null;
  /**
   * The code on the checkout step was paid but the store gives its money back (a code the cart
   * replaced): no order comes of it, and the page says so beside the element.
   */
  refundDue: boolean;
  /**
   * The status the element shows for the checkout step's code (`pending`, `held`, `paid`...);
   * null while unknown. Once money arrived for the cart the page offers no way back to pay.
   */
  checkoutCodeStatus: string | null;
  busy: boolean;
  error: string | null;
  /** `<pix-checkout>` could not be loaded (its package has no build). */
  elementMissing: boolean;
  /** The sandbox page of the charge the element shows (sandbox-link.ts), once it said which. */
  sandboxPage: { sessionId: string; url: string } | null;
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
    choosing: null,
    methods: [],
    method: null,
    pixDiscount: null,
    buyerDocument: "boleto",
    sameAddress: true,
    billing: emptyPayer(),
    billingTouched: new Set(),
    sessionId: null,
    order: null,
    orderPixSaved: 0,
    orderPayment: null,
    orderEarlierPayment: null,
    orderSessionId: null,
    orderCodeStatus: null,
    orderRefund: null,
    refundDue: false,
    checkoutCodeStatus: null,
    busy: false,
    error: null,
    elementMissing: false,
    sandboxPage: null,
  };
}

/** What the demo reads of the session the element shows. */
export interface ShownSession {
  session_id: string;
  status: string;
  /** The session's order, once it has one: whether Medusa's order is paid, awaiting or canceled. */
  order?: { payment?: OrderPaymentStatus } | null;
  pix?: { payment_link?: string | null } | null;
  boleto?: { url?: string | null } | null;
}

/** What the views may ask for. */
export interface Actions {
  go(step: Step): void;
  add(variantId: string): void;
  setQuantity(lineId: string, quantity: number): void;
  edit(field: PayerField, value: string, form?: PayerForm): void;
  leave(field: PayerField, form?: PayerForm): void;
  /** "Mesmo endereço da entrega" checked or not. */
  setSameAddress(same: boolean): void;
  submitAddress(): void;
  chooseShipping(optionId: string): void;
  /** On to payment with the shipping the cart already has (back, or a reload). */
  continueToPayment(): void;
  chooseMethod(method: Method): void;
  pay(method: Method): void;
  /** The element's `pix-paid`: the live code paid the cart; the only time a cart is completed. */
  paid(session: { status: string; replaced_by?: string | null; refund?: RefundOwed | null }): void;
  /** The element's `pix-refund-due`: the shown code's money goes back; no order comes of it. */
  refundDue(): void;
  /** The confirmation of an order awaiting payment: its code was paid or renewed; read it again. */
  orderChanged(): void;
  /** The element took a new code after expiry ("Gerar novo código") and shows `sessionId`. */
  renewed(sessionId: string): void;
  /** The element read its session (every status change): the demo's sandbox link follows it. */
  sessionShown(session: ShownSession): void;
  startOver(): void;
}
