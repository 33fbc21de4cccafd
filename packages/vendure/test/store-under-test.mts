// The e2e files' Vendure store: a real Vendure server with the plugin on PostgreSQL
// (@vendure/testing), the sandbox as its payment service over HTTP, and what a storefront and an
// admin do to it through the Shop and Admin GraphQL APIs.
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import {
  ConfigService,
  DefaultLogger,
  LanguageCode,
  LogLevel,
  mergeConfig,
  type VendureConfig,
} from "@vendure/core";
import {
  createTestEnvironment,
  PostgresInitializer,
  registerInitializer,
  testConfig,
} from "@vendure/testing";
import { startSandbox, type Sandbox } from "@pix-checkout/sandbox";
import { gql } from "graphql-tag";
import { expect } from "vitest";
import { BOLETO_HANDLER_CODE, PIX_HANDLER_CODE, PixCheckoutPlugin } from "../dist/index.js";

export const WEBHOOK_SECRET = "vendure-webhook-token-1234";

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export const webhookUrl = (port: number) =>
  `http://127.0.0.1:${port}/pix-checkout/webhook?token=${WEBHOOK_SECRET}`;

export interface TestStore {
  env: ReturnType<typeof createTestEnvironment>;
  sandbox: Sandbox;
  storeUrl: string;
  /** The PostgreSQL database the store lives in (another process of the store opens it too). */
  database: string;
  close(): Promise<void>;
}

/** The store in use by this file's helpers below (one per test file: vitest runs each alone). */
let current: TestStore | undefined;

function store(): TestStore {
  if (!current) throw new Error("startTestStore() first");
  return current;
}

/**
 * @vendure/testing names a test's database after the file that calls `server.init`, which is
 * this one for every test file: each file names its own instead (`e2e_<its file name>`), so two
 * files running at once never share, and drop, one database.
 */
class TestFileDatabase extends PostgresInitializer {
  constructor(private readonly testFile: string) {
    super();
  }

  override init(_caller: string, connectionOptions: Parameters<PostgresInitializer["init"]>[1]) {
    return super.init(fileURLToPath(this.testFile), connectionOptions);
  }
}

/**
 * Starts the sandbox and a Vendure server with the plugin on a new database named after
 * `testFile` (the test file's `import.meta.url`), in Portuguese, selling one shirt with PAC, Pix
 * and boleto. `alsoDeliverTo` are more ports the sandbox delivers every webhook to (other
 * servers of the same store).
 */
export async function startTestStore(
  testFile: string,
  options: { plugins?: VendureConfig["plugins"]; alsoDeliverTo?: number[] } = {},
): Promise<TestStore> {
  registerInitializer("postgres", new TestFileDatabase(testFile));
  const port = await freePort();
  const sandbox = await startSandbox({
    variant: "a",
    webhookUrls: [port, ...(options.alsoDeliverTo ?? [])].map(webhookUrl),
  });
  const env = createTestEnvironment(
    mergeConfig(testConfig, {
      apiOptions: { port, hostname: "127.0.0.1" },
      logger: new DefaultLogger({ level: LogLevel.Error }),
      dbConnectionOptions: {
        type: "postgres",
        host: process.env.DB_HOST ?? "localhost",
        port: Number(process.env.DB_PORT ?? 5432),
        username: process.env.DB_USERNAME ?? "postgres",
        password: process.env.DB_PASSWORD ?? "",
      },
      plugins: [
        PixCheckoutPlugin.init({
          apiKey: sandbox.defaultKey,
          baseUrl: sandbox.baseUrl,
          variant: "a",
          webhookSecret: WEBHOOK_SECRET,
        }),
        ...(options.plugins ?? []),
      ],
    }),
  );
  await env.server.init({
    productsCsvPath: fileURLToPath(new URL("./fixtures/products.csv", import.meta.url)),
    customerCount: 1,
    initialData: {
      defaultLanguage: LanguageCode.pt_BR,
      defaultZone: "Brasil",
      countries: [{ name: "Brasil", code: "BR", zone: "Brasil" }],
      taxRates: [{ name: "Sem imposto", percentage: 0 }],
      shippingMethods: [{ name: "PAC", price: 1500 }],
      paymentMethods: [
        { name: "Pix", handler: { code: PIX_HANDLER_CODE, arguments: [] } },
        { name: "Boleto", handler: { code: BOLETO_HANDLER_CODE, arguments: [] } },
      ],
      collections: [],
    },
  });
  await env.adminClient.asSuperAdmin();
  const database = String(
    (env.server.app.get(ConfigService).dbConnectionOptions as { database?: string }).database,
  );
  current = {
    env,
    sandbox,
    storeUrl: `http://127.0.0.1:${port}`,
    database,
    close: async () => {
      await env.server.destroy();
      await sandbox.close();
    },
  };
  return current;
}

export const ORDER = gql`
  fragment PixOrder on Order {
    id
    code
    state
    totalWithTax
    payments {
      id
      state
      amount
      method
      transactionId
      metadata
    }
  }
`;

/** A guest's order of one shirt with PAC, in ArrangingPayment, and its Pix code asked for. */
export async function orderWithPixCode(
  email: string,
  method: "pix" | "boleto" = "pix",
  metadata: Record<string, string> = {},
) {
  const shop = store().env.shopClient;
  await shop.asAnonymousUser();
  await shop.query(gql`
    mutation {
      addItemToOrder(productVariantId: "T_1", quantity: 2) {
        ... on Order {
          id
        }
      }
    }
  `);
  await shop.query(
    gql`
      mutation ($email: String!) {
        setCustomerForOrder(input: { emailAddress: $email, firstName: "Ana", lastName: "Souza" }) {
          ... on Order {
            id
          }
        }
      }
    `,
    { email },
  );
  await shop.query(gql`
    mutation {
      setOrderShippingAddress(
        input: {
          fullName: "Ana Souza"
          streetLine1: "Avenida Paulista, 1000"
          city: "São Paulo"
          province: "SP"
          postalCode: "01310-100"
          countryCode: "BR"
        }
      ) {
        ... on Order {
          id
        }
      }
    }
  `);
  const { eligibleShippingMethods } = await shop.query(gql`
    {
      eligibleShippingMethods {
        id
      }
    }
  `);
  await shop.query(
    gql`
      mutation ($id: [ID!]!) {
        setOrderShippingMethod(shippingMethodId: $id) {
          ... on Order {
            id
          }
        }
      }
    `,
    { id: [eligibleShippingMethods[0].id] },
  );
  await shop.query(gql`
    mutation {
      transitionOrderToState(state: "ArrangingPayment") {
        ... on Order {
          id
        }
      }
    }
  `);
  const { addPaymentToOrder } = await shop.query(
    gql`
      ${ORDER}
      mutation ($method: String!, $metadata: JSON!) {
        addPaymentToOrder(input: { method: $method, metadata: $metadata }) {
          ...PixOrder
          ... on ErrorResult {
            errorCode
            message
          }
          ... on PaymentDeclinedError {
            paymentErrorMessage
          }
        }
      }
    `,
    // The payment method's code (from its name, "Pix"), whose handler is the plugin's.
    { method, metadata },
  );
  return addPaymentToOrder;
}

export async function orderByCode(code: string) {
  const { orders } = await store().env.adminClient.query(
    gql`
      ${ORDER}
      query ($code: String!) {
        orders(options: { filter: { code: { eq: $code } } }) {
          items {
            ...PixOrder
            history {
              items {
                type
                data
              }
            }
          }
        }
      }
    `,
    { code },
  );
  return orders.items[0];
}

/** What the sandbox's test controls do to a charge (`pay`, `expire`), its webhook let go. */
export async function control(chargeId: string, action: "pay" | "expire", body: unknown = {}) {
  const answer = await fetch(`${store().sandbox.url}/__sandbox/charges/${chargeId}/${action}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(answer.status).toBeLessThan(300);
  await store().sandbox.webhooksIdle();
}

export const pay = (chargeId: string) => control(chargeId, "pay");

/** Every webhook of the sandbox lost from now until `lost` ends (the service's faults). */
export async function withWebhooksLost(lost: () => Promise<void>) {
  const faults = (rate: number) =>
    fetch(`${store().sandbox.url}/__sandbox/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ webhook_drop_rate: rate }),
    });
  await faults(1);
  try {
    await lost();
  } finally {
    await faults(0);
  }
}
