/**
 * The readers waiting for the feed to pass a seq (EventLog.waitFor): each is woken once, by
 * the next news or its signal, and leaves nothing on the signal afterwards.
 */
export class FeedWaiters {
  private readonly waiters = new Set<() => void>();

  /** Resolves at once when `ready`; else at the next `wakeAll` or when `signal` aborts. */
  wait(ready: boolean, signal: AbortSignal): Promise<void> {
    if (ready || signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        this.waiters.delete(done);
        signal.removeEventListener('abort', done);
        resolve();
      };
      this.waiters.add(done);
      signal.addEventListener('abort', done, { once: true });
    });
  }

  /** Wakes every waiting reader (they read again, and wait again when nothing they want came). */
  wakeAll(): void {
    if (this.waiters.size === 0) return;
    const woken = [...this.waiters];
    this.waiters.clear();
    for (const wake of woken) wake();
  }
}
