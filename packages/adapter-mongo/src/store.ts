import { StoreUnavailableError, type Store, type StoreHealth } from '@support/application';
import { GridFSBucket, MongoClient, type Db } from 'mongodb';
import { mongoAttachmentRepository } from './attachment-repository.js';
import { gridfsBlobStore } from './gridfs-blob-store.js';
import { repairPass } from './bulk-writes.js';
import { blobBucket, collectionsOf, type MongoContext } from './context.js';
import { mongoIdSequence, mongoRateLimitCounter } from './counters.js';
import { guard, storeFailureOf } from './errors.js';
import { mongoEventLog } from './event-log.js';
import { mongoGroupRepository } from './group-repository.js';
import { mongoIdempotencyStore } from './idempotency-store.js';
import { mongoMessageRepository } from './message-repository.js';
import {
  databaseFromUrl,
  defaultSearchSettings,
  maintenanceClientOptions,
  mongoClientOptions,
  resolveTimeouts,
  type MongoStoreOptions,
} from './options.js';
import {
  connectionFailure,
  createDeclaredIndexes,
  MongoStartupError,
  standaloneAccepted,
  standaloneRefused,
  standaloneWritesRefused,
  topologyOf,
  type Topology,
} from './startup.js';
import { mongoTicketFieldRepository } from './ticket-field-repository.js';
import { mongoTicketRepository } from './ticket-repository.js';
import { mongoPersonalTokenStore } from './personal-token-store.js';
import { mongoTokenStore } from './token-store.js';
import type { SessionSource } from './transactions.js';
import { mongoUserRepository } from './user-repository.js';
import { mongoWebhookRepository } from './webhook-repository.js';

export { MongoStartupError } from './startup.js';

/** What the start found: the deployment, what the operator should know, the bulk writes it finished. */
export interface StartReport {
  readonly topology: Topology;
  readonly warnings: readonly string[];
  readonly repaired: number;
}

export interface MongoStore extends Store {
  /**
   * Connects, checks the topology, creates every index (without the request timeouts) and
   * finishes the bulk writes left undone. Rejects with MongoStartupError for what waiting will
   * not cure (the start should stop with its message), with StoreUnavailableError while the
   * database is unreachable (requests and /readyz then try again). Until it has succeeded,
   * every request answers "store unavailable" and the health check is false.
   */
  start(): Promise<StartReport>;
  /** The same preparation, for tests and tools that only need the indexes. */
  ensureIndexes(): Promise<void>;
  /** Closes the client's connections; the store is unusable afterwards. */
  close(): Promise<void>;
  /** The database in use (for tests and tooling). */
  readonly db: Db;
}

/** Every repository of the store, on one context. */
export const repositoriesOn = (ctx: MongoContext): Omit<Store, 'health'> => ({
  tickets: mongoTicketRepository(ctx),
  ticketFields: mongoTicketFieldRepository(ctx),
  messages: mongoMessageRepository(ctx),
  attachments: mongoAttachmentRepository(ctx),
  blobs: gridfsBlobStore(ctx),
  users: mongoUserRepository(ctx),
  groups: mongoGroupRepository(ctx),
  tokens: mongoTokenStore(ctx),
  personalTokens: mongoPersonalTokenStore(ctx),
  rateLimits: mongoRateLimitCounter(ctx),
  idempotency: mongoIdempotencyStore(ctx),
  webhooks: mongoWebhookRepository(ctx),
  events: mongoEventLog(ctx),
  ids: mongoIdSequence(ctx),
});

/** Thrown at construction for a MONGO_URL the driver cannot parse. */
export class MongoConfigurationError extends Error {
  override readonly name = 'MongoConfigurationError';
}

const newClient = (url: string, options: ReturnType<typeof mongoClientOptions>): MongoClient => {
  try {
    return new MongoClient(url, options);
  } catch (e) {
    throw new MongoConfigurationError(
      `not a usable MongoDB connection string: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
};

/** After a refusal (MongoStartupError), requests answer "unavailable" at once for this long before the preparation is tried again. */
const refusalPauseMs = 30_000;

/**
 * Every port of the application on MongoDB. Touches no network: the driver connects on
 * first use and reconnects by itself, so a process starts while the database is down,
 * answers "store unavailable" meanwhile and recovers when it returns.
 */
export const createMongoStore = (options: MongoStoreOptions): MongoStore => {
  const timeouts = resolveTimeouts(options);
  const client = newClient(options.url, mongoClientOptions(timeouts));
  const dbName = options.dbName ?? databaseFromUrl(options.url) ?? 'support';
  const db = client.db(dbName);

  // The driver connects by itself on first use, but when that first connection fails it
  // closes its topology and every later call fails at once ("Topology is closed"), for good.
  // So the store connects explicitly and, after a failure, tries again on the next call.
  // Once connected, the driver rides out outages itself: its monitors keep probing and each
  // operation waits up to serverSelectionTimeoutMS for a primary.
  let closed = false;
  let connecting: Promise<void> | null = null;
  const connect = (): Promise<void> => {
    if (closed) return Promise.reject(new StoreUnavailableError('the data store has been closed'));
    connecting ??= guard(timeouts.deadlineMs, async () => {
      await client.connect();
    }).catch((e: unknown) => {
      connecting = null;
      throw e;
    });
    return connecting;
  };

  /** Transactions on `c`, refused on a standalone (accepted read-only): every write of the feed's resources needs one. */
  const sessionsOf = (c: MongoClient, topology: () => Topology | null): SessionSource => ({
    startSession: () => c.startSession(),
    transactionsRefused: () => (topology() === 'standalone' ? standaloneWritesRefused : null),
  });

  let report: StartReport | null = null;
  let refusal: { readonly error: MongoStartupError; readonly at: number } | null = null;
  let preparing: Promise<StartReport> | null = null;

  const prepareOnce = async (): Promise<StartReport> => {
    await connect();
    const topology = topologyOf(await guard(timeouts.deadlineMs, () => db.admin().command({ hello: 1 })));
    if (topology === 'standalone' && options.allowStandalone !== true) throw new MongoStartupError(standaloneRefused);
    // Index builds and repairs may take long on a large database: their own client, without the request timeouts.
    const maintenance = newClient(options.url, maintenanceClientOptions(timeouts));
    try {
      const mdb = maintenance.db(dbName);
      await createDeclaredIndexes(mdb, options.withoutTtlIndexes === true);
      const repaired = await repairPass({ ...collectionsOf(mdb), sessions: sessionsOf(maintenance, () => topology) });
      return { topology, warnings: topology === 'standalone' ? [standaloneAccepted] : [], repaired };
    } finally {
      await maintenance.close();
    }
  };

  /** A preparation failure as the caller should see it: transient (unavailable), refused for good, or a bug. */
  const asStartFailure = (e: unknown): unknown => {
    if (e instanceof MongoStartupError || e instanceof StoreUnavailableError) return e;
    if (storeFailureOf(e) !== null) return new StoreUnavailableError(undefined, { cause: e });
    return new MongoStartupError(connectionFailure(e), { cause: e });
  };

  const prepare = (): Promise<StartReport> => {
    if (closed) return Promise.reject(new StoreUnavailableError('the data store has been closed'));
    if (report !== null) return Promise.resolve(report);
    if (refusal !== null && Date.now() - refusal.at < refusalPauseMs) return Promise.reject(refusal.error);
    preparing ??= prepareOnce().then(
      (r) => {
        report = r;
        refusal = null;
        return r;
      },
      (e: unknown) => {
        preparing = null;
        const failure = asStartFailure(e);
        if (failure instanceof MongoStartupError) refusal = { error: failure, at: Date.now() };
        throw failure;
      },
    );
    return preparing;
  };

  let repairTimer: NodeJS.Timeout | null = null;
  let repairDelayMs = 5_000;
  const scheduleRepair = (): void => {
    if (closed || repairTimer !== null) return;
    repairTimer = setTimeout(() => {
      repairTimer = null;
      repairPass({ ...collectionsOf(db), sessions }, timeouts.maxTimeMS).then(
        () => {
          repairDelayMs = 5_000;
        },
        () => {
          repairDelayMs = Math.min(60_000, repairDelayMs * 2);
          scheduleRepair();
        },
      );
    }, repairDelayMs);
    repairTimer.unref();
  };

  const sessions = sessionsOf(client, () => report?.topology ?? null);
  const ctx: MongoContext = {
    ...collectionsOf(db),
    bucket: new GridFSBucket(db, { bucketName: blobBucket, writeConcern: { w: 'majority' } }),
    sessions,
    maxTimeMS: timeouts.maxTimeMS,
    search: { ...defaultSearchSettings, ...options.search },
    run: async (op, kind) => {
      if (report === null) {
        try {
          await guard(timeouts.deadlineMs, prepare);
        } catch (e) {
          // A refusal is for the operator (the start says it); a request only learns the store cannot serve.
          throw e instanceof MongoStartupError
            ? new StoreUnavailableError('the data store is not ready', { cause: e })
            : e;
        }
      }
      return guard(timeouts.deadlineMs, op, kind);
    },
    scheduleRepair,
  };

  const health: StoreHealth = {
    ping: async () => {
      try {
        // Not ready until the indexes exist: a preparation that does not finish within the
        // ping's deadline goes on in the background, and the answer is false meanwhile.
        if (report === null) await guard(timeouts.pingDeadlineMs, prepare);
        await connect();
        await guard(timeouts.pingDeadlineMs, () => db.command({ ping: 1 }));
        return true;
      } catch {
        return false;
      }
    },
  };

  return {
    ...repositoriesOn(ctx),
    health,
    start: prepare,
    ensureIndexes: async () => {
      await prepare();
    },
    close: async () => {
      closed = true;
      if (repairTimer !== null) clearTimeout(repairTimer);
      await client.close();
    },
    db,
  };
};
