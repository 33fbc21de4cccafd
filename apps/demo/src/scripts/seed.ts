// `medusa exec ./src/scripts/seed.ts`: brings the demo store to its known state. Safe to run
// any number of times: every entity is looked up first and made only when missing.
import { mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import type { ExecArgs } from "@medusajs/framework/types";
import { ContainerRegistrationKeys } from "@medusajs/framework/utils";
import { seedAdminUser } from "../seed/admin-user";
import { seedFulfillment } from "../seed/fulfillment";
import { seedProducts } from "../seed/products";
import {
  DEMO_PROMOTION_CODE,
  PIX_DISCOUNT_CODE,
  seedPixDiscount,
  seedPromotion,
} from "../seed/promotion";
import { seedPublishableKey } from "../seed/publishable-key";
import { choosePaymentProviders, seedRegion } from "../seed/region";
import { seedStore } from "../seed/store";

/** What the seed hands to `npm run demo` (through PIX_DEMO_SEED_OUTPUT) and prints. */
export interface SeedResult {
  publishableKey: string;
  regionId: string;
  salesChannelId: string;
  paymentProviders: string[];
  admin: { email: string; password: string };
}

/** Seeds the demo store; see apps/demo/README.md for what it makes. */
export default async function seedDemoStore({ container }: ExecArgs): Promise<void> {
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER);
  const env = process.env;
  const admin = {
    email: env.PIX_DEMO_ADMIN_EMAIL ?? "admin@pix-checkout.test",
    password: env.PIX_DEMO_ADMIN_PASSWORD ?? "pix-checkout-demo",
  };
  const imageOrigin = env.MEDUSA_BACKEND_URL ?? `http://localhost:${env.PORT ?? "9000"}`;

  const { salesChannelId } = await seedStore(container);
  const paymentProviders = await choosePaymentProviders(container, logger);
  const { regionId } = await seedRegion(container, paymentProviders);
  const fulfillment = await seedFulfillment(container, { regionId, salesChannelId });
  const { token } = await seedPublishableKey(container, salesChannelId);
  const products = await seedProducts(container, {
    salesChannelId,
    shippingProfileId: fulfillment.shippingProfileId,
    stockLocationId: fulfillment.stockLocationId,
    imageOrigin,
  });
  const user = await seedAdminUser(container, admin);
  const promotion = await seedPromotion(container);
  const pixDiscount = await seedPixDiscount(container);

  logger.info(
    `Demo store seeded: region ${regionId} with ${paymentProviders.join(", ")}; ` +
      `${products.created} new product(s); promotion ${DEMO_PROMOTION_CODE} ${promotion.created ? "created" : "kept"}; ` +
      `Pix discount ${PIX_DISCOUNT_CODE} ${pixDiscount.created ? "created" : "kept"}; ` +
      `admin ${admin.email} ${user.created ? "created" : "kept"}; ` +
      `publishable key ${token}`,
  );

  const output = env.PIX_DEMO_SEED_OUTPUT;
  if (output) {
    const result: SeedResult = {
      publishableKey: token,
      regionId,
      salesChannelId,
      paymentProviders,
      admin,
    };
    await mkdir(dirname(output), { recursive: true });
    await writeFile(output, `${JSON.stringify(result, null, 2)}\n`);
  }
}
