import { MongoServerError, MongoTransactionError, ObjectId, type Document } from 'mongodb';
import type { CollectionKey } from '../../src/collections.js';
import { indexesOf } from './index-rules.js';

// Sessions and multi-document transactions for the engine, after MongoDB's documented
// behaviour (WiredTiger snapshot isolation, "Transactions and Operations", "In-progress
// Transactions and Write Conflicts"):
//   - a transaction reads one snapshot, taken at its first operation, with its own writes on
//     top; nobody else sees those writes until the commit, which shows all of them at once;
//   - a write is a write to keys: the document's _id and each of its unique index entries. A
//     transaction writing a key that another open transaction has written, or that was
//     committed after its snapshot, fails at once with WriteConflict (112, labelled
//     TransientTransactionError) and is aborted: the first writer wins, the other retries;
//   - any error inside a transaction aborts it; a later operation in it gets NoSuchTransaction
//     (251, TransientTransactionError), as the server answers;
//   - a write outside a transaction to a key an open transaction holds waits until that
//     transaction ends (the server retries such a conflict internally), then goes ahead;
//   - commitTransaction applies every write of the transaction in one step.
// What it cannot show: durability and the majority commit point (there is one node, and a
// commit is visible the moment it returns), oplog holes (a commit is one synchronous step
// here), lock timeouts (maxTransactionLockRequestTimeoutMillis), transaction size and
// lifetime limits, and read-your-writes across two sessions; the real-mongod suite covers
// the transactions on a server.

type Doc = Document;

const labelled = (message: string, code: number, codeName: string): MongoServerError =>
  new MongoServerError({ message, errmsg: message, code, codeName, errorLabels: ['TransientTransactionError'] });

export const writeConflict = (): MongoServerError =>
  labelled(
    'WriteConflict error: this operation conflicted with another operation. Please retry your operation or multi-document transaction.',
    112,
    'WriteConflict',
  );

const noSuchTransaction = (): MongoServerError => labelled('Transaction has been aborted.', 251, 'NoSuchTransaction');

/** A key value as text: ObjectIds by hex, Dates by instant, the rest as JSON. */
const keyText = (v: unknown): string =>
  v instanceof ObjectId
    ? `oid:${v.toHexString()}`
    : v instanceof Date
      ? `date:${v.toISOString()}`
      : JSON.stringify(v ?? null);

/** The `_id` of a document as an overlay key. */
export const idKey = (d: Doc): string => keyText(d['_id']);

/** The keys a document occupies: its _id and one entry per unique index. */
export const keysOf = (collection: CollectionKey, d: Doc | null): string[] =>
  d === null
    ? []
    : indexesOf(collection)
        .filter((index) => index.name === '_id_' || index.unique === true)
        .map(
          (index) =>
            `${collection}|${index.name}|${Object.keys(index.key)
              .map((f) => keyText(d[f]))
              .join(',')}`,
        );

/** One document's change inside a transaction: its snapshot version (null: inserted here) and its latest. */
export interface Staged {
  readonly base: Doc | null;
  next: Doc | null;
}

/** What a collection gives the transactions: a snapshot of its committed documents, and a committed change. */
export interface SnapshotSource {
  readonly key: CollectionKey;
  share(): Doc[];
  applyCommitted(staged: readonly Staged[]): void;
}

/** A commit that fails as a server's can: with the writes applied (a write-concern timeout) or not (a failover). */
export interface CommitFault {
  readonly error: MongoServerError;
  readonly applied: boolean;
}

export class EngineTransaction {
  state: 'active' | 'aborted' | 'committed' = 'active';
  private snapshotAt = -1;
  private snapshot = new Map<CollectionKey, Doc[]>();
  readonly staged = new Map<CollectionKey, Map<string, Staged>>();
  readonly keys = new Set<string>();
  constructor(private readonly core: EngineCore) {}

  /** The snapshot, taken at the transaction's first operation. */
  private begin(): void {
    if (this.snapshotAt >= 0) return;
    this.snapshotAt = this.core.clock;
    for (const source of this.core.sources) this.snapshot.set(source.key, source.share());
  }

  /** Fails as the server does once the transaction has been aborted. */
  check(): void {
    if (this.state !== 'active') throw noSuchTransaction();
    this.begin();
  }

  /** The collection as this transaction sees it: the snapshot, its own writes on top. */
  view(collection: CollectionKey): Doc[] {
    this.check();
    const base = this.snapshot.get(collection) ?? [];
    const mine = this.staged.get(collection);
    if (mine === undefined) return base;
    const out: Doc[] = [];
    for (const d of base) {
      const s = mine.get(idKey(d));
      if (s === undefined) out.push(d);
      else if (s.next !== null) out.push(s.next);
    }
    for (const s of mine.values()) if (s.base === null && s.next !== null) out.push(s.next);
    return out;
  }

  /** Takes the keys of a change (WriteConflict when another holds one or changed it after the snapshot), then stages it. */
  stage(collection: CollectionKey, current: Doc | null, next: Doc | null): void {
    this.check();
    const keys = [...keysOf(collection, current), ...keysOf(collection, next)];
    for (const k of keys) {
      const holder = this.core.locks.get(k);
      if ((holder !== undefined && holder !== this) || (this.core.committedAt.get(k) ?? -1) > this.snapshotAt) {
        this.core.conflicts += 1;
        throw this.core.conflictError();
      }
    }
    for (const k of keys) {
      this.core.locks.set(k, this);
      this.keys.add(k);
    }
    let mine = this.staged.get(collection);
    if (mine === undefined) this.staged.set(collection, (mine = new Map<string, Staged>()));
    const id = idKey((current ?? next)!);
    const earlier = mine.get(id);
    if (earlier === undefined) mine.set(id, { base: current, next });
    else earlier.next = next;
  }
}

/** The clock, the key locks and the commit of every transaction of one engine. */
export class EngineCore {
  clock = 0;
  readonly committedAt = new Map<string, number>();
  readonly locks = new Map<string, EngineTransaction>();
  readonly sources: SnapshotSource[] = [];
  /** Armed by tests: the next commits fail like this, one each. */
  readonly commitFaults: CommitFault[] = [];
  /** What a write conflict answers: MongoDB's labelled WriteConflict, unless a test plays another engine's answer. */
  conflictError: () => MongoServerError = writeConflict;
  /**
   * How an upsert whose filter is only `_id` inserts, outside a transaction, when nothing
   * matches. 'atomic', MongoDB's: in the same step (the server retries its own duplicate-key
   * race). 'replace', DocumentDB 0.108's (docs/mongodb.md, D3): INSERT ... ON CONFLICT DO UPDATE
   * with the document computed from nothing, after a pause in which others can insert the same
   * `_id` too: the later insert replaces the earlier one and nobody gets an error (two first
   * increments both answer 1). In a snapshot transaction (the adapter's) both conflict.
   */
  upsertById: 'atomic' | 'replace' = 'atomic';
  /** WriteConflicts raised so far (tests check that concurrency really met the conflict path). */
  conflicts = 0;
  private waiters: (() => void)[] = [];

  /** Whether any of these keys is held by an open transaction. */
  held(keys: readonly string[]): boolean {
    return keys.some((k) => this.locks.has(k));
  }

  /** Resolves when a transaction next ends. */
  released(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** A write outside a transaction has changed these keys. */
  committed(keys: readonly string[]): void {
    this.clock += 1;
    for (const k of keys) this.committedAt.set(k, this.clock);
  }

  private end(txn: EngineTransaction, state: 'aborted' | 'committed'): void {
    for (const k of txn.keys) if (this.locks.get(k) === txn) this.locks.delete(k);
    txn.state = state;
    const woken = this.waiters;
    this.waiters = [];
    for (const wake of woken) wake();
  }

  abort(txn: EngineTransaction): void {
    if (txn.state === 'active') this.end(txn, 'aborted');
  }

  /** Applies every staged write at once (one synchronous step), or fails as an armed fault says. */
  commit(txn: EngineTransaction): void {
    if (txn.state !== 'active') throw noSuchTransaction();
    const fault = txn.staged.size > 0 ? this.commitFaults.shift() : undefined;
    if (fault !== undefined && !fault.applied) {
      this.abort(txn);
      throw fault.error;
    }
    for (const source of this.sources) {
      const staged = txn.staged.get(source.key);
      if (staged !== undefined) source.applyCommitted([...staged.values()]);
    }
    this.committed([...txn.keys]);
    this.end(txn, 'committed');
    if (fault !== undefined) throw fault.error;
  }
}

/** The part of the driver's ClientSession the adapter uses, over the engine's transactions. */
export class EngineSession {
  private state: 'none' | 'in progress' | 'committed' | 'aborted' = 'none';
  private txn: EngineTransaction | null = null;
  constructor(private readonly core: EngineCore) {}

  /** The open transaction of a session passed in an operation's options, if any. */
  static transactionOf(session: unknown): EngineTransaction | null {
    return session instanceof EngineSession && session.state === 'in progress' ? session.txn : null;
  }

  startTransaction(): void {
    if (this.state === 'in progress') throw new MongoTransactionError('Transaction already in progress');
    this.txn = new EngineTransaction(this.core);
    this.state = 'in progress';
  }

  inTransaction(): boolean {
    return this.state === 'in progress';
  }

  commitTransaction(): Promise<void> {
    if (this.state !== 'in progress' || this.txn === null)
      return Promise.reject(new MongoTransactionError('No transaction started'));
    try {
      this.core.commit(this.txn);
      return Promise.resolve();
    } catch (e) {
      return Promise.reject(e instanceof Error ? e : new Error(String(e)));
    } finally {
      this.state = 'committed';
    }
  }

  /** As the driver's: the server's own failure to abort is ignored. */
  abortTransaction(): Promise<void> {
    if (this.txn !== null && this.state === 'in progress') this.core.abort(this.txn);
    this.state = 'aborted';
    return Promise.resolve();
  }

  endSession(): Promise<void> {
    if (this.state === 'in progress' && this.txn !== null) this.core.abort(this.txn);
    this.state = 'none';
    return Promise.resolve();
  }
}
