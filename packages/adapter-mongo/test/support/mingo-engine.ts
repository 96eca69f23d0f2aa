import type { Store } from '@support/application';
import { GridFSBucket, type ClientSession, type Collection, type Db } from 'mongodb';
import { collectionNames, type CollectionKey } from '../../src/collections.js';
import { blobBucket, collectionsOf, type MongoContext } from '../../src/context.js';
import { repositoriesOn } from '../../src/store.js';
import { defaultSearchSettings } from '../../src/options.js';
import { EngineCore, EngineSession } from './engine-transactions.js';
import type { EngineOptions, SentQuery } from './mingo-documents.js';
import { EngineCollection } from './mingo-collection.js';

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
// durability): the contract suites on a real server remain the word of record.

export type { EngineOptions, Fault, SentQuery } from './mingo-documents.js';

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
      // The driver's own GridFS code, run on the engine's collections.
      bucket: new GridFSBucket(db as unknown as Db, { bucketName: blobBucket }),
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
