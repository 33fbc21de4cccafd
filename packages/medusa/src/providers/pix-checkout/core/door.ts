import type { ConfigModule } from "@medusajs/framework/types";
import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import type { EventBusLike } from "../../../internal/records/charge-lifecycle";
import type { MedusaLoggerLike } from "../../../internal/platform/logger";
import type { PaymentMethod, PixCheckoutOptions } from "../../../internal/platform/options";
import type { PaymentServiceClient } from "../../../internal/platform/client-port";
import { PixCheckoutError } from "../../../internal/platform/errors";
import { createLineOf, type CreateLine } from "../../../internal/create-line/line";
import { settlementCore, type SettlementCore } from "../../../internal/settlement/context";

/** What every job of the provider hands the rooms: the plugin's tables, its options, its line. */
export interface ProviderDoor {
  core: SettlementCore;
  method: PaymentMethod;
  /** This registration's options (its `id` is not known here; the session's provider id is). */
  options: PixCheckoutOptions;
  client: () => Promise<PaymentServiceClient>;
  /** This process's create line, able to send this registration's creates. */
  line: (providerKey: string) => CreateLine;
}

/** What the payment module's container (the provider's cradle) holds that the provider uses. */
export interface ProviderCradle {
  db: Knex | undefined;
  config: ConfigModule | undefined;
  logger: MedusaLoggerLike | undefined;
  events: EventBusLike | undefined;
}

/**
 * The door from the provider's cradle. The payment module's container holds the shared
 * connection (`__pg_connection__`) and the app's configuration; without them the provider
 * cannot find a session's money through its records, so it refuses (fail closed).
 */
export function providerDoor(
  cradle: ProviderCradle,
  method: PaymentMethod,
  options: PixCheckoutOptions,
  client: () => Promise<PaymentServiceClient>,
): ProviderDoor {
  const { db, config } = cradle;
  if (!db || !config) {
    throw new PixCheckoutError(
      "plugin_not_installed",
      "Pix Checkout cannot reach the store's database from the payment module; nothing was charged or recorded.",
    );
  }
  const core = settlementCore(db, config, cradle.logger, cradle.events);
  return {
    core,
    method,
    options,
    client,
    line: (providerKey) => {
      const line = createLineOf(db, config);
      line.register(providerKey, {
        options,
        client,
        lifecycle: core.lifecycle,
        logger: core.logger,
      });
      return line;
    },
  };
}
