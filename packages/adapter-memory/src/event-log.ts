import type { EventLog } from '@support/application';
import { eventActorId, type ChangeEvent, type StoredEvent, type UserId } from '@support/domain';
import { answer } from './answer.js';
import { FeedWaiters } from './feed-waiters.js';

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
  private readonly waiters = new FeedWaiters();
  /**
   * The seqs of each user's changes, ascending (GET /v1/events?actor_id=): derived from
   * `kept`, trimmed when old events are forgotten.
   */
  // Map: derived: from the events the feed keeps (the embedded store keeps the feed in LMDB)
  private readonly byActor = new Map<number, number[]>();

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
    const actor = eventActorId(change.actor);
    if (actor !== null) {
      const seqs = this.byActor.get(actor);
      if (seqs === undefined) this.byActor.set(actor, [this.newest]);
      else seqs.push(this.newest);
    }
    // The newest event stays, whatever its size: the feed's newest seq must stay readable.
    while (this.bytes > this.maxBytes && this.kept.length - this.head > 1) this.dropOldest();
    this.waiters.wakeAll();
  }

  /** Every change of a write that changed several resources (a rename reaching many tickets). */
  append(changes: readonly ChangeEvent[]): void {
    for (const change of changes) this.record(change);
  }

  private dropOldest(): void {
    // The oldest event is the oldest of its actor's too: its seq leaves the front of their list.
    const dropped = this.kept[this.head];
    const actor = dropped === undefined ? null : eventActorId(dropped.actor);
    if (actor !== null) {
      const seqs = this.byActor.get(actor);
      seqs?.shift();
      if (seqs?.length === 0) this.byActor.delete(actor);
    }
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

  private get count(): number {
    return this.kept.length - this.head;
  }

  private firstSeq(): number {
    return this.newest - this.count + 1;
  }

  after(after: number, limit: number, actorId?: UserId): Promise<readonly StoredEvent[]> {
    return answer(() => {
      const first = this.firstSeq();
      if (actorId !== undefined) {
        const seqs = this.byActor.get(actorId) ?? [];
        const from = firstAbove(seqs, Math.max(after, first - 1));
        return seqs
          .slice(from, from + Math.max(0, limit))
          .map((seq) => ({ ...structuredClone(this.kept[this.head + seq - first] as ChangeEvent), seq }));
      }
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
    return this.waiters.wait(this.newest > after, signal);
  }

  forget(before: number): Promise<void> {
    return answer(() => {
      while (this.count > 0 && (this.kept[this.head]?.occurredAt ?? Infinity) < before) this.dropOldest();
    });
  }
}

/** The index of the first seq above `seq` in an ascending list (its length when none is). */
const firstAbove = (seqs: readonly number[], seq: number): number => {
  let lo = 0;
  let hi = seqs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((seqs[mid] as number) <= seq) lo = mid + 1;
    else hi = mid;
  }
  return lo;
};
