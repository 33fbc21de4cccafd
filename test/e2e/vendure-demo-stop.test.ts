// `npm run demo:vendure` stopped as a person stops it, by Ctrl+C (SIGINT), with a shopper's
// page following her Pix: the demo ends by itself, at once, and leaves nothing listening.
// Vendure stops itself on the signal too; the demo once closed it a second time meanwhile,
// which hung until the bin's 10 s fallback exited with code 1.
import { spawn } from "node:child_process";
import { once } from "node:events";
import net from "node:net";
import { fileURLToPath } from "node:url";
import { afterAll, expect, it } from "vitest";
import { dropDatabase, postgresServer } from "./support/demo.mjs";

const databaseName = `pix_checkout_vendure_stop_${process.pid}`;
const bin = fileURLToPath(new URL("../../apps/vendure-demo/bin/demo.mjs", import.meta.url));

afterAll(() => dropDatabase(databaseName));

const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });

/** What the Shop API answers that the order below reads. */
interface ShopData {
  eligibleShippingMethods?: { id: string }[];
  addPaymentToOrder?: { payments: { metadata: { public: { sessionId: string } } }[] };
}

/** A shopper's order of one item in ArrangingPayment with its Pix: the code's session id. */
async function pixSession(shopApiUrl: string): Promise<string> {
  let token: string | null = null;
  const shop = async (query: string, variables?: Record<string, unknown>) => {
    const response = await fetch(shopApiUrl, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify({ query, variables }),
    });
    token = response.headers.get("vendure-auth-token") ?? token;
    return ((await response.json()) as { data: ShopData }).data;
  };
  await shop(
    `mutation { addItemToOrder(productVariantId: "1", quantity: 1) { ... on Order { id } } }`,
  );
  await shop(
    `mutation { setCustomerForOrder(input: { emailAddress: "iara@example.com", firstName: "Iara", lastName: "Lima" }) { ... on Order { id } } }`,
  );
  await shop(
    `mutation { setOrderShippingAddress(input: { fullName: "Iara Lima", streetLine1: "Rua Augusta, 10", city: "São Paulo", postalCode: "01305-000", countryCode: "BR" }) { ... on Order { id } } }`,
  );
  const { eligibleShippingMethods } = await shop(`{ eligibleShippingMethods { id } }`);
  await shop(
    `mutation ($id: [ID!]!) { setOrderShippingMethod(shippingMethodId: $id) { ... on Order { id } } }`,
    { id: [eligibleShippingMethods![0]!.id] },
  );
  await shop(
    `mutation { transitionOrderToState(state: "ArrangingPayment") { ... on Order { id } } }`,
  );
  const { addPaymentToOrder } = await shop(
    `mutation { addPaymentToOrder(input: { method: "pix", metadata: {} }) { ... on Order { payments { metadata } } } }`,
  );
  return addPaymentToOrder!.payments[0]!.metadata.public.sessionId;
}

it("Ctrl+C with a shopper's stream open ends the demo by itself, with code 0, and nothing of it still listens", async () => {
  await dropDatabase(databaseName);
  const demo = spawn(process.execPath, [bin, "--no-dashboard"], {
    env: { ...process.env, DATABASE_URL: `${postgresServer}/${databaseName}` },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  demo.stdout.on("data", (chunk) => (output += chunk));
  demo.stderr.on("data", (chunk) => (output += chunk));
  const exited = once(demo, "exit");
  try {
    await Promise.race([
      new Promise<void>((resolve) => {
        const poll = setInterval(() => {
          if (!output.includes("Ctrl+C stops everything")) return;
          clearInterval(poll);
          resolve();
        }, 100);
      }),
      exited.then(([code]) => {
        throw new Error(`the demo exited (${code}) before it was ready:\n${output}`);
      }),
    ]);
    const line = (label: string): string => {
      const url = output.match(new RegExp(`^  ${label} +(\\S+)`, "m"))?.[1];
      if (!url) throw new Error(`the banner names no ${label}:\n${output}`);
      return url;
    };
    const shopApiUrl = line("Shop API");
    const storeUrl = new URL(shopApiUrl).origin;
    const ports = [line("storefront"), shopApiUrl, line("sandbox")].map((url) =>
      Number(new URL(url).port),
    );
    expect(output).not.toContain("dashboard    ");

    const sessionId = await pixSession(shopApiUrl);
    const stream = await fetch(
      `${storeUrl}/store/pix-checkout/sessions/${encodeURIComponent(sessionId)}/stream`,
    );
    const reader = stream.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toMatch(/"status":"pending"/);

    demo.kill("SIGINT");
    const [code] = await exited;
    expect({ code, output: output.slice(output.indexOf("Ctrl+C stops")) }).toEqual({
      code: 0,
      output: expect.not.stringContaining("more than 10 s"),
    });
    // The page's stream was ended, not cut: it reads to its end.
    while (!(await reader.read()).done);
    for (const port of ports) expect(await listening(port)).toBe(false);
  } finally {
    if (demo.exitCode === null) demo.kill("SIGKILL");
  }
});
