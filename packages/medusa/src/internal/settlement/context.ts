import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils";
import type { MedusaContainer } from "@medusajs/framework/types";
import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import { recordsOf, type Records } from "../records/records";
import { ChargeLifecycle, type EventBusLike } from "../records/charge-lifecycle";
import { createPluginLogger, type PluginLogger } from "../platform/logger";
import {
  keyOfProviderId,
  providerByKey,
  registeredProviders,
  type RegisteredProvider,
} from "../platform/provider-registry";
import { readGauges } from "../create-line/gauge-reading";
import { observeDatabase } from "../platform/telemetry";
import type { ChargeRow } from "../records/charges";

/** Everything settling needs from Medusa. */
export interface SettleContext {
  container: MedusaContainer;
  /** The shared connection pool (the create line keeps its own SQL). */
  db: Knex;
  /** The plugin's tables: `records.charges`, `records.events`, `records.deliveries`, ... */
  records: Records;
  logger: PluginLogger;
  lifecycle: ChargeLifecycle;
}

/** Builds the context from a full (request, job or workflow) container. */
export function settleContext(container: MedusaContainer): SettleContext {
  const db = container.resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION);
  const config = container.resolve(ContainerRegistrationKeys.CONFIG_MODULE);
  observeDatabase(db, () => readGauges(db, registeredProviders(config)));
  const records = recordsOf(db);
  const logger = createPluginLogger(container.resolve(ContainerRegistrationKeys.LOGGER));
  const events = container.hasRegistration(Modules.EVENT_BUS)
    ? container.resolve<EventBusLike>(Modules.EVENT_BUS)
    : undefined;
  return {
    container,
    db,
    records,
    logger,
    lifecycle: new ChargeLifecycle(records, logger, events),
  };
}

/** The provider registration a charge was created through (its options, its client). */
export function providerOfRow(ctx: SettleContext, row: ChargeRow): RegisteredProvider {
  return providerByKey(
    ctx.container.resolve(ContainerRegistrationKeys.CONFIG_MODULE),
    keyOfProviderId(row.provider_id),
  );
}

/**
 * This instance's Medusa `workerMode`: a `server` runs no subscribers and no scheduled jobs, a
 * `worker` serves no store or admin routes, and `shared` (the default) does both.
 */
export function workerModeOf(container: MedusaContainer): "server" | "worker" | "shared" {
  const config = container.resolve(ContainerRegistrationKeys.CONFIG_MODULE);
  return config.projectConfig?.workerMode ?? "shared";
}
