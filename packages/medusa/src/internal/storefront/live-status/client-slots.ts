/**
 * Per-process counts of what each client holds (open streams), so one client cannot make one
 * instance hold without bound. A cache of this process's own work: nothing another instance
 * needs. (Re-checks are counted per client across instances, in records/refresh-windows.ts.)
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
