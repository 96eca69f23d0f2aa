import type { Store } from '@support/application';
import { Query, update as applyOperators, updateMany as applyPipeline } from 'mingo';
import { BSON, MongoServerError, ObjectId, type Collection, type Document } from 'mongodb';
import { collectionNames, type CollectionKey } from '../../src/collections.js';
import { collectionsOf, type MongoContext } from '../../src/context.js';
import { repositoriesOn } from '../../src/store.js';
import { defaultSearchSettings, type SearchSettings } from '../../src/ticket-search.js';
import { indexesOf, queryRefusal, type SortDocument } from './index-rules.js';
import { mongoSort } from './mongo-order.js';

// An independent engine for the adapter's documents: the repositories run unchanged on it,
// with every filter and update evaluated by mingo (an implementation of MongoDB's query and
// update language that shares nothing with the adapter), sorts in MongoDB's documented order
// (mongo-order.ts), unique indexes enforced with 11000 errors like the server's, and every
// document stored and returned through BSON (serialize, then deserialize), as the wire does.
// Each sorted or hinted query is also checked against the declared indexes by MongoDB's
// rules (index-rules.ts): a query that would need an in-memory SORT fails loudly.
//
// It is not MongoDB (no concurrency beyond single-threaded turns, no TTL monitor, no write
// concern): the contract suites on a real mongod remain the word of record.

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

const isOperatorUpdate = (u: unknown): u is Doc => typeof u === 'object' && u !== null && !Array.isArray(u) && Object.keys(u).every((k) => k.startsWith('$'));

/** The document an upsert starts from: the filter's top-level equalities (MongoDB's rule). */
const seedOf = (filter: Doc): Doc => {
  const seed: Doc = {};
  for (const [k, v] of Object.entries(filter) as [string, unknown][]) {
    if (k.startsWith('$')) continue;
    const isOperator = typeof v === 'object' && v !== null && !(v instanceof Date) && !Array.isArray(v) && Object.keys(v).some((x) => x.startsWith('$'));
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
  const including = entries.some(([k, v]) => k !== '_id' && v !== 0 && v !== false);
  if (!including) return Object.fromEntries(Object.entries(d).filter(([k]) => projection[k] === undefined));
  const keep = new Set(entries.filter(([, v]) => v !== 0 && v !== false).map(([k]) => k));
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

/** A failure the engine raises on purpose: after changing `partial` documents, the next `times` runs of `op` throw `error`. */
export interface Fault {
  readonly op: 'updateMany' | 'deleteMany';
  readonly partial: number;
  readonly error: Error;
  times: number;
}

/** The part of the driver's FindCursor the adapter uses. */
class EngineCursor {
  private options: FindOptions;
  constructor(
    options: FindOptions,
    private readonly run: (options: FindOptions) => Doc[],
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
    return Promise.resolve(this.run(this.options));
  }
  async next(): Promise<Doc | null> {
    return (await this.toArray())[0] ?? null;
  }
}

class EngineCollection {
  docs: Doc[] = [];
  readonly faults: Fault[] = [];
  constructor(
    readonly key: CollectionKey,
    private readonly sent: SentQuery[],
    private readonly options: EngineOptions,
  ) {}

  private record(op: string, filter: Doc, options: FindOptions = {}): void {
    this.sent.push({ collection: this.key, op, filter, ...(options.sort === undefined ? {} : { sort: options.sort }), ...(options.hint === undefined ? {} : { hint: options.hint }) });
    if ((options.sort === undefined && options.hint === undefined) || this.options.indexedSorts === 'ignore') return;
    const refusal = queryRefusal(this.key, filter, options.sort, options.hint);
    if (refusal !== null) throw new Error(`${this.key}.${op}(${JSON.stringify(filter)}, sort ${JSON.stringify(options.sort)}, hint ${JSON.stringify(options.hint)}) is not served by an index: ${refusal}`);
  }

  private matching(filter: Doc): Doc[] {
    const query = compiled(filter);
    return this.docs.filter((d) => query.test(d));
  }

  /** Throws E11000 like the server when `candidate` would duplicate a unique key of another document. */
  private checkUnique(candidate: Doc, replacing: Doc | null): void {
    for (const index of indexesOf(this.key)) {
      if (index.name !== '_id_' && index.unique !== true) continue;
      const fields = Object.keys(index.key);
      const valueOf = (d: Doc, f: string): unknown => {
        const v: unknown = d[f];
        return v instanceof Date ? v.toISOString() : (v ?? null);
      };
      const keyOf = (d: Doc): string => JSON.stringify(fields.map((f) => valueOf(d, f)));
      const k = keyOf(candidate);
      if (this.docs.some((d) => d !== replacing && keyOf(d) === k)) {
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

  /** Puts `next` in place of `current` (or adds it), through BSON, unique keys checked. */
  private store(current: Doc | null, next: Doc): Doc {
    const stored = throughBson(next);
    this.checkUnique(stored, current);
    if (current === null) this.docs.push(stored);
    else this.docs[this.docs.indexOf(current)] = stored;
    return stored;
  }

  private read(d: Doc, projection?: Doc): Doc {
    const copy = throughBson(d);
    return projection === undefined ? copy : projected(copy, projection);
  }

  async insertOne(doc: Doc) {
    const withId = '_id' in doc ? doc : { _id: new ObjectId(), ...doc };
    this.store(null, withId);
    return Promise.resolve({ acknowledged: true, insertedId: withId['_id'] as unknown });
  }

  /** Ordered, as the driver's default: documents before a duplicate stay inserted, the rest are not tried. */
  async insertMany(docs: readonly Doc[]) {
    const ids: unknown[] = [];
    for (const d of docs) ids.push((await this.insertOne(d)).insertedId);
    return { acknowledged: true, insertedCount: ids.length, insertedIds: Object.fromEntries(ids.map((id, i) => [i, id])) };
  }

  /** A cursor as the driver's: options and chained sort/skip/limit/project alike, run when read. */
  find(filter: Doc, options: FindOptions = {}) {
    return new EngineCursor(options, (o) => {
      this.record('find', filter, o);
      const ordered = o.sort === undefined ? this.matching(filter) : mongoSort(this.matching(filter), o.sort);
      const from = o.skip ?? 0;
      const page = ordered.slice(from, o.limit === undefined || o.limit === 0 ? undefined : from + o.limit);
      return page.map((d) => this.read(d, o.projection));
    });
  }

  async findOne(filter: Doc, options: FindOptions = {}) {
    return (await this.find(filter, { ...options, limit: 1 }).toArray())[0] ?? null;
  }

  async countDocuments(filter: Doc, options: FindOptions = {}) {
    this.record('count', filter, { ...(options.hint === undefined ? {} : { hint: options.hint }) });
    const n = this.matching(filter).length;
    return Promise.resolve(options.limit === undefined || options.limit === 0 ? n : Math.min(n, options.limit));
  }

  async estimatedDocumentCount() {
    return Promise.resolve(this.docs.length);
  }

  async replaceOne(filter: Doc, replacement: Doc, options: { upsert?: boolean } = {}) {
    const [current] = this.matching(filter);
    if (current === undefined) {
      if (options.upsert !== true) return { acknowledged: true, matchedCount: 0, modifiedCount: 0, upsertedCount: 0 };
      this.store(null, { ...seedOf(filter), ...replacement });
      return { acknowledged: true, matchedCount: 0, modifiedCount: 0, upsertedCount: 1 };
    }
    this.store(current, { ...replacement, _id: current['_id'] as unknown });
    return Promise.resolve({ acknowledged: true, matchedCount: 1, modifiedCount: 1, upsertedCount: 0 });
  }

  async updateOne(filter: Doc, update: unknown, options: { upsert?: boolean } = {}) {
    const [current] = this.matching(filter);
    if (current === undefined) {
      if (options.upsert !== true) return { acknowledged: true, matchedCount: 0, modifiedCount: 0, upsertedCount: 0 };
      this.store(null, this.updated(seedOf(filter), update, true));
      return { acknowledged: true, matchedCount: 0, modifiedCount: 0, upsertedCount: 1 };
    }
    this.store(current, this.updated(current, update, false));
    return Promise.resolve({ acknowledged: true, matchedCount: 1, modifiedCount: 1, upsertedCount: 0 });
  }

  /** The fault armed for `op`, if any, counted down. */
  private fault(op: Fault['op']): Fault | undefined {
    const f = this.faults.find((x) => x.op === op && x.times > 0);
    if (f !== undefined) f.times -= 1;
    return f;
  }

  async updateMany(filter: Doc, update: unknown) {
    this.record('updateMany', filter);
    const fault = this.fault('updateMany');
    if (fault !== undefined) {
      for (const d of this.matching(filter).slice(0, fault.partial)) this.store(d, this.updated(d, update, false));
      throw fault.error;
    }
    const matched = this.matching(filter);
    const next = matched.map((d) => this.updated(d, update, false));
    matched.forEach((d, i) => this.store(d, next[i]!));
    return Promise.resolve({ acknowledged: true, matchedCount: matched.length, modifiedCount: matched.length, upsertedCount: 0 });
  }

  async deleteOne(filter: Doc) {
    const [current] = this.matching(filter);
    if (current !== undefined) this.docs.splice(this.docs.indexOf(current), 1);
    return Promise.resolve({ acknowledged: true, deletedCount: current === undefined ? 0 : 1 });
  }

  async deleteMany(filter: Doc) {
    this.record('deleteMany', filter);
    const fault = this.fault('deleteMany');
    if (fault !== undefined) {
      const some = new Set(this.matching(filter).slice(0, fault.partial));
      this.docs = this.docs.filter((d) => !some.has(d));
      throw fault.error;
    }
    const gone = new Set(this.matching(filter));
    this.docs = this.docs.filter((d) => !gone.has(d));
    return Promise.resolve({ acknowledged: true, deletedCount: gone.size });
  }

  /** Driver 7's result: the document (before, unless returnDocument is 'after'), or null when nothing matched and nothing was upserted. */
  async findOneAndReplace(filter: Doc, replacement: Doc, options: { upsert?: boolean; returnDocument?: 'before' | 'after'; projection?: Doc } = {}) {
    const [current] = this.matching(filter);
    if (current === undefined) {
      if (options.upsert !== true) return null;
      const inserted = this.store(null, { ...seedOf(filter), ...replacement });
      return options.returnDocument === 'after' ? this.read(inserted, options.projection) : null;
    }
    const before = this.read(current, options.projection);
    const after = this.store(current, { ...replacement, _id: current['_id'] as unknown });
    return Promise.resolve(options.returnDocument === 'after' ? this.read(after, options.projection) : before);
  }

  async findOneAndUpdate(filter: Doc, update: unknown, options: { upsert?: boolean; returnDocument?: 'before' | 'after' } = {}) {
    const [current] = this.matching(filter);
    if (current === undefined) {
      if (options.upsert !== true) return null;
      const inserted = this.store(null, this.updated(seedOf(filter), update, true));
      return options.returnDocument === 'after' ? this.read(inserted) : null;
    }
    const before = this.read(current);
    const after = this.store(current, this.updated(current, update, false));
    return Promise.resolve(options.returnDocument === 'after' ? this.read(after) : before);
  }
}

export interface Engine {
  readonly ctx: MongoContext;
  /** Every query the repositories sent, in order. */
  readonly sent: SentQuery[];
  /** How many times a bulk write was left to the repair pass. */
  repairsScheduled: number;
  collection(key: CollectionKey): EngineCollection;
}

/** A fresh, empty engine and the adapter's context on it. */
export const mingoEngine = (options: EngineOptions = {}): Engine => {
  const sent: SentQuery[] = [];
  const collections = new Map<CollectionKey, EngineCollection>();
  const collection = (key: CollectionKey): EngineCollection => {
    let c = collections.get(key);
    if (c === undefined) collections.set(key, (c = new EngineCollection(key, sent, options)));
    return c;
  };
  // The adapter asks its Db for collections by name; the engine answers with its own.
  const byName = new Map<string, CollectionKey>(Object.entries(collectionNames).map(([k, name]) => [name, k as CollectionKey]));
  const keyOf = (name: string): CollectionKey => {
    const key = byName.get(name);
    if (key === undefined) throw new Error(`the adapter asked for an unknown collection "${name}"`);
    return key;
  };
  const db = { collection: (name: string) => collection(keyOf(name)) as unknown as Collection };
  const engine = {
    sent,
    collection,
    repairsScheduled: 0,
    ctx: {
      ...collectionsOf(db as never),
      maxTimeMS: 10_000,
      search: { ...defaultSearchSettings, ...options.search },
      run: (op) => op(),
      scheduleRepair: () => {
        engine.repairsScheduled += 1;
      },
    } satisfies MongoContext as MongoContext,
  };
  return engine;
};

/** Every port of the Mongo adapter, on a fresh engine. */
export const engineStore = (options: EngineOptions = {}): Store & { readonly engine: Engine } => {
  const engine = mingoEngine(options);
  return { ...repositoriesOn(engine.ctx), health: { ping: () => Promise.resolve(true) }, engine };
};
