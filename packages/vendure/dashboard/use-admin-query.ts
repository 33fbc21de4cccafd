import { useEffect, useState } from "react";

/** A read of the Admin API, as the screen shows it: loading, failed with why, or its data. */
export type AdminQueryResult<T> =
  { state: "loading" } | { state: "failed"; message: string } | { state: "loaded"; data: T };

/**
 * Runs `read` when `deps` change, and again when `reload` is called (after the merchant records
 * something); a read that lost the race to a newer one is dropped.
 */
export function useAdminQuery<T>(
  read: () => Promise<T>,
  deps: unknown[],
): AdminQueryResult<T> & { reload: () => void } {
  const [result, setResult] = useState<AdminQueryResult<T>>({ state: "loading" });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let current = true;
    read().then(
      (data) => current && setResult({ state: "loaded", data }),
      (error: unknown) =>
        current &&
        setResult({
          state: "failed",
          message: error instanceof Error ? error.message : String(error),
        }),
    );
    return () => {
      current = false;
    };
    // `read` is a new function at each render: the caller's `deps` say when it reads anew.
  }, [...deps, round]);
  return { ...result, reload: () => setRound((n) => n + 1) };
}
