import { update as applyOperators, updateMany as applyPipeline } from 'mingo';
import { MongoServerError } from 'mongodb';
import { collectionNames, type CollectionKey } from '../../src/collections.js';
import { indexesOf, queryRefusal } from './index-rules.js';
import { EngineSession, keysOf, type EngineCore, type SnapshotSource, type Staged } from './engine-transactions.js';
import {
  compiled,
  isOperatorUpdate,
  projected,
  throughBson,
  type Change,
  type Doc,
  type EngineOptions,
  type Fault,
  type FindOptions,
  type OpOptions,
  type SentQuery,
} from './mingo-documents.js';

// A collection of the mingo engine (mingo-engine.ts), its storage half: the committed documents,
// what a caller sees (in or out of a transaction), the index checks, unique keys, updates and
// the one write path. The driver's operations on top are in mingo-collection.ts.
export class StoredCollection implements SnapshotSource {
  private committed: Doc[] = [];
  /** Whether a transaction's snapshot holds `committed`: the next commit copies it first. */
  private shared = false;
  readonly faults: Fault[] = [];
  constructor(
    readonly key: CollectionKey,
    protected readonly core: EngineCore,
    private readonly sent: SentQuery[],
    private readonly options: EngineOptions,
  ) {
    core.sources.push(this);
  }

  /** The committed documents (what a read outside a transaction sees). */
  get docs(): readonly Doc[] {
    return this.committed;
  }

  share(): Doc[] {
    this.shared = true;
    return this.committed;
  }

  private writable(): Doc[] {
    if (this.shared) {
      this.committed = [...this.committed];
      this.shared = false;
    }
    return this.committed;
  }

  applyCommitted(staged: readonly Staged[]): void {
    const docs = this.writable();
    for (const { base, next } of staged) {
      if (base === null) {
        if (next !== null) docs.push(next);
        continue;
      }
      const at = docs.indexOf(base);
      if (at < 0) throw new Error(`engine: ${this.key} lost a document a transaction changed (its keys were not held)`);
      if (next === null) docs.splice(at, 1);
      else docs[at] = next;
    }
  }

  protected record(op: string, filter: Doc, options: FindOptions = {}): void {
    this.sent.push({
      collection: this.key,
      op,
      filter,
      ...(options.sort === undefined ? {} : { sort: options.sort }),
      ...(options.hint === undefined ? {} : { hint: options.hint }),
    });
    if ((options.sort === undefined && options.hint === undefined) || this.options.indexedSorts === 'ignore') return;
    const refusal = queryRefusal(this.key, filter, options.sort, options.hint);
    if (refusal !== null)
      throw new Error(
        `${this.key}.${op}(${JSON.stringify(filter)}, sort ${JSON.stringify(options.sort)}, hint ${JSON.stringify(options.hint)}) is not served by an index: ${refusal}`,
      );
  }

  /** The documents the caller sees: the committed ones, or its transaction's snapshot with its own writes. */
  protected view(options: OpOptions): Doc[] {
    const txn = EngineSession.transactionOf(options.session);
    return txn === null ? this.committed : txn.view(this.key);
  }

  /** Runs a read; an error inside a transaction aborts it, as on the server. */
  protected reading<R>(options: OpOptions, read: (docs: Doc[]) => R): Promise<R> {
    const txn = EngineSession.transactionOf(options.session);
    try {
      return Promise.resolve(read(this.view(options)));
    } catch (e) {
      if (txn !== null) this.core.abort(txn);
      return Promise.reject(e instanceof Error ? e : new Error(String(e)));
    }
  }

  protected matching(filter: Doc, docs: readonly Doc[]): Doc[] {
    const query = compiled(filter);
    return docs.filter((d) => query.test(d));
  }

  /** Throws E11000 like the server when `candidate` would duplicate a unique key of another document of `docs`. */
  protected checkUnique(candidate: Doc, replacing: Doc | null, docs: readonly Doc[]): void {
    for (const index of indexesOf(this.key)) {
      if (index.name !== '_id_' && index.unique !== true) continue;
      const fields = Object.keys(index.key);
      const valueOf = (d: Doc, f: string): unknown => {
        const v: unknown = d[f];
        return v instanceof Date ? v.toISOString() : (v ?? null);
      };
      const keyOf = (d: Doc): string => JSON.stringify(fields.map((f) => valueOf(d, f)));
      const k = keyOf(candidate);
      if (docs.some((d) => d !== replacing && keyOf(d) === k)) {
        const keyValue = Object.fromEntries(fields.map((f) => [f, candidate[f] ?? null]));
        throw new MongoServerError({
          message: `E11000 duplicate key error collection: engine.${collectionNames[this.key]} index: ${index.name} dup key: ${JSON.stringify(keyValue)}`,
          code: 11000,
          keyPattern: index.key,
          keyValue,
        });
      }
    }
  }

  /** Applies an update (operators or a pipeline) to a copy of `doc`; `inserting` also applies $setOnInsert. */
  protected updated(doc: Doc, update: unknown, inserting: boolean): Doc {
    // Through BSON, not structuredClone: driver values (Binary, ObjectId) keep their classes.
    const copy = throughBson(doc);
    if (Array.isArray(update)) {
      // mingo puts the pipeline's output in the array's place of the input document.
      const slot = [copy];
      applyPipeline(slot, {}, update as never);
      return slot[0]!;
    }
    if (!isOperatorUpdate(update)) throw new Error(`not an update document: ${JSON.stringify(update)}`);
    const { $setOnInsert, ...operators } = update;
    if (inserting && $setOnInsert !== undefined) Object.assign(copy, throughBson($setOnInsert as Doc));
    if (Object.keys(operators).length > 0) applyOperators(copy, operators as never);
    return copy;
  }

  protected read(d: Doc, projection?: Doc): Doc {
    const copy = throughBson(d);
    return projection === undefined ? copy : projected(copy, projection);
  }

  /** The fault armed for `op`, if any, counted down. */
  protected fault(op: Fault['op']): Fault | undefined {
    const f = this.faults.find((x) => x.op === op && x.times > 0);
    if (f === undefined) return undefined;
    if ((f.skip ?? 0) > 0) {
      f.skip = (f.skip ?? 0) - 1;
      return undefined;
    }
    f.times -= 1;
    return f;
  }

  /**
   * Every write: `plan` computes its changes on the documents the caller sees; in a
   * transaction they are staged (keys taken, WriteConflict when held or changed since the
   * snapshot), outside one they are applied at once, after waiting for any transaction that
   * holds one of their keys. A fault armed for `faultOp` applies only its first `partial`
   * changes, then fails; any failure inside a transaction aborts it.
   */
  protected async write<R>(
    options: OpOptions,
    faultOp: Fault['op'] | null,
    plan: (docs: Doc[]) => { changes: Change[]; result: R },
  ): Promise<R> {
    const txn = EngineSession.transactionOf(options.session);
    for (;;) {
      try {
        const { changes, result } = plan(this.view(options));
        if (
          txn === null &&
          this.core.held(changes.flatMap((c) => [...keysOf(this.key, c.current), ...keysOf(this.key, c.next)]))
        ) {
          await this.core.released();
          continue;
        }
        const fault = faultOp === null ? undefined : this.fault(faultOp);
        for (const { current, next } of fault === undefined ? changes : changes.slice(0, fault.partial)) {
          const stored = next === null ? null : throughBson(next);
          if (txn !== null) {
            // Against what the transaction sees first (11000); then the keys (WriteConflict when another holds one).
            if (stored !== null) this.checkUnique(stored, current, txn.view(this.key));
            txn.stage(this.key, current, stored);
          } else {
            if (stored !== null) this.checkUnique(stored, current, this.committed);
            this.applyCommitted([{ base: current, next: stored }]);
            this.core.committed([...keysOf(this.key, current), ...keysOf(this.key, stored)]);
          }
        }
        if (fault !== undefined) throw fault.error;
        return result;
      } catch (e) {
        if (txn !== null) this.core.abort(txn);
        throw e;
      }
    }
  }
}
