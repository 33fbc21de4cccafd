import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

/**
 * The version of the store's `@medusajs/framework`, or null when it cannot be read. Its
 * package.json is not in its exports map, so it is found by walking up from the entry point.
 */
export function installedMedusaVersion(): string | null {
  try {
    let dir = path.dirname(require.resolve("@medusajs/framework"));
    for (let up = 0; up < 5; up++, dir = path.dirname(dir)) {
      const file = path.join(dir, "package.json");
      if (!existsSync(file)) continue;
      const manifest = JSON.parse(readFileSync(file, "utf8")) as {
        name?: string;
        version?: string;
      };
      if (manifest.name === "@medusajs/framework") return manifest.version ?? null;
    }
  } catch {
    // Not resolvable from here: treated as unknown below.
  }
  return null;
}

/**
 * Whether Medusa's `locking.execute` holds its lock for as long as the job runs. From 2.21.0
 * it does (in memory until the job ends, in Redis renewed under it, in Postgres for the
 * transaction). Before, the in-memory and Redis providers let the lock lapse once the `timeout`
 * given for the wait has passed, and ignore `expire`, so a job longer than its wait shares the
 * key with the next taker. An unknown version counts as the older behaviour, the safe side.
 */
export function lockingHoldsForJob(version: string | null): boolean {
  const match = /^(\d+)\.(\d+)\./.exec(version ?? "");
  if (!match) return false;
  const [major, minor] = [Number(match[1]), Number(match[2])];
  return major > 2 || (major === 2 && minor >= 21);
}
