import { answer } from './answer.js';
import { BigMap } from './big-map.js';
import { ClaimGuard } from './claim-guard.js';
import { PendingCommits } from './pending.js';
import {
  journalTables,
  type ChangeSink,
  type JournalTable,
  type RecordChange,
  type RecordKey,
  type Restorer,
} from './records.js';
import { DurableShelf, MapShelf, type Shelf, type ShelfReader, type ShelfTable, type ShelvedTable } from './shelf.js';

export {
  journalTables,
  storedAsIs,
  type ChangeSink,
  type JournalTable,
  type RecordChange,
  type RecordKey,
  type Restorer,
} from './records.js';

/** Keys in a map of one table, and how a key of the map names its record there. */
type KeyOf<K> = (key: K) => RecordKey;

/** A map that reports every set and delete to its journal: the one place a durable store learns of a write. */
// Map: journal: the tracked map itself
class TrackedMap<K, V> extends BigMap<K, V> {
  constructor(
    private readonly journal: Journal,
    private readonly table: string,
    private readonly keyOf: KeyOf<K>,
  ) {
    super();
  }

  override set(key: K, value: V): this {
    const before = super.get(key);
    super.set(key, value);
    this.journal.noteTracked(this.table, this.keyOf(key), value, before);
    return this;
  }

  override delete(key: K): boolean {
    const before = super.get(key);
    const had = super.delete(key);
    if (had) this.journal.noteTracked(this.table, this.keyOf(key), undefined, before);
    return had;
  }
}

const asKey = (key: unknown): RecordKey => key as RecordKey;

/**
 * The memory store's write path: each port call runs synchronously (atomic for every
 * concurrent caller) through `run`, and the records it changed in the tracked maps go to the
 * sink as one commit. Without a sink this is the plain memory store.
 */
export class Journal {
  private changes: RecordChange[] | null = null;
  private loading = false;
  /** The commits not yet settled: what reads wait for. */
  private readonly pending = new PendingCommits();
  // Map: journal: its own bookkeeping
  private readonly restorers = new Map<string, (key: RecordKey, value: unknown) => void>();
  // Map: journal: its own bookkeeping
  private readonly finishers = new Map<string, () => void>();
  // Map: journal: its own bookkeeping
  private readonly shelves = new Map<string, DurableShelf<unknown>>();
  private sealed = false;
  /** A request's first durable write marks its Idempotency-Key claim in the same commit (claim-guard.ts). */
  readonly claims = new ClaimGuard();

  /** `read`: how the durable store reads a shelved record (needed with a sink). */
  constructor(
    private readonly sink: ChangeSink | null,
    private readonly read: ShelfReader | null = null,
  ) {}

  /** A map of a table (no 2^24 cap for numeric keys: big-map.ts) whose every change is journalled; `keyOf` turns a map key into the record's key. */
  map<K, V>(table: JournalTable, keyOf: KeyOf<K> = asKey): Map<K, V> {
    // After the seal, only a table with its restorer (the messages of a ticket seen for the first time).
    if (this.sealed && !this.restorers.has(table)) throw new Error(`the ${table} table has no restorer`);
    // Map: journal: without a sink nothing is durable
    return this.sink === null ? new BigMap<K, V>() : new TrackedMap<K, V>(this, table, keyOf);
  }

  /** A shelf: records written in the port call's commit; with a sink, read from the durable store once durable, not held in memory. */
  shelf<V>(table: ShelvedTable): Shelf<V> {
    if (this.sink === null) return new MapShelf<V>();
    if (this.read === null) throw new Error(`a durable store needs a reader for the ${table} shelf`);
    const shelf = new DurableShelf<unknown>(table, (t, key, value) => this.note(t, key, value), this.read);
    this.shelves.set(table, shelf);
    return shelf as Shelf<V>;
  }

  /**
   * How a stored record of `table` is put back into the memory store's tables and indexes (at
   * start): read through the table's `upgrade` step (a record written before a field existed
   * gets its default: the domain's upgradeTicket...; a table whose records never changed shape
   * says so with `storedAsIs`), then `restore`d; `finish`, when given, runs once every record
   * is back (an index built in bulk). Exactly one per table: a second is a bug, and so is a
   * table with none once the engine is sealed.
   */
  restorer<Stored, T>(table: JournalTable, how: Restorer<Stored, T>): void {
    if (this.sealed) throw new Error(`the ${table} restorer comes after the engine was sealed`);
    if (this.restorers.has(table)) throw new Error(`the ${table} table has two restorers`);
    this.restorers.set(table, (key, value) => {
      how.restore(key, how.upgrade(value as Stored));
    });
    if (how.finish !== undefined) this.finishers.set(table, how.finish);
  }

  /**
   * Every table of `journalTables` has its restorer and is kept in a journalled map: checked
   * once the engine is built (createMemoryEngine), so a port that keeps records the durable
   * store could not restore fails at start, not at the first restart. No restorer comes after.
   */
  seal(): void {
    const unrestored = journalTables.filter((t) => !this.restorers.has(t));
    if (unrestored.length > 0)
      throw new Error(`the memory store keeps ${unrestored.join(', ')} without a restorer: a restart would lose them`);
    this.sealed = true;
  }

  /** A change a port call made outside a tracked map (the change feed's events, a shelf's records); null while loading. */
  note(table: string, key: RecordKey, value: unknown): RecordChange | null {
    if (this.loading) return null;
    if (this.changes === null) throw new Error(`a ${table} record changed outside a journalled port call`);
    const change = { table, key, value };
    this.changes.push(change);
    return change;
  }

  /** A change of a tracked map, with the value its record had before (what a search compares: pending.ts); null while loading. */
  noteTracked(table: string, key: RecordKey, value: unknown, before: unknown): void {
    if (this.loading) return;
    if (this.changes === null) throw new Error(`a ${table} record changed outside a journalled port call`);
    this.changes.push({ table, key, value, before } as RecordChange);
  }

  /** Whether a change made now goes to a durable store (what `noteRow` notes). */
  get durable(): boolean {
    return this.sink !== null && !this.loading;
  }

  /**
   * A change of a table a repository keeps outside a tracked map (the tickets, whose custom
   * values live in columns: ticket-table.ts), noted as a tracked map notes its own: the
   * record's new value and the one it had before (undefined: none). Nothing unless `durable`.
   */
  noteRow(table: JournalTable, key: RecordKey, value: unknown, before: unknown): void {
    if (this.durable) this.noteTracked(table, key, value, before);
  }

  /** Runs `work`, a request holding the claim `key` of `owner`, so that its first durable write marks the claim (ClaimGuard). */
  guarded<T>(key: string, owner: string, work: () => Promise<T>): Promise<T> {
    return this.claims.guarded(this.sink !== null, key, owner, work);
  }

  /** Puts stored records back, without journalling them again. */
  restore(records: Iterable<{ readonly table: string; readonly key: RecordKey; readonly value: unknown }>): void {
    this.loading = true;
    try {
      const restored = new Set<string>();
      for (const { table, key, value } of records) {
        const restore = this.restorers.get(table);
        if (restore === undefined) throw new Error(`no table ${table} to restore a record into`);
        restore(key, value);
        restored.add(table);
      }
      for (const table of restored) this.finishers.get(table)?.();
    } finally {
      this.loading = false;
    }
  }

  /**
   * The way a repository runs its port calls: each answers once its changes are durable; one
   * that changed nothing answers once every change of `reads` (the tables the repository
   * reads) that it could have seen is durable, so no answer shows a change that a crash could
   * still take back. A write need not wait for the commits before it: its own commit comes
   * after them, and is refused with them.
   */
  runner(reads: readonly (JournalTable | ShelfTable)[]): <T>(operation: () => T) => Promise<T> {
    return (operation) => this.run(operation, reads, true);
  }

  /**
   * The id sequences' way: a call answers at once and its commit follows. An id is shown to no
   * one by itself, only by the write that uses it, whose own commit comes after this one (or
   * in the same transaction) and is refused with it: that write's answer proves the id durable.
   * A POST then waits for one sync, not two in a row. A durable store that reloads memory after
   * a failed commit must keep the ids that calls were given (see the embedded store).
   */
  aheadRunner(reads: readonly JournalTable[]): <T>(operation: () => T) => Promise<T> {
    return (operation) => this.run(operation, reads, false);
  }

  /**
   * The way a repository reads one record of `table` by its key: like `runner`, but a call that
   * changed nothing waits only for the pending commit that changes that record, not for
   * unrelated writes to the table (a read of ticket 1 does not wait for a PATCH of ticket 2).
   */
  recordRunner(table: JournalTable): <T>(key: RecordKey, operation: () => T) => Promise<T> {
    return (key, operation) => this.run(operation, [table], true, key);
  }

  /**
   * The way a repository answers a search or a list over `table`: like `runner`, but a call
   * that changed nothing waits only for the pending commits of the records that `affects` its
   * answer (given the answer and a record's durable value and pending values, undefined for no
   * record; tickets: page-affected.ts), not for unrelated writes to the table. `affects` must
   * say true whenever the answer could differ with any of the values.
   */
  viewRunner(
    table: JournalTable,
  ): <T>(operation: () => T, affects: (answer: T, versions: readonly unknown[]) => boolean) => Promise<T> {
    return (operation, affects) =>
      this.run(operation, [table], true, undefined, (result) =>
        this.pending.afterView(table, result, (versions) => affects(result, versions)),
      );
  }

  private run<T>(
    operation: () => T,
    reads: readonly string[],
    answerWhenDurable: boolean,
    record?: RecordKey,
    view?: (result: T) => Promise<T>,
  ): Promise<T> {
    const sink = this.sink;
    if (sink === null) return answer(operation);
    if (this.changes !== null) throw new Error('a port call ran inside another one');
    this.changes = [];
    let result: T;
    try {
      result = operation();
    } catch (e) {
      // A bug: the call threw after changing what it changed; those changes still go to the sink,
      // so that the durable copy never lags behind what memory holds.
      const changes = this.changes;
      this.changes = null;
      if (changes.length > 0) void this.commit(sink, changes).catch(() => undefined);
      return Promise.reject(e instanceof Error ? e : new Error(String(e)));
    }
    // An id taken ahead is shown to no one by itself: only a real write marks a claim.
    if (answerWhenDurable && this.changes.length > 0) this.claims.markRunning();
    const changes = this.changes;
    this.changes = null;
    if (changes.length > 0) {
      const durable = this.commit(sink, changes);
      if (answerWhenDurable) return durable.then(() => result);
      // Its failure reaches the write that uses the result, refused with it.
      durable.catch(() => undefined);
      return Promise.resolve(result);
    }
    if (view !== undefined) return view(result);
    return record === undefined || reads[0] === undefined
      ? this.pending.afterTables(reads, result)
      : this.pending.afterRecord(reads[0], record, result);
  }

  private commit(sink: ChangeSink, changes: readonly RecordChange[]): Promise<void> {
    const done = sink.commit(changes);
    this.pending.track(changes, done);
    for (const table of new Set(changes.map((c) => c.table))) {
      const shelf = this.shelves.get(table);
      // Once durable, a shelf's records are read from the store: memory lets them go.
      if (shelf !== undefined)
        done.then(
          () => {
            for (const c of changes) if (c.table === table) shelf.settled(c);
          },
          () => undefined,
        );
    }
    return done;
  }
}
