import type { RecordChange, RecordKey } from './records.js';

const keyOf = (key: RecordKey): string => (Array.isArray(key) ? key.join('\u0000') : String(key));

/** A record's value before a change is not known (a change not made through a tracked map). */
const unknown: unique symbol = Symbol('unknown');

/** A record with pending commits: its value before them, and the value each of them writes. */
interface PendingRecord {
  /** The durable value (undefined: no record), or `unknown`. */
  base: unknown;
  readonly versions: { readonly value: unknown; readonly done: Promise<void> }[];
}

/**
 * The commits not yet settled, by table and by record: what a read waits for so that it never
 * shows a change a crash could still take back. A read of one record waits only for the
 * pending commits that change that record; a search or a list (`afterView`) only for those of
 * the records whose versions could change its answer; any other read of many records for every
 * pending commit of the tables it reads.
 */
export class PendingCommits {
  // Map: journal: commits in flight, by table
  private readonly byTable = new Map<string, Promise<void>>();
  // Map: journal: commits in flight, by record
  private readonly byRecord = new Map<string, Map<string, PendingRecord>>();

  /** Notes the changes a commit holds until it settles (succeeds or fails); `before`: the value a tracked map's record had. */
  track(changes: readonly (RecordChange & { readonly before?: unknown })[], done: Promise<void>): void {
    for (const c of changes) {
      this.byTable.set(c.table, done);
      let records = this.byRecord.get(c.table);
      if (records === undefined) {
        // Map: journal: commits in flight for the records of one table
        records = new Map<string, PendingRecord>();
        this.byRecord.set(c.table, records);
      }
      const key = keyOf(c.key);
      let record = records.get(key);
      if (record === undefined) {
        record = { base: 'before' in c ? c.before : unknown, versions: [] };
        records.set(key, record);
      }
      record.versions.push({ value: c.value, done });
      const pending = record;
      const table = c.table;
      done.then(
        () => {
          if (this.byTable.get(table) === done) this.byTable.delete(table);
          // Commits settle in order: this one's values, and every earlier one's, are durable.
          let last = -1;
          pending.versions.forEach((v, i) => {
            if (v.done === done) last = i;
          });
          if (last < 0) return;
          pending.base = pending.versions[last]?.value;
          pending.versions.splice(0, last + 1);
          if (pending.versions.length === 0 && records.get(key) === pending) records.delete(key);
        },
        () => {
          // A failed commit stops the store (every later call is refused): nothing to keep.
          if (this.byTable.get(table) === done) this.byTable.delete(table);
          if (records.get(key) === pending) records.delete(key);
        },
      );
    }
  }

  /** `result` once every pending commit of `tables` has settled (rejected when one fails). */
  afterTables<T>(tables: readonly string[], result: T): Promise<T> {
    if (this.byTable.size === 0) return Promise.resolve(result);
    const waits: Promise<void>[] = [];
    for (const table of tables) {
      const pending = this.byTable.get(table);
      if (pending !== undefined) waits.push(pending);
    }
    return settledThen(waits, result);
  }

  /** `result` once the pending commit (if any) that changes one record has settled. */
  afterRecord<T>(table: string, key: RecordKey, result: T): Promise<T> {
    const pending = this.byRecord.get(table)?.get(keyOf(key));
    const newest = pending?.versions[pending.versions.length - 1];
    return newest === undefined ? Promise.resolve(result) : newest.done.then(() => result);
  }

  /**
   * `result` once the pending commits of every record of `table` that `affects` it have
   * settled: `affects` is given the record's durable value and the value of each of its
   * pending commits (undefined: no record), and says whether the answer could differ with any
   * of them. A record whose durable value is not known affects every answer.
   */
  afterView<T>(table: string, result: T, affects: (versions: readonly unknown[]) => boolean): Promise<T> {
    const records = this.byRecord.get(table);
    if (records === undefined || records.size === 0) return Promise.resolve(result);
    const waits: Promise<void>[] = [];
    for (const record of records.values()) {
      const newest = record.versions[record.versions.length - 1];
      if (newest === undefined) continue;
      if (record.base === unknown || affects([record.base, ...record.versions.map((v) => v.value)]))
        waits.push(newest.done);
    }
    return settledThen(waits, result);
  }
}

const settledThen = <T>(waits: readonly Promise<void>[], result: T): Promise<T> => {
  if (waits.length === 0) return Promise.resolve(result);
  return (waits.length === 1 ? (waits[0] as Promise<void>) : Promise.all(waits)).then(() => result);
};
