// A Redis database of its own for a bench that runs Medusa's production topology (event bus,
// workflow engine, locking on Redis). Two such benches side by side (the smoke run takes two at
// a time), or two clones benchmarking on one machine, would otherwise share one database: each
// empties it at start, and one's workers take the other's jobs.
//
// A database is taken by a lease key inside it (SET NX with an expiry, renewed while the bench
// runs), so a bench that is killed frees its database by itself. The one taken is emptied first
// (what a killed run left would run against its dropped PostgreSQL database), in the same
// transaction that writes the lease back. Databases 7 and 8 are the scale suites', 0 anyone's.
import { randomUUID } from "node:crypto";

const CANDIDATES = [11, 12, 13, 14, 15, 9, 10];
const LEASE_KEY = "pix-checkout:bench-lease";
const LEASE_SECONDS = 15 * 60;

/**
 * Takes a Redis database for this bench: BENCH_REDIS_URL as given (emptied, as before), else the
 * first free one of CANDIDATES on `server`. Resolves with its URL and `release()`.
 * @param {string} [server]
 * @returns {Promise<{ url: string, release: () => Promise<void> }>}
 */
export async function leaseRedisDatabase(server = "redis://127.0.0.1:6379") {
  const { default: Redis } = await import("ioredis");
  const given = process.env.BENCH_REDIS_URL;
  if (given) {
    const redis = new Redis(given, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect();
    await redis.flushdb();
    redis.disconnect();
    return { url: given, release: async () => {} };
  }
  const token = `${process.pid}:${randomUUID()}`;
  for (const db of CANDIDATES) {
    const url = `${server}/${db}`;
    const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect();
    const taken = await redis.set(LEASE_KEY, token, "EX", LEASE_SECONDS, "NX");
    if (taken !== "OK") {
      redis.disconnect();
      continue;
    }
    await redis.multi().flushdb().set(LEASE_KEY, token, "EX", LEASE_SECONDS).exec();
    const renew = setInterval(() => {
      void redis.expire(LEASE_KEY, LEASE_SECONDS).catch(() => undefined);
    }, 60_000);
    renew.unref();
    return {
      url,
      async release() {
        clearInterval(renew);
        try {
          if ((await redis.get(LEASE_KEY)) === token) await redis.flushdb();
        } finally {
          redis.disconnect();
        }
      },
    };
  }
  throw new Error(
    `Every Redis database a bench may use (${CANDIDATES.join(", ")}) at ${server} is taken by another bench running now; wait for it, or set BENCH_REDIS_URL.`,
  );
}
