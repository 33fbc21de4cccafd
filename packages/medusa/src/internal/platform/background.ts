/**
 * A small in-process work queue with a concurrency cap. Webhook processing runs after the
 * answer; capping it keeps a burst of deliveries from starving the requests that store and
 * answer new ones. Nothing here needs to survive the process: deliveries are already stored
 * and the reconciliation job picks up any the process did not finish.
 */
export class BackgroundQueue {
  private running = 0;
  private readonly waiting: (() => Promise<void>)[] = [];

  constructor(
    private readonly concurrency: number,
    private readonly maxWaiting = Number.POSITIVE_INFINITY,
  ) {}

  /**
   * Queues `work`; errors are the work's own business (it logs and records them). Returns
   * false, dropping the work, when `maxWaiting` jobs already wait: callers only queue work
   * that is stored and picked up again elsewhere.
   */
  push(work: () => Promise<void>): boolean {
    if (this.waiting.length >= this.maxWaiting) return false;
    this.waiting.push(work);
    this.drain();
    return true;
  }

  /** Number of jobs queued or running (for tests and diagnostics). */
  get size(): number {
    return this.running + this.waiting.length;
  }

  private drain(): void {
    while (this.running < this.concurrency && this.waiting.length > 0) {
      const work = this.waiting.shift()!;
      this.running += 1;
      void work()
        .catch(() => undefined)
        .finally(() => {
          this.running -= 1;
          this.drain();
        });
    }
  }
}
