import type { Store } from '@support/application';
import { Query, update as applyOperators, updateMany as applyPipeline } from 'mingo';
import { BSON, MongoServerError, ObjectId, type ClientSession, type Collection, type Document } from 'mongodb';
import { collectionNames, type CollectionKey } from '../../src/collections.js';
import { collectionsOf, type MongoContext } from '../../src/context.js';
import { repositoriesOn } from '../../src/store.js';
import { defaultSearchSettings, type SearchSettings } from '../../src/options.js';
import { indexesOf, queryRefusal, type SortDocument } from './index-rules.js';
import { EngineCore, EngineSession, keysOf, type SnapshotSource, type Staged } from './engine-transactions.js';
import { mongoSort } from './mongo-order.js';

// An independent engine for the adapter's documents: the repositories run unchanged on it,
// with every filter and update evaluated by mingo (an implementation of MongoDB's query and
// update language that shares nothing with the adapter), sorts in MongoDB's documented order
// (mongo-order.ts), unique indexes enforced with 11000 errors like the server's, and every
// document stored and returned through BSON (serialize, then deserialize), as the wire does.
// Each sorted or hinted query is also checked against the declared indexes by MongoDB's
// rules (index-rules.ts): a query that would need an in-memory SORT fails loudly.
//
// Sessions and transactions (engine-transactions.ts): snapshot reads, writes staged until the
// commit shows them all at once, WriteConflict on a document another open transaction wrote
// or that changed since the snapshot. Operations interleave at their awaits, so concurrent
// callers really do race. It is not MongoDB (one node, no TTL monitor, no write concern, no
// durability): the contract suites on a real mongod remain the word of record.

type Doc = Document;

const throughBson = <T extends Doc>(d: T): T => BSON.deserialize(BSON.serialize(d)) as T;

/** Every query the engine answered, for tests that inspect what the adapter sent. */
export interface SentQuery {
  readonly collection: CollectionKey;
  readonly op: string;
  readonly filter: Doc;
  readonly sort?: SortDocument;
  readonly hint?: unknown;
}

interface FindOptions {
  readonly projection?: Doc;
  readonly sort?: SortDocument;
  readonly skip?: number;
  readonly limit?: number;
  readonly hint?: unknown;
}

const isOperatorUpdate = (u: unknown): u is Doc =>
  typeof u === 'object' && u !== null && !Array.isArray(u) && Object.keys(u).every((k) => k.startsWith('$'));

/** The document an upsert starts from: the filter's top-level equalities (MongoDB's rule). */
const seedOf = (filter: Doc): Doc => {
  const seed: Doc = {};
  for (const [k, v] of Object.entries(filter) as [string, unknown][]) {
    if (k.startsWith('$')) continue;
    const isOperator =
      typeof v === 'object' &&
      v !== null &&
      !(v instanceof Date) &&
      !Array.isArray(v) &&
      Object.keys(v).some((x) => x.startsWith('$'));
    if (!isOperator) seed[k] = v;
  }
  return seed;
};

export interface EngineOptions {
  /**
   * 'require' (the default): a sorted or hinted query that no declared index serves without
   * an in-memory sort fails. 'ignore': such queries are answered anyway.
   */
  readonly indexedSorts?: 'require' | 'ignore';
  /** The ticket search plan to pin (default: by cost, as in production). */
  readonly search?: Partial<SearchSettings>;
}

/** A top-level projection, as the server applies it: all inclusions (and `_id` unless excluded) or all exclusions. */
const projected = (d: Doc, projection: Doc): Doc => {
  const entries = Object.entries(projection) as [string, unknown][];
  const truthy = (v: unknown): boolean => v !== 0 && v !== false;
  // {_id: 1} alone includes the _id only; otherwise _id does not decide the kind.
  const including =
    entries.some(([k, v]) => k !== '_id' && truthy(v)) ||
    (entries.length > 0 && entries.every(([k, v]) => k === '_id' && truthy(v)));
  if (!including) return Object.fromEntries(Object.entries(d).filter(([k]) => projection[k] === undefined));
  const keep = new Set(entries.filter(([, v]) => truthy(v)).map(([k]) => k));
  if (projection['_id'] === undefined) keep.add('_id');
  return Object.fromEntries(Object.entries(d).filter(([k]) => keep.has(k)));
};

/** mingo's compiled filters, by their text (a search sends the same few filters many times). */
const queries = new Map<string, Query>();
const compiled = (filter: Doc): Query => {
  const key = JSON.stringify(filter);
  let q = queries.get(key);
  if (q === undefined) {
    if (queries.size > 10_000) queries.clear();
    queries.set(key, (q = new Query(filter)));
  }
  return q;
};

/** A failure the engine raises on purpose: after `skip` runs of `op` that go through, the next `times` runs change `partial` documents, then throw `error`. */
export interface Fault {
  readonly op: 'updateMany' | 'deleteMany';
  skip?: number;
  readonly partial: number;
  readonly error: Error;
  times: number;
}

/** The part of the driver's FindCursor the adapter uses. */
class EngineCursor {
  private options: FindOptions;
  constructor(
    options: FindOptions,
    private readonly run: (options: FindOptions) => Promise<Doc[]>,
  ) {
    this.options = { ...options };
  }
  sort(sort: SortDocument): this {
    this.options = { ...this.options, sort };
    return this;
  }
  skip(skip: number): this {
    this.options = { ...this.options, skip };
    return this;
  }
  limit(limit: number): this {
    this.options = { ...this.options, limit };
    return this;
  }
  project<T = Doc>(projection: Doc): EngineCursor & { next(): Promise<T | null>; toArray(): Promise<T[]> } {
    this.options = { ...this.options, projection };
    return this as never;
  }
  toArray(): Promise<Doc[]> {
    return this.run(this.options);
  }
  async next(): Promise<Doc | null> {
    return (await this.toArray())[0] ?? null;
  }
}

/** Options every operation may carry; a session in a transaction makes it part of that transaction. */
interface OpOptions {
  readonly session?: unknown;
}

/** One document's change: what it was (null: inserted) and what it becomes (null: deleted). */
interface Change {
  readonly current: Doc | null;
  readonly next: Doc | null;
}

class EngineCollection implements SnapshotSource {
  private committed: Doc[] = [];
  /** Whether a transaction's snapshot holds `committed`: the next commit copies it first. */
  private shared = false;
  readonly faults: Fault[] = [];
  constructor(
    readonly key: CollectionKey,
    private readonly core: EngineCore,
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

  private record(op: string, filter: Doc, options: FindOptions = {}): void {
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
  private view(options: OpOptions): Doc[] {
    const txn = EngineSession.transactionOf(options.session);
    return txn === null ? this.committed : txn.view(this.key);
  }

  /** Runs a read; an error inside a transaction aborts it, as on the server. */
  private reading<R>(options: OpOptions, read: (docs: Doc[]) => R): Promise<R> {
    const txn = EngineSession.transactionOf(options.session);
    try {
      return Promise.resolve(read(this.view(options)));
    } catch (e) {
      if (txn !== null) this.core.abort(txn);
      return Promise.reject(e instanceof Error ? e : new Error(String(e)));
    }
  }

  private matching(filter: Doc, docs: readonly Doc[]): Doc[] {
    const query = compiled(filter);
    return docs.filter((d) => query.test(d));
  }

  /** Throws E11000 like the server when `candidate` would duplicate a unique key of another document of `docs`. */
  private checkUnique(candidate: Doc, replacing: Doc | null, docs: readonly Doc[]): void {
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
  private updated(doc: Doc, update: unknown, inserting: boolean): Doc {
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

  private read(d: Doc, projection?: Doc): Doc {
    const copy = throughBson(d);
    return projection === undefined ? copy : projected(copy, projection);
  }

  /** The fault armed for `op`, if any, counted down. */
  private fault(op: Fault['op']): Fault | undefined {
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
  private async write<R>(
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

  insertOne(doc: Doc, options: OpOptions = {}) {
    const withId = '_id' in doc ? doc : { _id: new ObjectId(), ...doc };
    return this.write(options, null, () => ({
      changes: [{ current: null, next: withId }],
      result: { acknowledged: true, insertedId: withId['_id'] as unknown },
    }));
  }

  /** Ordered, as the driver's default: documents before a duplicate stay inserted, the rest are not tried. */
  async insertMany(docs: readonly Doc[], options: OpOptions = {}) {
    const ids: unknown[] = [];
    for (const d of docs) ids.push((await this.insertOne(d, options)).insertedId);
    return {
      acknowledged: true,
      insertedCount: ids.length,
      insertedIds: Object.fromEntries(ids.map((id, i) => [i, id])),
    };
  }

  /** A cursor as the driver's: options and chained sort/skip/limit/project alike, run when read. */
  find(filter: Doc, options: FindOptions & OpOptions = {}) {
    return new EngineCursor(options, (o) =>
      this.reading(options, (docs) => {
        this.record('find', filter, o);
        const matches = this.matching(filter, docs);
        const ordered = o.sort === undefined ? matches : mongoSort(matches, o.sort);
        const from = o.skip ?? 0;
        const page = ordered.slice(from, o.limit === undefined || o.limit === 0 ? undefined : from + o.limit);
        return page.map((d) => this.read(d, o.projection));
      }),
    );
  }

  async findOne(filter: Doc, options: FindOptions & OpOptions = {}) {
    return (await this.find(filter, { ...options, limit: 1 }).toArray())[0] ?? null;
  }

  countDocuments(filter: Doc, options: FindOptions & OpOptions = {}) {
    return this.reading(options, (docs) => {
      this.record('count', filter, { ...(options.hint === undefined ? {} : { hint: options.hint }) });
      const n = this.matching(filter, docs).length;
      return options.limit === undefined || options.limit === 0 ? n : Math.min(n, options.limit);
    });
  }

  async estimatedDocumentCount() {
    return Promise.resolve(this.committed.length);
  }

  replaceOne(filter: Doc, replacement: Doc, options: { upsert?: boolean } & OpOptions = {}) {
    return this.write(options, null, (docs) => {
      const [current] = this.matching(filter, docs);
      if (current === undefined) {
        if (options.upsert !== true)
          return { changes: [], result: { acknowledged: true, matchedCount: 0, modifiedCount: 0, upsertedCount: 0 } };
        return {
          changes: [{ current: null, next: { ...seedOf(filter), ...replacement } }],
          result: { acknowledged: true, matchedCount: 0, modifiedCount: 0, upsertedCount: 1 },
        };
      }
      return {
        changes: [{ current, next: { ...replacement, _id: current['_id'] as unknown } }],
        result: { acknowledged: true, matchedCount: 1, modifiedCount: 1, upsertedCount: 0 },
      };
    });
  }

  updateOne(filter: Doc, update: unknown, options: { upsert?: boolean } & OpOptions = {}) {
    return this.write(options, null, (docs) => {
      const [current] = this.matching(filter, docs);
      if (current === undefined) {
        if (options.upsert !== true)
          return { changes: [], result: { acknowledged: true, matchedCount: 0, modifiedCount: 0, upsertedCount: 0 } };
        return {
          changes: [{ current: null, next: this.updated(seedOf(filter), update, true) }],
          result: { acknowledged: true, matchedCount: 0, modifiedCount: 0, upsertedCount: 1 },
        };
      }
      return {
        changes: [{ current, next: this.updated(current, update, false) }],
        result: { acknowledged: true, matchedCount: 1, modifiedCount: 1, upsertedCount: 0 },
      };
    });
  }

  updateMany(filter: Doc, update: unknown, options: OpOptions = {}) {
    return this.write(options, 'updateMany', (docs) => {
      this.record('updateMany', filter);
      const matched = this.matching(filter, docs);
      const changes = matched.map((current) => ({ current, next: this.updated(current, update, false) }));
      return {
        changes,
        result: { acknowledged: true, matchedCount: matched.length, modifiedCount: matched.length, upsertedCount: 0 },
      };
    });
  }

  deleteOne(filter: Doc, options: OpOptions = {}) {
    return this.write(options, null, (docs) => {
      const [current] = this.matching(filter, docs);
      return {
        changes: current === undefined ? [] : [{ current, next: null }],
        result: { acknowledged: true, deletedCount: current === undefined ? 0 : 1 },
      };
    });
  }

  deleteMany(filter: Doc, options: OpOptions = {}) {
    return this.write(options, 'deleteMany', (docs) => {
      this.record('deleteMany', filter);
      const gone = this.matching(filter, docs);
      return {
        changes: gone.map((current) => ({ current, next: null })),
        result: { acknowledged: true, deletedCount: gone.length },
      };
    });
  }

  /** Driver 7's result: the document (before, unless returnDocument is 'after'), or null when nothing matched and nothing was upserted. */
  async findOneAndReplace(
    filter: Doc,
    replacement: Doc,
    options: { upsert?: boolean; returnDocument?: 'before' | 'after'; projection?: Doc } & OpOptions = {},
  ) {
    const { change, before } = await this.write<{ change: { next: Doc } | null; before: Doc | null }>(
      options,
      null,
      (docs) => {
        const [current] = this.matching(filter, docs);
        if (current === undefined) {
          const change =
            options.upsert === true ? { current: null, next: { ...seedOf(filter), ...replacement } } : null;
          return { changes: change === null ? [] : [change], result: { change, before: null } };
        }
        const change = { current, next: { ...replacement, _id: current['_id'] as unknown } };
        return { changes: [change], result: { change, before: this.read(current, options.projection) } };
      },
    );
    if (change === null) return null;
    return options.returnDocument === 'after' ? this.read(change.next, options.projection) : before;
  }

  async findOneAndUpdate(
    filter: Doc,
    update: unknown,
    options: { upsert?: boolean; returnDocument?: 'before' | 'after'; projection?: Doc } & OpOptions = {},
  ) {
    const { change, before } = await this.write<{ change: { next: Doc } | null; before: Doc | null }>(
      options,
      null,
      (docs) => {
        const [current] = this.matching(filter, docs);
        if (current === undefined) {
          const change =
            options.upsert === true ? { current: null, next: this.updated(seedOf(filter), update, true) } : null;
          return { changes: change === null ? [] : [change], result: { change, before: null } };
        }
        const change = { current, next: this.updated(current, update, false) };
        return { changes: [change], result: { change, before: this.read(current, options.projection) } };
      },
    );
    if (change === null) return null;
    return options.returnDocument === 'after' ? this.read(change.next, options.projection) : before;
  }
}

export interface Engine {
  readonly ctx: MongoContext;
  /** Every query the repositories sent, in order. */
  readonly sent: SentQuery[];
  /** How many times a bulk write was left to the repair pass. */
  repairsScheduled: number;
  /** Transactions: tests arm commit faults here. */
  readonly core: EngineCore;
  /** Set to a reason to play a deployment without transactions (a standalone accepted read-only). */
  transactionsRefused: string | null;
  collection(key: CollectionKey): EngineCollection;
}

/** A fresh, empty engine and the adapter's context on it. */
export const mingoEngine = (options: EngineOptions = {}): Engine => {
  const sent: SentQuery[] = [];
  const core = new EngineCore();
  const collections = new Map<CollectionKey, EngineCollection>();
  const collection = (key: CollectionKey): EngineCollection => {
    let c = collections.get(key);
    if (c === undefined) collections.set(key, (c = new EngineCollection(key, core, sent, options)));
    return c;
  };
  // The adapter asks its Db for collections by name; the engine answers with its own.
  const byName = new Map<string, CollectionKey>(
    Object.entries(collectionNames).map(([k, name]) => [name, k as CollectionKey]),
  );
  const keyOf = (name: string): CollectionKey => {
    const key = byName.get(name);
    if (key === undefined) throw new Error(`the adapter asked for an unknown collection "${name}"`);
    return key;
  };
  const db = { collection: (name: string) => collection(keyOf(name)) as unknown as Collection };
  const engine: Engine = {
    sent,
    collection,
    core,
    repairsScheduled: 0,
    transactionsRefused: null,
    ctx: {
      ...collectionsOf(db as never),
      sessions: {
        startSession: () => new EngineSession(core) as unknown as ClientSession,
        transactionsRefused: () => engine.transactionsRefused,
      },
      maxTimeMS: 10_000,
      search: { ...defaultSearchSettings, ...options.search },
      run: (op) => op(),
      scheduleRepair: () => {
        engine.repairsScheduled += 1;
      },
    } satisfies MongoContext,
  };
  return engine;
};

/** Every port of the Mongo adapter, on a fresh engine. */
export const engineStore = (options: EngineOptions = {}): Store & { readonly engine: Engine } => {
  const engine = mingoEngine(options);
  return { ...repositoriesOn(engine.ctx), health: { ping: () => Promise.resolve(true) }, engine };
};
