// The charges the sandbox's phone pictures show, made through its API: the README's screenshots
// (phone-screenshots.mjs) and the end-to-end test of those pages (test/e2e/sandbox-phone.test.ts)
// stand up the same scene, so the test checks what the pictures show.

/**
 * @param {{ baseUrl: string, defaultKey: string }} sandbox
 * @param {Record<string, unknown>} body
 */
async function create(sandbox, body) {
  const res = await fetch(`${sandbox.baseUrl}/charges`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${sandbox.defaultKey}`,
      "content-type": "application/json",
    },
    body: JSON.stringify(body),
  });
  if (res.status !== 201) throw new Error(`create answered ${res.status}: ${await res.text()}`);
  return res.json();
}

/**
 * Two pending Pix charges, as two storefront orders leave them (one description carries the
 * store's `(ref <session id>)`).
 * @param {{ baseUrl: string, defaultKey: string }} sandbox
 */
export async function createPixCharges(sandbox) {
  for (const [amount, description] of [
    [4892, "Pedido #1042 · Camiseta Pix (ref payses_01JDEMO0000000000000000001)"],
    [12990, "Pedido #1043 · Caneca"],
  ]) {
    await create(sandbox, { amount, payment_method: "pix", description });
  }
}

/**
 * A pending boleto of R$ 1.234,56 with its payer and address, as the plugin sends one.
 * @param {{ baseUrl: string, defaultKey: string }} sandbox
 * @returns {Promise<{ uuid: string, digitable_line: string, boleto_url: string }>}
 */
export function createBoletoCharge(sandbox) {
  return create(sandbox, {
    amount: 123456,
    payment_method: "boleto",
    description: "Pedido #1044 · Rede de descanso",
    customer: {
      name: "Ana Souza",
      email: "ana@example.com",
      document: "123.456.789-09",
      phone: "(11) 98765-4321",
    },
    billing_address: {
      zip: "01310-100",
      state: "SP",
      city: "São Paulo",
      street: "Avenida Paulista",
      neighborhood: "Bela Vista",
      number: "1000",
    },
  });
}
