// The demo storefront's one script: Vendure's Shop API through fetch, then <pix-checkout> with
// the payment's session id. The id goes in the address (#pagar=…), so a reload, the back button
// or a second tab shows the same code.
const store = document.documentElement.dataset.store;
const shopApi = `${store}/shop-api`;
const TOKEN = "pix-demo-vendure-token";

const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
const reais = (cents) =>
  (cents / 100).toLocaleString("pt-BR", { style: "currency", currency: "BRL" });

/** One Shop API call, keeping the session's bearer token Vendure hands out. */
async function shop(query, variables = {}) {
  const token = localStorage.getItem(TOKEN);
  const response = await fetch(shopApi, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({ query, variables }),
  });
  const fresh = response.headers.get("vendure-auth-token");
  if (fresh) localStorage.setItem(TOKEN, fresh);
  const { data, errors } = await response.json();
  if (errors?.length) throw new Error(errors[0].message);
  return data;
}

/** A mutation's answer, or its ErrorResult's message thrown. */
function ok(result) {
  if (result && "errorCode" in result) {
    throw new Error(result.paymentErrorMessage || result.message || result.errorCode);
  }
  return result;
}

async function showProduct() {
  const { products } = await shop(
    `{ products(options: { take: 1 }) { items { name variants { id priceWithTax } } } }`,
  );
  const product = products.items[0];
  $("nome").textContent = product.name;
  $("preco").textContent = reais(product.variants[0].priceWithTax);
  return product.variants[0].id;
}

/** The order from the cart to its Pix, as any Vendure storefront does it. */
async function payByPix(variantId, name, email) {
  const [firstName, ...rest] = name.trim().split(/\s+/);
  ok(
    (
      await shop(
        `mutation ($id: ID!) { addItemToOrder(productVariantId: $id, quantity: 1) {
          ... on Order { id } ... on ErrorResult { errorCode message } } }`,
        { id: variantId },
      )
    ).addItemToOrder,
  );
  ok(
    (
      await shop(
        `mutation ($input: CreateCustomerInput!) { setCustomerForOrder(input: $input) {
          ... on Order { id } ... on ErrorResult { errorCode message } } }`,
        { input: { emailAddress: email, firstName, lastName: rest.join(" ") || firstName } },
      )
    ).setCustomerForOrder,
  );
  ok(
    (
      await shop(
        `mutation ($input: CreateAddressInput!) { setOrderShippingAddress(input: $input) {
          ... on Order { id } ... on ErrorResult { errorCode message } } }`,
        {
          input: {
            fullName: name,
            streetLine1: "Avenida Paulista, 1000",
            city: "São Paulo",
            province: "SP",
            postalCode: "01310-100",
            countryCode: "BR",
          },
        },
      )
    ).setOrderShippingAddress,
  );
  const { eligibleShippingMethods } = await shop(`{ eligibleShippingMethods { id } }`);
  ok(
    (
      await shop(
        `mutation ($id: [ID!]!) { setOrderShippingMethod(shippingMethodId: $id) {
          ... on Order { id } ... on ErrorResult { errorCode message } } }`,
        { id: [eligibleShippingMethods[0].id] },
      )
    ).setOrderShippingMethod,
  );
  ok(
    (
      await shop(
        `mutation { transitionOrderToState(state: "ArrangingPayment") {
          ... on Order { id } ... on OrderStateTransitionError { errorCode message } } }`,
      )
    ).transitionOrderToState,
  );
  const order = ok(
    (
      await shop(
        `mutation { addPaymentToOrder(input: { method: "pix", metadata: {} }) {
          ... on Order { code payments { state metadata } }
          ... on ErrorResult { errorCode message }
          ... on PaymentDeclinedError { paymentErrorMessage } } }`,
      )
    ).addPaymentToOrder,
  );
  const waiting = order.payments.find((payment) => payment.state === "AwaitingPix");
  return waiting.metadata.public.sessionId;
}

function showPayment(sessionId) {
  $("produto").hidden = true;
  $("pagamento").hidden = false;
  $("pix").setAttribute("session-id", sessionId);
}

/** What the address says: a code being paid, or the product. */
function route() {
  const paying = new URLSearchParams(location.hash.slice(1)).get("pagar");
  if (paying) return showPayment(paying);
  $("produto").hidden = false;
  $("pagamento").hidden = true;
}
route();
addEventListener("hashchange", route);
const variantId = showProduct().catch((error) => {
  $("erro").textContent = `A loja não respondeu: ${error.message}`;
});

$("comprar").addEventListener("submit", async (event) => {
  event.preventDefault();
  $("erro").textContent = "";
  const form = new FormData(/** @type {HTMLFormElement} */ (event.target));
  try {
    const sessionId = await payByPix(
      await variantId,
      String(form.get("cliente")),
      String(form.get("email")),
    );
    location.hash = `pagar=${sessionId}`;
    showPayment(sessionId);
  } catch (error) {
    $("erro").textContent = `Não foi possível gerar o Pix: ${error.message}`;
  }
});
