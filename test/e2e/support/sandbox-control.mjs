// The sandbox's control routes: what a tester does from the sandbox page (pay, expire).

/**
 * @param {string} sandboxUrl
 * @param {string} path
 * @param {string} [method]
 * @param {unknown} [body] sent as JSON
 */
async function control(sandboxUrl, path, method = "GET", body = undefined) {
  const response = await fetch(`${sandboxUrl}/__sandbox/${path}`, {
    method,
    ...(body === undefined
      ? {}
      : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
  });
  const answer = await response.json();
  if (!response.ok)
    throw new Error(`${method} /__sandbox/${path}: ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

/**
 * Every charge the sandbox holds, newest first (Variant A's read shape: `uuid`, `status`, …).
 * @param {string} sandboxUrl
 * @returns {Promise<Array<{ uuid: string, status: string, amount: number, pix_copy_paste?: string }>>}
 */
export function listCharges(sandboxUrl) {
  return control(sandboxUrl, "charges");
}

/**
 * The newest charge. Suites run their flows one after another, so once the shopper sees a
 * charge on screen, the newest one is theirs.
 * @param {string} sandboxUrl
 */
export async function newestCharge(sandboxUrl) {
  const [charge] = await listCharges(sandboxUrl);
  if (!charge) throw new Error("the sandbox holds no charge");
  return charge;
}

/**
 * Marks a charge paid, as the payer's bank would; the sandbox then sends `charge.paid`.
 * @param {string} sandboxUrl
 * @param {string} uuid
 */
export function payCharge(sandboxUrl, uuid) {
  return control(sandboxUrl, `charges/${uuid}/pay`, "POST");
}

/**
 * Lets a charge expire now; the sandbox then sends `charge.expired`.
 * @param {string} sandboxUrl
 * @param {string} uuid
 */
export function expireCharge(sandboxUrl, uuid) {
  return control(sandboxUrl, `charges/${uuid}/expire`, "POST");
}

/**
 * The payer the service stored with a charge (`name`, `email`, `document`, `phone`, those the
 * store sent): what the store told the service about the buyer.
 * @param {string} sandboxUrl
 * @param {string} uuid
 * @returns {Promise<{ name?: string, email?: string, document?: string, phone?: string }>}
 */
export function chargePayer(sandboxUrl, uuid) {
  return control(sandboxUrl, `charges/${uuid}/payer`);
}

/**
 * Makes the payer's bank pay `amount` (integer cents) instead of what the charge asks, once it
 * is paid: short (the store holds it for the merchant) or over.
 * @param {string} sandboxUrl
 * @param {string} uuid
 * @param {number} amount
 */
export function setPaidAmount(sandboxUrl, uuid, amount) {
  return control(sandboxUrl, `transactions/${uuid}/amount`, "POST", { amount });
}
