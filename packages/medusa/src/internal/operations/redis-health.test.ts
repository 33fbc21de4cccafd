import Redis from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { asValue } from "@medusajs/framework/awilix";
import { createMedusaContainer, Modules } from "@medusajs/framework/utils";
import RedisEventBusService from "@medusajs/event-bus-redis/dist/services/event-bus-redis";
import {
  FAILOVER_WARNING_MS,
  probeRedis,
  redisLine,
  storeRedis,
  type RedisConnection,
} from "./redis-health";

// The machine's Redis (the integration and chaos suites use the same one).
const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const open: Redis[] = [];
const connect = (url = REDIS_URL, options: Record<string, unknown> = {}) => {
  const connection = new Redis(url, { maxRetriesPerRequest: 1, ...options });
  connection.on("error", () => undefined);
  open.push(connection);
  return connection;
};
afterAll(() => {
  for (const connection of open) connection.disconnect();
});

const now = new Date("2026-11-27T12:00:00Z");
const probe = (over: Partial<Extract<Parameters<typeof redisLine>[0], { in_use: true }>> = {}) =>
  ({
    in_use: true,
    module: "event-bus-redis",
    reachable: true,
    latencyMs: 2,
    error: null,
    failoverAt: null,
    failovers: 0,
    ...over,
  }) as const;

describe("the health card's redis line", () => {
  it("says a store without Redis has none, and is ok: nothing to check", () => {
    expect(redisLine({ in_use: false }, now)).toEqual({
      id: "redis",
      state: "ok",
      value: null,
      detail: { in_use: false },
      action: null,
    });
  });

  it("is ok with the PING's time when Redis answers", () => {
    expect(redisLine(probe(), now)).toMatchObject({
      state: "ok",
      value: 2,
      action: null,
      detail: { module: "event-bus-redis", reachable: true, failovers: 0, failover_at: null },
    });
  });

  it("is broken when Redis does not answer, saying why", () => {
    const line = redisLine(probe({ reachable: false, latencyMs: null, error: "timeout" }), now);
    expect(line).toMatchObject({
      state: "broken",
      action: "check_redis",
      detail: { reason: "redis_unreachable", error: "timeout" },
    });
  });

  it("warns for an hour after a failover, then keeps saying when it was", () => {
    const recent = new Date(now.getTime() - 10 * 60_000);
    expect(redisLine(probe({ failoverAt: recent, failovers: 1 }), now)).toMatchObject({
      state: "warning",
      action: "check_redis",
      detail: { reason: "redis_failover", failover_at: recent.toISOString(), failovers: 1 },
    });
    const old = new Date(now.getTime() - FAILOVER_WARNING_MS - 1);
    const line = redisLine(probe({ failoverAt: old, failovers: 1 }), now);
    expect(line).toMatchObject({ state: "ok", detail: { failover_at: old.toISOString() } });
    expect(line.detail.reason).toBeUndefined();
  });
});

describe("reading the store's Redis", () => {
  it("finds the connection of Medusa's Redis event bus, and none in a store without it", async () => {
    const container = createMedusaContainer();
    expect(storeRedis(container)).toBeNull();
    const connection = connect();
    const logger = { info: () => undefined, warn: () => undefined, error: () => undefined };
    const bus = new RedisEventBusService(
      { logger, eventBusRedisConnection: connection } as never,
      {},
      { scope: "internal", resources: "shared", worker_mode: "server" } as never,
    );
    container.register(Modules.EVENT_BUS, asValue(bus));
    expect(storeRedis(container)).toEqual({ module: "event-bus-redis", connection });
    await (bus as unknown as { queue_: { close(): Promise<void> } }).queue_.close();
  });

  it("PINGs a Redis that answers: reachable, no failover since a process that started after it", async () => {
    const connection = connect();
    const read = await probeRedis(
      { module: "event-bus-redis", connection: connection as unknown as RedisConnection },
      new Date(),
    );
    expect(read).toMatchObject({ in_use: true, reachable: true, failovers: 0, failoverAt: null });
    expect(read.in_use && read.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it("counts a connection lost and made again as a failover, at the moment it came back", async () => {
    const connection = connect();
    const found = {
      module: "event-bus-redis",
      connection: connection as unknown as RedisConnection,
    };
    await probeRedis(found, new Date());
    // Redis drops the connection (as a failover or restart does); ioredis makes it again.
    const id = await connection.client("ID");
    const before = Date.now();
    await connect().client("KILL", "ID", String(id));
    await new Promise<void>((resolve) => connection.once("ready", () => resolve()));
    const read = await probeRedis(found, new Date());
    expect(read).toMatchObject({ reachable: true, failovers: 1 });
    const at = read.in_use ? read.failoverAt!.getTime() : 0;
    expect(at).toBeGreaterThanOrEqual(before);
    expect(redisLine(read, new Date())).toMatchObject({ state: "warning", action: "check_redis" });
  });

  it("sees a Redis younger than this process as a failover before the plugin watched, at its start", async () => {
    const connection = connect();
    const uptime = Number(/uptime_in_seconds:(\d+)/.exec(await connection.info("server"))?.[1]);
    const read = await probeRedis(
      { module: "event-bus-redis", connection: connection as unknown as RedisConnection },
      new Date(Date.now() - (uptime + 3_600) * 1000),
    );
    expect(read).toMatchObject({ reachable: true, failovers: 1 });
    const expected = Date.now() - uptime * 1000;
    const at = read.in_use ? read.failoverAt!.getTime() : 0;
    expect(Math.abs(at - expected)).toBeLessThan(5_000);
  });

  it("says a Redis that does not answer is unreachable, within the PING's limit", async () => {
    // Nothing listens on port 9 (discard); ioredis gives up without retrying.
    const connection = connect("redis://127.0.0.1:9", {
      retryStrategy: () => null,
      enableOfflineQueue: false,
    });
    const started = Date.now();
    const read = await probeRedis(
      { module: "cache-redis", connection: connection as unknown as RedisConnection },
      new Date(),
    );
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(read).toMatchObject({ in_use: true, module: "cache-redis", reachable: false });
    expect(redisLine(read, new Date())).toMatchObject({
      state: "broken",
      detail: { reason: "redis_unreachable" },
    });
  });
});
