/**
 * Per-process counts of what each client holds or spends (open streams, re-checks of the
 * minute), so one client, or every client at once, cannot make one instance hold or spend
 * without bound. A cache of this process's own work: nothing another instance needs.
 */

const openStreams = new Map<string, number>();

/**
 * Takes one of a client's `max` stream slots on this instance. Returns the release, or
 * undefined when the client holds all of them.
 */
export function takeStreamSlot(clientKey: string, max: number): (() => void) | undefined {
  const held = openStreams.get(clientKey) ?? 0;
  if (held >= max) return undefined;
  openStreams.set(clientKey, held + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const now = (openStreams.get(clientKey) ?? 1) - 1;
    if (now <= 0) openStreams.delete(clientKey);
    else openStreams.set(clientKey, now);
  };
}

let refreshMinute = 0;
let refreshesThisMinute = 0;

/**
 * Takes one of this instance's `perMinute` re-checks of the current minute. Returns 0 when
 * taken, else the milliseconds until the next minute opens.
 */
export function takeRefresh(perMinute: number, now = Date.now()): number {
  const minute = Math.floor(now / 60_000);
  if (minute !== refreshMinute) {
    refreshMinute = minute;
    refreshesThisMinute = 0;
  }
  if (refreshesThisMinute >= perMinute) return (minute + 1) * 60_000 - now;
  refreshesThisMinute += 1;
  return 0;
}
