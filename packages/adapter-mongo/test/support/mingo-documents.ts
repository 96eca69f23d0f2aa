import { Query } from 'mingo';
import { BSON, type Document } from 'mongodb';
import type { CollectionKey } from '../../src/collections.js';
import type { SearchSettings } from '../../src/options.js';
import type { SortDocument } from './index-rules.js';

// The documents' side of the mingo engine (mingo-engine.ts): BSON copies, upsert seeds,
// projections, compiled filters, the armed faults and the driver's cursor.

export type Doc = Document;

export const throughBson = <T extends Doc>(d: T): T => BSON.deserialize(BSON.serialize(d)) as T;

/** Every query the engine answered, for tests that inspect what the adapter sent. */
export interface SentQuery {
  readonly collection: CollectionKey;
  readonly op: string;
  readonly filter: Doc;
  readonly sort?: SortDocument;
  readonly hint?: unknown;
}

export interface FindOptions {
  readonly projection?: Doc;
  readonly sort?: SortDocument;
  readonly skip?: number;
  readonly limit?: number;
  readonly hint?: unknown;
}

export const isOperatorUpdate = (u: unknown): u is Doc =>
  typeof u === 'object' && u !== null && !Array.isArray(u) && Object.keys(u).every((k) => k.startsWith('$'));

/** The document an upsert starts from: the filter's top-level equalities (MongoDB's rule). */
export const seedOf = (filter: Doc): Doc => {
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
export const projected = (d: Doc, projection: Doc): Doc => {
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
export const queries = new Map<string, Query>();
export const compiled = (filter: Doc): Query => {
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
export class EngineCursor {
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
  private pending: Doc[] | null = null;
  /** The documents one by one, read once at the first call (GridFS reads its chunks so). */
  async next(): Promise<Doc | null> {
    this.pending ??= await this.toArray();
    return this.pending.shift() ?? null;
  }
  withReadPreference(): this {
    return this;
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
}

/** Options every operation may carry; a session in a transaction makes it part of that transaction. */
export interface OpOptions {
  readonly session?: unknown;
}

/** One document's change: what it was (null: inserted) and what it becomes (null: deleted). */
export interface Change {
  readonly current: Doc | null;
  readonly next: Doc | null;
}
