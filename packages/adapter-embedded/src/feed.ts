import { FeedWaiters, type NoteChange, type RecordChange, type RecordingEventLog } from '@support/adapter-memory';
import { systemActor, type ChangeEvent, type StoredEvent, type UserId } from '@support/domain';
import type { Database } from 'lmdb';
import type { LmdbEnvironment } from './environment.js';

import { actorKey, feedTables, newestKey } from './feed-keys.js';

export { actorKey, feedTables } from './feed-keys.js';

type Note = NoteChange;

/**
 * How many events one commit of `forget` removes: a day's events past the retention can be
 * millions, and one transaction of them all would hold them in memory and block the loop.
 */
export const forgetBatch = 5000;

/**
 * The change feed of the embedded store, read from LMDB and never held in memory: an event
 * is written in the same transaction as the change it records and can be read once that
 * transaction is durable, never before. `seq` is handed out when the change is made (in
 * memory, in commit order); a reader sees seqs up to the newest durable one only.
 */
export class LmdbFeed implements RecordingEventLog {
  private given: number;
  private durable: number;
  private note: Note = () => {
    throw new Error('the feed is not attached to a store');
  };
  private readonly waiters = new FeedWaiters();

  constructor(
    private readonly environment: LmdbEnvironment,
    private readonly commit: (changes: readonly RecordChange[]) => Promise<void>,
    private readonly batch = forgetBatch,
  ) {
    this.durable = this.newestStored();
    this.given = this.durable;
  }

  private get events(): Database<StoredEvent, number> {
    return this.environment.table(feedTables.events) as Database<StoredEvent, number>;
  }

  private get meta(): Database<number, string> {
    return this.environment.table(feedTables.newest) as Database<number, string>;
  }

  /** Binds the feed to a (new) memory engine's journal; seqs start again after the newest durable one. */
  attach(note: Note): void {
    this.note = note;
    this.given = this.durable;
  }

  private newestStored(): number {
    let newest = this.meta.get(newestKey) ?? 0;
    for (const key of this.events.getKeys({ reverse: true, limit: 1 })) newest = Math.max(newest, key);
    return newest;
  }

  record(change: ChangeEvent): void {
    this.given += 1;
    this.note(feedTables.events, this.given, { ...change, seq: this.given });
    const byActor = actorKey({ actor: change.actor, seq: this.given });
    if (byActor !== null) this.note(feedTables.byActor, byActor, 1);
    this.note(feedTables.newest, newestKey, this.given);
  }

  append(changes: readonly ChangeEvent[]): void {
    for (const change of changes) this.record(change);
  }

  /** Called with each durable commit's changes. */
  committed(changes: readonly RecordChange[]): void {
    let newest = this.durable;
    for (const c of changes)
      if (c.table === feedTables.events && typeof c.key === 'number' && c.value !== undefined)
        newest = Math.max(newest, c.key);
    if (newest === this.durable) return;
    this.durable = newest;
    this.waiters.wakeAll();
  }

  private get byActor(): Database<number, [number, number]> {
    return this.environment.table(feedTables.byActor) as Database<number, [number, number]>;
  }

  /**
   * An event stored before actors were kept has none: it reads as the service's own. With
   * `actorId` only that user's events are read, through the per-actor index: the cost is the
   * page, not the events of others passed over.
   */
  after(after: number, limit: number, actorId?: UserId): Promise<readonly StoredEvent[]> {
    const out: StoredEvent[] = [];
    if (limit <= 0 || after >= this.durable) return Promise.resolve(out);
    const stored = (key: number, value: StoredEvent): StoredEvent => ({
      ...value,
      actor: (value as Partial<StoredEvent>).actor ?? systemActor,
      seq: key,
    });
    if (actorId === undefined) {
      for (const { key, value } of this.events.getRange({ start: after + 1, end: this.durable + 1, limit }))
        out.push(stored(key, value));
      return Promise.resolve(out);
    }
    const mine = this.byActor.getKeys({ start: [actorId, after + 1], end: [actorId, this.durable + 1], limit });
    for (const [, seq] of mine) {
      const value = this.events.get(seq);
      // Forgotten between the two reads (retention): the index entry goes in the same commit.
      if (value !== undefined) out.push(stored(seq, value));
    }
    return Promise.resolve(out);
  }

  bounds(): Promise<{ readonly oldest: number | null; readonly newest: number }> {
    let oldest: number | null = null;
    for (const key of this.events.getKeys({ limit: 1 })) oldest = key <= this.durable ? key : null;
    return Promise.resolve({ oldest, newest: this.durable });
  }

  waitFor(after: number, signal: AbortSignal): Promise<void> {
    return this.waiters.wait(this.durable > after, signal);
  }

  /**
   * Forgets the events that occurred before `before`, oldest first, `batch` events a commit (a
   * crash part-way leaves the oldest forgotten, the rest kept: the feed never has a hole). The
   * loop yields between commits, as every commit does.
   */
  async forget(before: number): Promise<void> {
    for (;;) {
      const gone: RecordChange[] = [];
      let reached = false;
      for (const { key, value } of this.events.getRange({ end: this.durable + 1, limit: this.batch })) {
        if (value.occurredAt >= before) {
          reached = true;
          break;
        }
        gone.push({ table: feedTables.events, key, value: undefined });
        const byActor = actorKey({ actor: (value as Partial<StoredEvent>).actor ?? systemActor, seq: key });
        if (byActor !== null) gone.push({ table: feedTables.byActor, key: byActor, value: undefined });
      }
      if (gone.length > 0) await this.commit(gone);
      if (reached || gone.length < this.batch) return;
    }
  }
}
