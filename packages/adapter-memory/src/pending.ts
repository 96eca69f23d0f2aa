import type { RecordChange, RecordKey } from './records.js';

const keyOf = (key: RecordKey): string => (Array.isArray(key) ? key.join('\u0000') : String(key));

/**
 * The commits not yet settled, by table and by record: what a read waits for so that it never
 * shows a change a crash could still take back. A read of one record waits only for the
 * pending commits that change that record; a read of many (a search, a list) for every pending
 * commit of the tables it reads.
 */
export class PendingCommits {
  // Map: journal: commits in flight, by table
  private readonly byTable = new Map<string, Promise<void>>();
  // Map: journal: commits in flight, by record
  private readonly byRecord = new Map<string, Map<string, Promise<void>>>();

  /** Notes the changes a commit holds until it settles (succeeds or fails). */
  track(changes: readonly RecordChange[], done: Promise<void>): void {
    for (const c of changes) {
      this.byTable.set(c.table, done);
      let records = this.byRecord.get(c.table);
      if (records === undefined) {
        // Map: journal: commits in flight for the records of one table
        records = new Map<string, Promise<void>>();
        this.byRecord.set(c.table, records);
      }
      const key = keyOf(c.key);
      records.set(key, done);
      const settled = (): void => {
        if (this.byTable.get(c.table) === done) this.byTable.delete(c.table);
        if (records.get(key) === done) records.delete(key);
      };
      done.then(settled, settled);
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
    if (waits.length === 0) return Promise.resolve(result);
    return (waits.length === 1 ? (waits[0] as Promise<void>) : Promise.all(waits)).then(() => result);
  }

  /** `result` once the pending commit (if any) that changes one record has settled. */
  afterRecord<T>(table: string, key: RecordKey, result: T): Promise<T> {
    const pending = this.byRecord.get(table)?.get(keyOf(key));
    return pending === undefined ? Promise.resolve(result) : pending.then(() => result);
  }
}
