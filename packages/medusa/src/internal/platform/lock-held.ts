/**
 * Whether an error of Medusa's locking module means "another instance holds this lock": its
 * providers (in-memory, Redis, Postgres) all reject a wait that ran out with exactly this
 * message. Anything else (a database or Redis failure, a bug in the job) is a real failure
 * and must be seen, not taken for a busy lock.
 */
export function isLockHeld(error: unknown): boolean {
  return (error as Error | undefined)?.message === "Timed-out acquiring lock.";
}
