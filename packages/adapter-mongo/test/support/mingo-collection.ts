import { ObjectId } from 'mongodb';
import { mongoSort } from './mongo-order.js';
import { type Doc, type FindOptions, type OpOptions, EngineCursor, seedOf } from './mingo-documents.js';
import { StoredCollection } from './mingo-stored-collection.js';
import { idKey } from './engine-transactions.js';
import { indexesOf } from './index-rules.js';

/** A collection of the mingo engine (mingo-engine.ts): the driver's operations the adapter uses, on StoredCollection's write path. */
export class EngineCollection extends StoredCollection {
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

  /** The declared indexes, as the driver lists them (GridFS looks for its own before its first write). */
  listIndexes() {
    const declared = indexesOf(this.key).map((i) => ({ name: i.name, key: i.key }));
    return { toArray: () => Promise.resolve(declared) };
  }

  /** Indexes are declared in src/indexes.ts; the engine checks queries against those. */
  createIndex(key: Doc) {
    return Promise.resolve(Object.keys(key).join('_'));
  }

  countDocuments(filter: Doc, options: FindOptions & OpOptions = {}) {
    return this.reading(options, (docs) => {
      this.record('count', filter, { ...(options.hint === undefined ? {} : { hint: options.hint }) });
      const n = this.matching(filter, docs).length;
      return options.limit === undefined || options.limit === 0 ? n : Math.min(n, options.limit);
    });
  }

  async estimatedDocumentCount() {
    return Promise.resolve(this.docs.length);
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

  /**
   * An upsert by `_id` alone outside a transaction that matches nothing, on an engine playing
   * DocumentDB's (EngineCore.upsertById 'replace'): it waits a turn, so that concurrent callers
   * find nothing either, then inserts the document computed from nothing over whatever they
   * inserted meanwhile. Null when the upsert takes MongoDB's atomic path instead.
   */
  private async upsertReplacing(filter: Doc, update: unknown, options: { upsert?: boolean } & OpOptions) {
    const seed = seedOf(filter);
    if (this.core.upsertById !== 'replace' || options.upsert !== true || options.session !== undefined) return null;
    if (Object.keys(filter).length !== 1 || !('_id' in seed)) return null;
    if ((await this.reading(options, (docs) => this.matching(filter, docs).length)) > 0) return null;
    await new Promise((resolve) => setImmediate(resolve));
    const next = this.updated(seed, update, true);
    return this.write(options, null, (docs) => ({
      changes: [{ current: docs.find((d) => idKey(d) === idKey(next)) ?? null, next }],
      result: next,
    }));
  }

  async updateOne(filter: Doc, update: unknown, options: { upsert?: boolean } & OpOptions = {}) {
    if ((await this.upsertReplacing(filter, update, options)) !== null)
      return { acknowledged: true, matchedCount: 0, modifiedCount: 0, upsertedCount: 1 };
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
    const replaced = await this.upsertReplacing(filter, update, options);
    if (replaced !== null) return options.returnDocument === 'after' ? this.read(replaced, options.projection) : null;
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
