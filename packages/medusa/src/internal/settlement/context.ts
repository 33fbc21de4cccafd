import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils";
import type { ConfigModule, MedusaContainer } from "@medusajs/framework/types";
import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import { recordsOf, type Records } from "../records/records";
import { ChargeLifecycle, type EventBusLike } from "../records/charge-lifecycle";
import { createPluginLogger, type MedusaLoggerLike, type PluginLogger } from "../platform/logger";
import {
  clientFor,
  keyOfProviderId,
  providerByKey,
  registeredProviders,
  type RegisteredProvider,
} from "../platform/provider-registry";
import type { PaymentServiceClient } from "../platform/client-port";
import { readGauges } from "../create-line/gauge-reading";
import { observeDatabase } from "../platform/telemetry";
import type { ChargeRow } from "../records/charges";

/**
 * What deciding about a collection and recording the decision need: the plugin's tables and
 * the registrations' options. Every door has it, the provider too, whose container is the
 * payment module's own (module isolation: no Query, no workflows).
 */
export interface SettlementCore {
  /** The shared connection pool (the create line keeps its own SQL). */
  db: Knex;
  /** The plugin's tables: `records.charges`, `records.events`, `records.deliveries`, ... */
  records: Records;
  logger: PluginLogger;
  lifecycle: ChargeLifecycle;
  /** The app's configuration: the registrations a charge's options and client come from. */
  config: ConfigModule;
}

/** A door that can also run Medusa's workflows: routes, jobs and subscribers. */
export interface SettleContext extends SettlementCore {
  container: MedusaContainer;
}

/** The core of settling, from what any container holds. */
export function settlementCore(
  db: Knex,
  config: ConfigModule,
  logger: MedusaLoggerLike | undefined,
  events?: EventBusLike,
): SettlementCore {
  const records = recordsOf(db);
  const pluginLogger = createPluginLogger(logger);
  return {
    db,
    records,
    logger: pluginLogger,
    lifecycle: new ChargeLifecycle(records, pluginLogger, events),
    config,
  };
}

/** Builds the context from a full (request, job or workflow) container. */
export function settleContext(container: MedusaContainer): SettleContext {
  const db = container.resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION);
  const config = container.resolve(ContainerRegistrationKeys.CONFIG_MODULE);
  observeDatabase(db, () => readGauges(db, registeredProviders(config)));
  const events = container.hasRegistration(Modules.EVENT_BUS)
    ? container.resolve<EventBusLike>(Modules.EVENT_BUS)
    : undefined;
  return {
    ...settlementCore(db, config, container.resolve(ContainerRegistrationKeys.LOGGER), events),
    container,
  };
}

/** The provider registration a charge was created through (its options, its client). */
export function providerOfRow(core: SettlementCore, row: ChargeRow): RegisteredProvider {
  return providerByKey(core.config, keyOfProviderId(row.provider_id));
}

/** The payment service client of the registration a charge was created through. */
export function clientOfRow(core: SettlementCore, row: ChargeRow): Promise<PaymentServiceClient> {
  return clientFor(providerOfRow(core, row), core.logger);
}

/**
 * This instance's Medusa `workerMode`: a `server` runs no subscribers and no scheduled jobs, a
 * `worker` serves no store or admin routes, and `shared` (the default) does both.
 */
export function workerModeOf(container: MedusaContainer): "server" | "worker" | "shared" {
  const config = container.resolve(ContainerRegistrationKeys.CONFIG_MODULE);
  return config.projectConfig?.workerMode ?? "shared";
}
