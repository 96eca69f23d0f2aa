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
/** A rough size of a value in memory (strings at two bytes a character): enough to bound a budget, cheap on the write path. */
export const approximateBytes = (value: unknown): number => {
  if (typeof value === 'string') return 16 + 2 * value.length;
  if (value === null || typeof value !== 'object') return 8;
  let bytes = 16;
  if (Array.isArray(value)) for (const item of value) bytes += 8 + approximateBytes(item);
  else for (const key of Object.keys(value)) bytes += 8 + approximateBytes((value as Record<string, unknown>)[key]);
  return bytes;
};

/** The memory feed's default budget: what a long-running demo may spend on it at most. */
export const defaultFeedBytes = 256 * 1024 * 1024;

export class MemoryEventLog implements RecordingEventLog {
  /** The kept changes from `head` on, oldest first: the last one has seq `newest`, so each one's seq is implied by its place. */
  private kept: (ChangeEvent | undefined)[] = [];
  private sizes: number[] = [];
  private head = 0;
  private bytes = 0;
  private newest = 0;
  private readonly waiters = new Set<() => void>();

  /** `maxBytes`: the feed forgets its oldest events beyond this (approximate) size, as it does beyond its retention. */
  constructor(private readonly maxBytes = defaultFeedBytes) {}

  /**
   * Called by the repositories, synchronously, with a change a write made. The records in the
   * events are the repositories' own stored copies, which are never changed in place (a write
   * stores a new copy), so they are kept as they are; readers get copies. The write path pays
   * one push and a walk of the change to size it.
   */
  record(change: ChangeEvent): void {
    const size = approximateBytes(change);
    this.kept.push(change);
    this.sizes.push(size);
    this.bytes += size;
    this.newest += 1;
    // The newest event stays, whatever its size: the feed's newest seq must stay readable.
    while (this.bytes > this.maxBytes && this.kept.length - this.head > 1) this.dropOldest();
    if (this.waiters.size > 0) this.wakeAll();
  }

  /** Every change of a write that changed several resources (a rename reaching many tickets). */
  append(changes: readonly ChangeEvent[]): void {
    for (const change of changes) this.record(change);
  }

  private dropOldest(): void {
    this.bytes -= this.sizes[this.head] ?? 0;
    this.kept[this.head] = undefined;
    this.head += 1;
    // Compact once the dropped front is most of the array: amortised O(1) per event.
    if (this.head >= 1024 && this.head * 2 >= this.kept.length) {
      this.kept = this.kept.slice(this.head);
      this.sizes = this.sizes.slice(this.head);
      this.head = 0;
    }
  }

  private wakeAll(): void {
    const woken = [...this.waiters];
    this.waiters.clear();
    for (const wake of woken) wake();
  }

  private get count(): number {
    return this.kept.length - this.head;
  }

  private firstSeq(): number {
    return this.newest - this.count + 1;
  }

  after(after: number, limit: number): Promise<readonly StoredEvent[]> {
    return answer(() => {
      const first = this.firstSeq();
      const start = Math.max(0, after - first + 1);
      const out: StoredEvent[] = [];
      for (let i = start; i < this.count && out.length < limit; i += 1) {
        const e = this.kept[this.head + i];
        if (e !== undefined) out.push({ ...structuredClone(e), seq: first + i });
      }
      return out;
    });
  }

  bounds(): Promise<{ readonly oldest: number | null; readonly newest: number }> {
    return answer(() => ({ oldest: this.count === 0 ? null : this.firstSeq(), newest: this.newest }));
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
      while (this.count > 0 && (this.kept[this.head]?.occurredAt ?? Infinity) < before) this.dropOldest();
    });
  }
}
