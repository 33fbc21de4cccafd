import type { MedusaContainer } from "@medusajs/framework/types";
import { Modules } from "@medusajs/framework/utils";
import type { HealthLine } from "./health-line";

/**
 * The health card's `redis` line: whether the store's Redis answers, and whether its connection
 * was lost and made again (a Sentinel failover, a restart) since this instance started. The
 * store's Redis is the one Medusa's own modules use (the plugin keeps none of its own): the
 * Redis event bus's connection, else the Redis cache's. A store on the local event bus and the
 * in-memory cache runs without Redis, and the line says so.
 */

/** What the line needs of an ioredis connection. */
export interface RedisConnection {
  status?: string;
  ping(): Promise<unknown>;
  info(section: string): Promise<string>;
  on(event: string, listener: (...args: unknown[]) => void): unknown;
}

/** How long the card waits for a PING: an admin page must not hang on a dead Redis. */
export const REDIS_PING_TIMEOUT_MS = 1_000;
/** A failover this recent makes the line a warning; older, it is history (still shown). */
export const FAILOVER_WARNING_MS = 60 * 60_000;

/** What a read of the store's Redis found. */
export type RedisProbe =
  | { in_use: false }
  | {
      in_use: true;
      /** Which of Medusa's modules the connection is: `event-bus-redis`, `cache-redis`. */
      module: string;
      reachable: boolean;
      latencyMs: number | null;
      error: string | null;
      /** The last time the connection was lost and made again, or the server was another. */
      failoverAt: Date | null;
      failovers: number;
    };

/** The connection of Medusa's Redis modules in the container, if the store uses one. */
export function storeRedis(
  container: MedusaContainer,
): { module: string; connection: RedisConnection } | null {
  const candidates: [string, string, string][] = [
    [Modules.EVENT_BUS, "eventBusRedisConnection_", "event-bus-redis"],
    [Modules.CACHE, "redis", "cache-redis"],
  ];
  for (const [key, field, module] of candidates) {
    if (!container.hasRegistration(key)) continue;
    const service = container.resolve<Record<string, unknown>>(key);
    const connection = service?.[field] as RedisConnection | undefined;
    if (connection && typeof connection.ping === "function") return { module, connection };
  }
  return null;
}

/** What this process has seen of one connection since it first watched it. */
interface Watch {
  failovers: number;
  failoverAt: Date | null;
  /** The server's `run_id`: another one behind the same connection is a failover or restart. */
  runId: string | null;
  lostSince: Date | null;
}
const watches = new WeakMap<RedisConnection, Watch>();

/**
 * Starts watching a connection (once): a `ready` after the connection was lost counts as one
 * failover, at that moment. Medusa's modules build their connection at boot, and the plugin
 * first sees it here, so a failover before the first read is found by the server's side
 * (`probeRedis`: uptime, `run_id`).
 */
export function watchRedis(connection: RedisConnection): Watch {
  let watch = watches.get(connection);
  if (watch) return watch;
  const created: Watch = { failovers: 0, failoverAt: null, runId: null, lostSince: null };
  watch = created;
  watches.set(connection, created);
  const lost = () => {
    created.lostSince ??= new Date();
  };
  connection.on("close", lost);
  connection.on("reconnecting", lost);
  connection.on("ready", () => {
    if (!created.lostSince) return;
    created.lostSince = null;
    created.failovers += 1;
    created.failoverAt = new Date();
  });
  return created;
}

/** `key:value` lines of `INFO server`. */
function infoField(info: string, key: string): string | null {
  const line = info.split(/\r?\n/).find((l) => l.startsWith(`${key}:`));
  return line ? line.slice(key.length + 1).trim() : null;
}

/** When this process started: a Redis younger than it went through a failover or restart. */
const PROCESS_STARTED_AT = new Date(Date.now() - process.uptime() * 1000);

/** What the store's Redis says now, as the health card and its alerts read it. */
export function probeStoreRedis(container: MedusaContainer): Promise<RedisProbe> {
  return probeRedis(storeRedis(container), PROCESS_STARTED_AT);
}

/**
 * PINGs the store's Redis (at most `REDIS_PING_TIMEOUT_MS`) and reads whether a failover was
 * seen since this process started: the connection lost and made again, another server behind
 * it (`run_id`), or a server younger than this process (restarted, or promoted after a restart,
 * while the plugin was not watching).
 */
export async function probeRedis(
  found: { module: string; connection: RedisConnection } | null,
  processStartedAt: Date,
  now = () => new Date(),
): Promise<RedisProbe> {
  if (!found) return { in_use: false };
  const { module, connection } = found;
  const watch = watchRedis(connection);
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no answer in ${REDIS_PING_TIMEOUT_MS} ms`)),
      REDIS_PING_TIMEOUT_MS,
    );
  });
  try {
    await Promise.race([connection.ping(), timeout]);
    const latencyMs = Date.now() - started;
    const info = await Promise.race([connection.info("server"), timeout]).catch(() => "");
    const runId = infoField(info, "run_id");
    const uptimeS = Number(infoField(info, "uptime_in_seconds"));
    if (runId) {
      if (watch.runId && watch.runId !== runId) {
        watch.failovers += 1;
        watch.failoverAt = now();
      } else if (!watch.runId && Number.isFinite(uptimeS) && !watch.failoverAt) {
        // First look: a server that started after this process did is a failover or restart
        // the connection went through before the plugin watched it.
        const serverStarted = new Date(now().getTime() - uptimeS * 1000);
        if (serverStarted > processStartedAt) {
          watch.failovers += 1;
          watch.failoverAt = serverStarted;
        }
      }
      watch.runId = runId;
    }
    return {
      in_use: true,
      module,
      reachable: true,
      latencyMs,
      error: null,
      failoverAt: watch.failoverAt,
      failovers: watch.failovers,
    };
  } catch (error) {
    return {
      in_use: true,
      module,
      reachable: false,
      latencyMs: null,
      error: (error as Error)?.message?.slice(0, 200) ?? String(error),
      failoverAt: watch.failoverAt,
      failovers: watch.failovers,
    };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The card's `redis` line: ok without Redis (nothing to check) and when it answers; broken when
 * it does not (Medusa's events, locks and workflows wait on it); a warning for an hour after a
 * failover, then ok again, still saying when the last one was.
 */
export function redisLine(probe: RedisProbe, now: Date): HealthLine {
  if (!probe.in_use) {
    return { id: "redis", state: "ok", value: null, detail: { in_use: false }, action: null };
  }
  const detail: Record<string, unknown> = {
    in_use: true,
    module: probe.module,
    reachable: probe.reachable,
    latency_ms: probe.latencyMs,
    failovers: probe.failovers,
    failover_at: probe.failoverAt ? probe.failoverAt.toISOString() : null,
  };
  if (!probe.reachable) {
    return {
      id: "redis",
      state: "broken",
      value: null,
      detail: { ...detail, error: probe.error, reason: "redis_unreachable" },
      action: "check_redis",
    };
  }
  const recent =
    probe.failoverAt !== null && now.getTime() - probe.failoverAt.getTime() < FAILOVER_WARNING_MS;
  return recent
    ? {
        id: "redis",
        state: "warning",
        value: probe.latencyMs,
        detail: { ...detail, reason: "redis_failover" },
        action: "check_redis",
      }
    : { id: "redis", state: "ok", value: probe.latencyMs, detail, action: null };
}
