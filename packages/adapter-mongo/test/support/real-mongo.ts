import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { createMongoStore, type MongoStore } from '../../src/index.js';
import { divergenceOf, engineSources, resolveSource, type EngineWorld, type Resolved } from './engine-choice.js';

// Where a real server comes from, honestly (engine-choice.ts decides): MONGO_URL when set;
// otherwise, when a container runtime answers, a Testcontainers `mongo:7` single-node replica
// set (reached with directConnection=true) and DocumentDB's image as a second engine;
// otherwise nowhere, and the suites that need one are skipped with one loud line per engine
// and reported as pending, never as passed. It must be a replica set member (or mongos):
// every write of the store runs in a transaction with its change-feed events, and a
// standalone has no transactions (the store starts on one only read-only).

export type RealMongo = Resolved;

const firstLine = (e: unknown): string => (e instanceof Error ? e.message : String(e)).split('\n')[0] ?? '';

/** Why the server cannot hold the suites (a standalone), or null. */
const topologyRefusal = async (url: string): Promise<string | null> => {
  const client = new MongoClient(url, { serverSelectionTimeoutMS: 5000 });
  try {
    const hello = await client.db('admin').command({ hello: 1 });
    return typeof hello['setName'] === 'string' || hello['msg'] === 'isdbgrid'
      ? null
      : `${redacted(url)} is a standalone mongod, which has no transactions (start it with --replSet rs0 and run rs.initiate(): see docs/mongodb.md)`;
  } catch (e) {
    return `${redacted(url)} did not answer (${firstLine(e)})`;
  } finally {
    await client.close();
  }
};

/** The URL without its password, for the lines the suites print. */
const redacted = (url: string): string => url.replace(/\/\/([^:/@]+):[^@/]*@/, '//$1:***@');

/** Answers once the server at `url` answers a ping (DocumentDB's gateway listens before PostgreSQL is ready). */
const answering = async (url: string, ms: number): Promise<void> => {
  const end = Date.now() + ms;
  for (;;) {
    const client = new MongoClient(url, { serverSelectionTimeoutMS: 2000 });
    try {
      await client.db('admin').command({ ping: 1 });
      return;
    } catch (e) {
      if (Date.now() > end) throw e;
    } finally {
      await client.close();
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
};

const documentDbPort = 10260;

/** The real world of engine-choice.ts: Testcontainers' runtime detection and its containers. */
const world: EngineWorld = {
  runtime: async () => {
    try {
      const { getContainerRuntimeClient } = await import('testcontainers');
      await getContainerRuntimeClient();
      return null;
    } catch (e) {
      return firstLine(e);
    }
  },
  startContainer: async (source) => {
    if (source.engine === 'mongo') {
      const { MongoDBContainer } = await import('@testcontainers/mongodb');
      const container = await new MongoDBContainer(source.image).start();
      const base = container.getConnectionString();
      return {
        url: `${base}${base.includes('?') ? '&' : '?'}directConnection=true`,
        stop: async () => {
          await container.stop();
        },
      };
    }
    // DocumentDB's image: the gateway (TLS with its own self-signed certificate) on 10260,
    // with the user and password given on its command line (its README's `docker run`).
    const { GenericContainer, Wait } = await import('testcontainers');
    const password = randomBytes(12).toString('hex');
    const container = await new GenericContainer(source.image)
      .withCommand(['--username', 'suites', '--password', password])
      .withExposedPorts(documentDbPort)
      .withWaitStrategy(Wait.forListeningPorts())
      .withStartupTimeout(180_000)
      .start();
    const url = `mongodb://suites:${password}@${container.getHost()}:${String(container.getMappedPort(documentDbPort))}/?directConnection=true&tls=true&tlsAllowInvalidCertificates=true&authMechanism=SCRAM-SHA-256`;
    try {
      await answering(url, 120_000);
    } catch (e) {
      await container.stop();
      throw e;
    }
    return {
      url,
      stop: async () => {
        await container.stop();
      },
    };
  },
  refusal: topologyRefusal,
};

export interface RealEngine {
  readonly name: string;
  /** The server (resolved once per run, announced once), or why there is none. */
  resolve(): Promise<RealMongo>;
}

const resolutions: Promise<RealMongo>[] = [];

// A root-level hook: after every test file, stop the containers that were started.
// A root-level hook: a test that meets a listed DocumentDB divergence does not run on DocumentDB.
beforeEach(function () {
  const test = this.currentTest;
  const divergence = test === undefined ? null : divergenceOf(test.fullTitle(), process.env);
  if (divergence === null) return;
  console.warn(`      did NOT run on DocumentDB: ${divergence} (DOCUMENTDB_DIVERGENCES=run runs it)`);
  this.skip();
});

after(async () => {
  for (const r of await Promise.all(resolutions)) if (r.available) await r.stop();
});

const engines: RealEngine[] = engineSources(process.env).map((source) => {
  let resolution: Promise<RealMongo> | null = null;
  return {
    name: source.name,
    resolve: () => {
      if (resolution === null) {
        resolution = resolveSource(source, world).then((r) => {
          if (r.available) console.warn(`\nMongoDB suites run against a real server from ${r.source}.`);
          else
            console.warn(
              `\nMongoDB suites did NOT run on ${source.name}: ${r.reason}. Set MONGO_URL=mongodb://... to run them (see docs/mongodb.md).`,
            );
          return r;
        });
        resolutions.push(resolution);
      }
      return resolution;
    },
  };
});

/** Every engine the real-server suites run on (engine-choice.ts): each suite registers itself once per engine. */
export const realEngines = (): readonly RealEngine[] => engines;

/** The first engine (MONGO_URL, else the `mongo:7` container), for a suite that runs on one server only. */
export const realMongo = (): Promise<RealMongo> => (engines[0] as RealEngine).resolve();

/**
 * Stores on empty databases of one server, each dropped at the end: every contract test gets
 * an empty store, as with the memory adapter. A database made for a test without a name of
 * its own is emptied after the test (`recycle`: its stores closed, every document of every
 * collection deleted) and handed to a later test, its collections and indexes kept: the
 * store's start on it then only finds them there. A brand-new database costs its whole index
 * set (40 indexes on tickets); DocumentDB builds an index added to an existing collection in a
 * background job that runs every 2 s, so its first start takes about 25 s, longer than a
 * request waits for a store to get ready (docs/mongodb.md, "DocumentDB").
 */
export const freshStores = (url: string) => {
  const opened: { readonly store: MongoStore; readonly dbName: string; readonly spareable: boolean }[] = [];
  const names: string[] = [];
  const spare: string[] = [];
  // MONGO_WITHOUT_TTL=true: the service's own setting (server config.ts: no TTL indexes, for a
  // server without them, as FerretDB; scripts/ferretdb-run.mjs sets it to true).
  const withoutTtlIndexes = process.env['MONGO_WITHOUT_TTL'] === 'true';
  const open = (dbName: string, spareable: boolean): MongoStore => {
    const store = createMongoStore({
      url,
      dbName,
      serverSelectionTimeoutMS: 5000,
      operationTimeoutMS: 10000,
      withoutTtlIndexes,
    });
    opened.push({ store, dbName, spareable });
    if (!names.includes(dbName)) names.push(dbName);
    return store;
  };
  const admin = async <T>(f: (client: MongoClient) => Promise<T>): Promise<T> => {
    const client = new MongoClient(url, { serverSelectionTimeoutMS: 5000 });
    try {
      return await f(client);
    } finally {
      await client.close();
    }
  };
  /** Closes the stores on databases made without a name (a named database's stores stay open) and empties those databases for later tests. */
  const recycle = async (): Promise<void> => {
    const emptied = [...new Set(opened.filter((o) => o.spareable).map((o) => o.dbName))];
    const used = opened.filter((o) => emptied.includes(o.dbName));
    opened.splice(0, opened.length, ...opened.filter((o) => !emptied.includes(o.dbName)));
    await Promise.all(used.map((o) => o.store.close()));
    await admin(async (client) => {
      for (const name of emptied) {
        const db = client.db(name);
        for (const c of await db.listCollections({}, { nameOnly: true }).toArray())
          await db.collection(c.name).deleteMany({});
        spare.push(name);
      }
    });
  };
  return {
    make: (dbName?: string): MongoStore =>
      dbName === undefined
        ? open(spare.shift() ?? `contract_${randomBytes(6).toString('hex')}`, true)
        : open(dbName, false),
    /** Makes `count` databases with every collection and index, ready for the next tests (start() has no request deadline). */
    prepare: async (count: number): Promise<void> => {
      for (let i = 0; i < count; i++) await open(`contract_${randomBytes(6).toString('hex')}`, true).start();
      await recycle();
    },
    recycle,
    cleanUp: async (): Promise<void> => {
      await Promise.all(opened.splice(0).map((o) => o.store.close()));
      await admin(async (client) => {
        for (const name of names.splice(0)) await client.db(name).dropDatabase();
      });
    },
  };
};
