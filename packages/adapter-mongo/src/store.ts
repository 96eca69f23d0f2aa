import { StoreUnavailableError, type Store, type StoreHealth } from '@support/application';
import { MongoClient, type Db } from 'mongodb';
import { collectionsOf, type MongoContext } from './context.js';
import { mongoIdSequence, mongoRateLimitCounter } from './counters.js';
import { guard } from './errors.js';
import { mongoGroupRepository } from './group-repository.js';
import { createIndexes } from './indexes.js';
import { mongoMessageRepository } from './message-repository.js';
import { databaseFromUrl, mongoClientOptions, resolveTimeouts, type MongoStoreOptions } from './options.js';
import { mongoTicketRepository } from './ticket-repository.js';
import { defaultSearchSettings } from './ticket-search.js';
import { mongoTokenStore } from './token-store.js';
import { mongoUserRepository } from './user-repository.js';

export interface MongoStore extends Store {
  /**
   * Creates every index (idempotent). Every operation awaits it first, so the store never
   * writes before the unique indexes exist; call it at start to learn early. Rejects with
   * StoreUnavailableError while the database is unreachable and is tried again on next use.
   */
  ensureIndexes(): Promise<void>;
  /** Closes the client's connections; the store is unusable afterwards. */
  close(): Promise<void>;
  /** The database in use (for tests and tooling). */
  readonly db: Db;
}

/** Every repository of the store, on one context. */
export const repositoriesOn = (ctx: MongoContext): Omit<Store, 'health'> => ({
  tickets: mongoTicketRepository(ctx),
  messages: mongoMessageRepository(ctx),
  users: mongoUserRepository(ctx),
  groups: mongoGroupRepository(ctx),
  tokens: mongoTokenStore(ctx),
  rateLimits: mongoRateLimitCounter(ctx),
  ids: mongoIdSequence(ctx),
});

/** Thrown at construction for a MONGO_URL the driver cannot parse. */
export class MongoConfigurationError extends Error {
  override readonly name = 'MongoConfigurationError';
}

const connectClient = (url: string, options: ReturnType<typeof mongoClientOptions>): MongoClient => {
  try {
    return new MongoClient(url, options);
  } catch (e) {
    throw new MongoConfigurationError(`not a usable MongoDB connection string: ${e instanceof Error ? e.message : String(e)}`);
  }
};

/**
 * Every port of the application on MongoDB. Touches no network: the driver connects on
 * first use and reconnects by itself, so a process starts while the database is down,
 * answers "store unavailable" meanwhile and recovers when it returns.
 */
export const createMongoStore = (options: MongoStoreOptions): MongoStore => {
  const timeouts = resolveTimeouts(options);
  const client = connectClient(options.url, mongoClientOptions(timeouts));
  const db = client.db(options.dbName ?? databaseFromUrl(options.url) ?? 'support');

  // The driver connects by itself on first use, but when that first connection fails it
  // closes its topology and every later call fails at once ("Topology is closed"), for good.
  // So the store connects explicitly and, after a failure, tries again on the next call.
  // Once connected, the driver rides out outages itself: its monitors keep probing and each
  // operation waits up to serverSelectionTimeoutMS for a primary.
  let closed = false;
  const once = (step: () => Promise<void>): (() => Promise<void>) => {
    let pending: Promise<void> | null = null;
    return () => {
      if (closed) return Promise.reject(new StoreUnavailableError('the data store has been closed'));
      pending ??= guard(timeouts.deadlineMs, step).catch((e: unknown) => {
        pending = null;
        throw e;
      });
      return pending;
    };
  };
  const connect = once(async () => {
    await client.connect();
  });
  const ensureIndexes = once(async () => {
    await connect();
    await createIndexes(db);
  });

  const ctx: MongoContext = {
    ...collectionsOf(db),
    maxTimeMS: timeouts.operationTimeoutMS,
    search: { ...defaultSearchSettings, ...options.search },
    run: async (op) => {
      await ensureIndexes();
      return guard(timeouts.deadlineMs, op);
    },
  };

  const health: StoreHealth = {
    ping: async () => {
      try {
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
    ensureIndexes,
    close: async () => {
      closed = true;
      await client.close();
    },
    db,
  };
};
