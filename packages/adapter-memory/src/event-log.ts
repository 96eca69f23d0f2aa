import type { EventLog } from '@support/application';
import type { ChangeEvent, StoredEvent } from '@support/domain';
import { answer } from './answer.js';

/** Where the repositories record the changes they make, in the same synchronous step as the write. */
export interface ChangeRecorder {
  record(change: ChangeEvent): void;
  /** Every change of a write that changed several resources (a rename reaching many tickets). */
  append(changes: readonly ChangeEvent[]): void;
}

/** A change feed the memory store's repositories write to. */
export type RecordingEventLog = EventLog & ChangeRecorder;

/**
 * The change feed in memory. Repositories append inside the same synchronous step as their
 * write, so seq order is commit order and a reader can never see a hole. Events are forgotten
 * from the oldest on, which keeps the kept ones a contiguous run of seqs.
 */
export class MemoryEventLog implements RecordingEventLog {
  /** The kept changes, oldest first: the last one has seq `newest`, so each one's seq is implied by its place. */
  private kept: ChangeEvent[] = [];
  private newest = 0;
  private readonly waiters = new Set<() => void>();

  /**
   * Called by the repositories, synchronously, with a change a write made. The records in the
   * events are the repositories' own stored copies, which are never changed in place (a write
   * stores a new copy), so they are kept as they are; readers get copies. The write path pays
   * one push.
   */
  record(change: ChangeEvent): void {
    this.kept.push(change);
    this.newest += 1;
    if (this.waiters.size > 0) this.wakeAll();
  }

  /** Every change of a write that changed several resources (a rename reaching many tickets). */
  append(changes: readonly ChangeEvent[]): void {
    for (const change of changes) this.record(change);
  }

  private wakeAll(): void {
    const woken = [...this.waiters];
    this.waiters.clear();
    for (const wake of woken) wake();
  }

  private firstSeq(): number {
    return this.newest - this.kept.length + 1;
  }

  after(after: number, limit: number): Promise<readonly StoredEvent[]> {
    return answer(() => {
      const first = this.firstSeq();
      const start = Math.max(0, after - first + 1);
      return this.kept.slice(start, start + Math.max(0, limit)).map((e, i) => ({ ...structuredClone(e), seq: first + start + i }));
    });
  }

  bounds(): Promise<{ readonly oldest: number | null; readonly newest: number }> {
    return answer(() => ({ oldest: this.kept.length === 0 ? null : this.firstSeq(), newest: this.newest }));
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
