import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http";
import { ContainerRegistrationKeys } from "@medusajs/framework/utils";
import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import { z } from "zod";
import { sendError } from "../../../../internal/platform/errors";
import { healthReport } from "../../../../internal/operations/health";
import { readRegionProviders } from "../../../../internal/medusa/region-providers";
import { createPluginLogger } from "../../../../internal/platform/logger";
import { registeredProviders } from "../../../../internal/platform/provider-registry";
import { probeStoreRedis } from "../../../../internal/operations/redis-health";

const querySchema = z
  .object({
    provider: z
      .string()
      .regex(/^[\w-]{1,64}$/)
      .optional(),
  })
  .strict();

/**
 * `GET /admin/pix-checkout/health[?provider=id]`: whether payments are flowing, as lines
 * `{ id, state, value, detail, action }` (see internal/operations/health.ts and the README's "Health").
 * The service check is one `GET /balance` per registration with a short timeout, the Redis line
 * one PING of the store's Redis (redis-health.ts); everything else is read from the plugin's
 * tables. Nothing here changes a charge.
 */
export async function GET(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const parsed = querySchema.safeParse(req.query);
  if (!parsed.success) {
    sendError(res, "invalid_query", "Use provider=<registration id>, or no query at all.");
    return;
  }
  const all = registeredProviders(req.scope.resolve(ContainerRegistrationKeys.CONFIG_MODULE));
  const wanted = parsed.data.provider;
  const providers = wanted ? all.filter((p) => p.key === wanted) : all;
  if (wanted && providers.length === 0) {
    sendError(
      res,
      "provider_not_found",
      `No Pix Checkout provider is registered with id "${wanted}".`,
    );
    return;
  }
  const db = req.scope.resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION);
  const logger = createPluginLogger(req.scope.resolve(ContainerRegistrationKeys.LOGGER));
  res.setHeader("Cache-Control", "no-store");
  const regions = await readRegionProviders(req.scope, (message) => logger.warn(message));
  const redis = await probeStoreRedis(req.scope);
  res.json({
    ...(await healthReport(db, providers, logger, regions, redis)),
    providers: all.map((p) => p.key),
  });
}
