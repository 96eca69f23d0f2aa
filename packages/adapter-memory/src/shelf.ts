import type { RecordChange, RecordKey } from './records.js';

/**
 * The tables whose records are written in a port call's transaction like any other, but that
 * a durable store does not hold in memory: they are only appended or replaced and read back
 * by key, and they are the big ones (an Idempotency-Key's kept answer, a webhook's delivery
 * log). The memory engine keeps what it must decide on (a key's claim, a log's span) and reads
 * the rest from the store when it is asked for.
 */
export const shelfTables = ['answers', 'deliveryLog'] as const;
export type ShelfTable = (typeof shelfTables)[number];

/**
 * A table that is shelved and also loaded at start (it is in `journalTables`): its restorer
 * builds what memory keeps of each record (a message's number and flags in its ticket's
 * thread), and the record itself is read from the store by key when asked for. The messages
 * are most of a large store's records and the heap holds every loaded byte (docs/embedded-store.md,
 * "Known limits").
 */
export type ShelvedTable = ShelfTable | 'messages';

/** How a durable store reads a shelved record: its durable value, or undefined. */
export type ShelfReader = (table: ShelvedTable, key: RecordKey) => unknown;

/** Records read and written by key; values are plain data, never changed in place. */
export interface Shelf<V> {
  get(key: RecordKey): V | undefined;
  set(key: RecordKey, value: V): void;
  delete(key: RecordKey): void;
  /** A record a start loaded (the table's restorer): the memory store keeps it, a durable one reads it from the store. */
  restored(key: RecordKey, value: V): void;
}

const keyText = (key: RecordKey): string | number => (typeof key === 'object' ? JSON.stringify(key) : key);

/** The memory store's shelf: a map, since nothing else holds the records. */
export class MapShelf<V> implements Shelf<V> {
  // Map: journal: the shelf of a store without a sink (memory only)
  private readonly records = new Map<string | number, V>();

  get(key: RecordKey): V | undefined {
    return this.records.get(keyText(key));
  }

  set(key: RecordKey, value: V): void {
    this.records.set(keyText(key), value);
  }

  delete(key: RecordKey): void {
    this.records.delete(keyText(key));
  }

  restored(key: RecordKey, value: V): void {
    this.set(key, value);
  }
}

/**
 * A durable store's shelf: a change is held in memory only until its commit is durable, then
 * read from the store. Until then it must be held here, since the store does not have it yet
 * (a read that shows it still answers only once it is durable: the journal's runner waits).
 */
export class DurableShelf<V> implements Shelf<V> {
  // Map: journal: shelved records until their commit is durable
  private readonly pending = new Map<string | number, RecordChange>();

  constructor(
    private readonly table: ShelvedTable,
    private readonly note: (table: string, key: RecordKey, value: unknown) => RecordChange | null,
    private readonly read: ShelfReader,
  ) {}

  get(key: RecordKey): V | undefined {
    const change = this.pending.get(keyText(key));
    return (change === undefined ? this.read(this.table, key) : change.value) as V | undefined;
  }

  set(key: RecordKey, value: V): void {
    this.hold(this.note(this.table, key, value));
  }

  delete(key: RecordKey): void {
    this.hold(this.note(this.table, key, undefined));
  }

  /** The store holds it: nothing to keep. */
  restored(): void {
    return;
  }

  /** A commit holding `change` is durable: unless changed since, the record is read from the store from now on. */
  settled(change: RecordChange): void {
    const k = keyText(change.key);
    if (this.pending.get(k) === change) this.pending.delete(k);
  }

  private hold(change: RecordChange | null): void {
    if (change !== null) this.pending.set(keyText(change.key), change);
  }
}
