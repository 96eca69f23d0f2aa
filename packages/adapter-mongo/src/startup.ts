import { MongoServerError, type Db, type Document } from 'mongodb';
import { collectionNames, type CollectionKey } from './collections.js';
import { createCounter } from './counters.js';
import type { CounterDocument } from './documents.js';
import { storeFailureOf } from './errors.js';
import { eventCounterId } from './event-append.js';
import { indexDescriptions } from './indexes.js';

// What the store checks and prepares once connected, before it serves a request: the
// topology (transactions and retryable writes need a replica set), every index (created without the request
// timeouts: building one over a large collection takes as long as it takes), and the bulk
// writes a crash or a timeout left half done (bulk-writes.ts). A failure that waiting will
// not cure (an index in conflict, duplicates under a unique index, missing privileges, a
// standalone server not accepted) is a MongoStartupError: the start stops with its message,
// one line that names the index and the reason.

/** A failure at start that retrying will not cure; its message is one line for the operator. */
export class MongoStartupError extends Error {
  override readonly name = 'MongoStartupError';
}

export type Topology = 'replica set' | 'sharded cluster' | 'standalone';

/** The deployment a `hello` answer describes: a replica set member names its set, mongos says isdbgrid. */
export const topologyOf = (hello: Document): Topology =>
  typeof hello['setName'] === 'string' ? 'replica set' : hello['msg'] === 'isdbgrid' ? 'sharded cluster' : 'standalone';

// A standalone has no transactions, and every write of a ticket, message, user or group
// records its change-feed event in the same transaction (transactions.ts): no fallback there
// could keep "no change without its event, no hole a reader sees fill later". So it is
// refused, or, with MONGO_ALLOW_STANDALONE=true, served read-only (reads, logins and tokens
// work; each write of the feed's resources is refused before anything is sent).
const standaloneLacks =
  'it has no transactions, which every write of a ticket, message, user or group needs to record its change-feed event, and no retryable writes (the driver turns them off silently, so a write cut off by a network error or a restart is neither retried nor known to have happened)';

export const standaloneRefused = `MongoDB is a standalone server, not a replica set: ${standaloneLacks}. Run a replica set (a single member is enough: see docs/mongodb.md); MONGO_ALLOW_STANDALONE=true starts the service read-only instead`;

export const standaloneAccepted = `MongoDB is a standalone server, not a replica set (accepted by MONGO_ALLOW_STANDALONE=true): the service is READ-ONLY, every write of a ticket, message, user or group is refused (500) because it needs a transaction to record its change-feed event; retryable writes are off too`;

/** Why a write is refused on an accepted standalone (logged with the 500; never shown to the client). */
export const standaloneWritesRefused =
  'this write was refused: MongoDB is a standalone server (accepted read-only by MONGO_ALLOW_STANDALONE=true), and a write records its change-feed event in a transaction, which needs a replica set';

/** Why the server refused an index, in the operator's terms, by error code. */
const indexRefusals: Readonly<Record<number, string>> = {
  85: 'an index with the same keys already exists under another name or with other options (drop it, or rename it to the declared name)',
  86: 'an index with this name already exists with other keys or options (drop it so that the declared one can be built)',
  11000:
    'documents already stored hold duplicate values of its key, so it cannot be unique (remove the duplicates first)',
  13: 'the database user is not allowed to create indexes (grant it the createIndex action, e.g. the readWrite role)',
  67: 'the server cannot create it (CannotCreateIndex)',
};

const codeOf = (e: unknown): string =>
  e instanceof MongoServerError
    ? `${typeof e.codeName === 'string' ? `${e.codeName} ` : ''}${String(e.code ?? '')}`.trim()
    : e instanceof Error
      ? e.name
      : 'unknown';

export const indexFailure = (index: string, collection: string, e: unknown): string => {
  const code = e instanceof MongoServerError && typeof e.code === 'number' ? e.code : null;
  const why = (code === null ? undefined : indexRefusals[code]) ?? 'the server refused it';
  return `MongoDB index ${index} on ${collection} cannot be created: ${why} (${codeOf(e)})`;
};

/** A connection or check refused for good (bad credentials, no privileges), in one line. */
export const connectionFailure = (e: unknown): string =>
  e instanceof MongoServerError && e.code === 18
    ? 'MongoDB refused the connection: authentication failed (check the user and password in MONGO_URL)'
    : `MongoDB refused the start (${codeOf(e)})`;

const transient = (e: unknown): boolean => storeFailureOf(e) !== null;

/** NamespaceExists: the collection is there already (an earlier start, or another process starting now). */
const namespaceExists = 48;

/**
 * Creates a collection unless it exists. Every collection is made here, at start, one at a
 * time: left to the first writes, `events` and `counters` would be created implicitly inside
 * the first concurrent transactions, which then conflict on the catalog (transient errors at
 * first use), and FerretDB panics on concurrent index builds of a fresh database.
 */
const createCollection = async (db: Db, name: string): Promise<void> => {
  try {
    await db.createCollection(name);
  } catch (e) {
    if (e instanceof MongoServerError && e.code === namespaceExists) return;
    if (transient(e)) throw e;
    throw new MongoStartupError(`MongoDB collection ${name} cannot be created: the server refused it (${codeOf(e)})`, {
      cause: e,
    });
  }
};

/**
 * The change feed's counter at 0 unless it exists, so that no transaction has to create it
 * (every append then updates one document). By an insert, not an upsert (counters.ts): on
 * DocumentDB an upsert racing another process's first start could overwrite the counter that
 * process had just made.
 */
const seedEventCounter = (db: Db): Promise<void> =>
  createCounter(db.collection<CounterDocument>(collectionNames.counters), { _id: eventCounterId, seq: 0 });

/**
 * Creates every collection, its declared indexes (idempotent: an existing identical index is
 * a no-op) and the feed's counter. A transient failure propagates as it is (the caller
 * retries later); a refusal is told apart index by index, so that the error names the one
 * refused.
 */
export const createDeclaredIndexes = async (db: Db, withoutTtl = false): Promise<void> => {
  for (const key of Object.keys(collectionNames) as CollectionKey[]) {
    await createCollection(db, collectionNames[key]);
    const descriptions = indexDescriptions(key).filter((d) => !withoutTtl || !('expireAfterSeconds' in d));
    if (descriptions.length === 0) continue;
    const collection = db.collection(collectionNames[key]);
    try {
      await collection.createIndexes(descriptions);
    } catch (e) {
      if (transient(e)) throw e;
      for (const d of descriptions) {
        try {
          await collection.createIndexes([d]);
        } catch (one) {
          if (transient(one)) throw one;
          throw new MongoStartupError(indexFailure(d.name, collectionNames[key], one), { cause: one });
        }
      }
      throw new MongoStartupError(indexFailure(descriptions.map((d) => d.name).join(', '), collectionNames[key], e), {
        cause: e,
      });
    }
  }
  await seedEventCounter(db);
};
