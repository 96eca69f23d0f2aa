import type { EventLog } from '@support/application';
import type { ChangeEvent, StoredEvent } from '@support/domain';
import { answer } from './answer.js';

/**
 * The change feed in memory. Repositories append inside the same synchronous step as their
 * write, so seq order is commit order and a reader can never see a hole. Events are forgotten
 * from the oldest on, which keeps the kept ones a contiguous run of seqs.
 */
export class MemoryEventLog implements EventLog {
  private kept: StoredEvent[] = [];
  private newest = 0;
  private readonly waiters = new Set<() => void>();

  /** Called by the repositories, synchronously, with every change a write made. */
  append(changes: readonly ChangeEvent[]): void {
    if (changes.length === 0) return;
    for (const change of changes) {
      this.newest += 1;
      this.kept.push({ seq: this.newest, ...structuredClone(change) });
    }
    const woken = [...this.waiters];
    this.waiters.clear();
    for (const wake of woken) wake();
  }

  after(after: number, limit: number): Promise<readonly StoredEvent[]> {
    return answer(() => {
      const first = this.kept[0];
      if (first === undefined) return [];
      const start = Math.max(0, after - first.seq + 1);
      return this.kept.slice(start, start + Math.max(0, limit)).map((e) => structuredClone(e));
    });
  }

  bounds(): Promise<{ readonly oldest: number | null; readonly newest: number }> {
    return answer(() => ({ oldest: this.kept[0]?.seq ?? null, newest: this.newest }));
  }

  waitFor(after: number, signal: AbortSignal): Promise<void> {
    if (this.newest > after || signal.aborted) return Promise.resolve();
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

  forget(before: number): Promise<void> {
    return answer(() => {
      let drop = 0;
      while (drop < this.kept.length && (this.kept[drop]?.occurredAt ?? Infinity) < before) drop += 1;
      if (drop > 0) this.kept = this.kept.slice(drop);
    });
  }
}
