/**
 * Re-evaluates `check` until it returns a value other than undefined/false, for things
 * that happen in another process with no event to await (a webhook processed by Medusa).
 */
export async function waitFor<T>(
  check: () => Promise<T | undefined | false>,
  what: string,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}${last ? `: ${(last as Error).message}` : ""}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
