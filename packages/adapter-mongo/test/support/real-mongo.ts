import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { createMongoStore, type MongoStore } from '../../src/index.js';

// Where a real mongod comes from, honestly: MONGO_URL when set; otherwise a Testcontainers
// MongoDB (a single-node replica set, reached with directConnection=true) when a container
// runtime answers; otherwise nowhere, and the suites that need one are skipped with one
// loud line and reported as pending, never as passed. It must be a replica set member (or
// mongos): every write of the store runs in a transaction with its change-feed events, and a
// standalone has no transactions (the store starts on one only read-only).

export type RealMongo =
  | { readonly available: true; readonly url: string; readonly source: string; stop(): Promise<void> }
  | { readonly available: false; readonly reason: string };

const firstLine = (e: unknown): string => (e instanceof Error ? e.message : String(e)).split('\n')[0] ?? '';

/** Why the server cannot hold the suites (a standalone), or null. */
const topologyRefusal = async (url: string): Promise<string | null> => {
  const client = new MongoClient(url, { serverSelectionTimeoutMS: 5000 });
  try {
    const hello = await client.db('admin').command({ hello: 1 });
    return typeof hello['setName'] === 'string' || hello['msg'] === 'isdbgrid'
      ? null
      : `${url} is a standalone mongod, which has no transactions (start it with --replSet rs0 and run rs.initiate(): see docs/mongodb.md)`;
  } catch (e) {
    return `${url} did not answer (${firstLine(e)})`;
  } finally {
    await client.close();
  }
};

const resolve = async (): Promise<RealMongo> => {
  const fromEnv = process.env['MONGO_URL'];
  if (fromEnv !== undefined && fromEnv !== '') {
    const refusal = await topologyRefusal(fromEnv);
    return refusal === null
      ? { available: true, url: fromEnv, source: 'MONGO_URL', stop: () => Promise.resolve() }
      : { available: false, reason: refusal };
  }
  try {
    const { MongoDBContainer } = await import('@testcontainers/mongodb');
    const container = await new MongoDBContainer('mongo:7').start();
    const base = container.getConnectionString();
    return {
      available: true,
      url: `${base}${base.includes('?') ? '&' : '?'}directConnection=true`,
      source: 'Testcontainers (mongo:7)',
      stop: async () => {
        await container.stop();
      },
    };
  } catch (e) {
    return {
      available: false,
      reason: `MONGO_URL is not set and Testcontainers could not start MongoDB (${firstLine(e)})`,
    };
  }
};

let resolution: Promise<RealMongo> | null = null;
let announced = false;

// A root-level hook: after every test file, stop the container (if one was started).
after(async () => {
  const r = resolution === null ? null : await resolution;
  if (r?.available === true) await r.stop();
});

/** The real mongod for this run (resolved once), announcing once whether the suite runs. */
export const realMongo = async (): Promise<RealMongo> => {
  resolution ??= resolve();
  const r = await resolution;
  if (!announced) {
    announced = true;
    if (r.available) console.warn(`\nMongoDB contract suite runs against a real mongod from ${r.source}.`);
    else
      console.warn(
        `\nMongoDB contract suite did NOT run: ${r.reason}. Set MONGO_URL=mongodb://... to run it (see docs/mongodb.md).`,
      );
  }
  return r;
};

/**
 * Stores on fresh databases of one mongod, each dropped at the end: every contract test
 * gets an empty store, as with the memory adapter.
 */
export const freshStores = (url: string) => {
  const opened: MongoStore[] = [];
  const names: string[] = [];
  return {
    make: (dbName = `contract_${randomBytes(6).toString('hex')}`): MongoStore => {
      // MONGO_WITHOUT_TTL=true: the service's own setting (server config.ts: no TTL indexes, for a
      // server without them, as FerretDB; scripts/ferretdb-run.mjs sets it to true).
      const withoutTtlIndexes = process.env['MONGO_WITHOUT_TTL'] === 'true';
      const store = createMongoStore({
        url,
        dbName,
        serverSelectionTimeoutMS: 5000,
        operationTimeoutMS: 10000,
        withoutTtlIndexes,
      });
      opened.push(store);
      if (!names.includes(dbName)) names.push(dbName);
      return store;
    },
    cleanUp: async (): Promise<void> => {
      await Promise.all(opened.splice(0).map((s) => s.close()));
      const admin = new MongoClient(url, { serverSelectionTimeoutMS: 5000 });
      try {
        for (const name of names.splice(0)) await admin.db(name).dropDatabase();
      } finally {
        await admin.close();
      }
    },
  };
};
