import type { Store, StoreHealth } from '@support/application';
import { MongoClient, type Db } from 'mongodb';
import { collectionsOf, type MongoContext } from './context.js';
import { mongoIdSequence, mongoRateLimitCounter } from './counters.js';
import { guard } from './errors.js';
import { mongoGroupRepository } from './group-repository.js';
import { createIndexes } from './indexes.js';
import { mongoMessageRepository } from './message-repository.js';
import { databaseFromUrl, mongoClientOptions, resolveTimeouts, type MongoStoreOptions } from './options.js';
import { mongoTicketRepository } from './ticket-repository.js';
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

  let indexes: Promise<void> | null = null;
  const ensureIndexes = (): Promise<void> => {
    indexes ??= guard(timeouts.deadlineMs, () => createIndexes(db)).catch((e: unknown) => {
      indexes = null;
      throw e;
    });
    return indexes;
  };

  const ctx: MongoContext = {
    ...collectionsOf(db),
    maxTimeMS: timeouts.operationTimeoutMS,
    run: async (op) => {
      await ensureIndexes();
      return guard(timeouts.deadlineMs, op);
    },
  };

  const health: StoreHealth = {
    ping: async () => {
      try {
        await guard(timeouts.pingDeadlineMs, () => db.command({ ping: 1 }));
        return true;
      } catch {
        return false;
      }
    },
  };

  return {
    tickets: mongoTicketRepository(ctx),
    messages: mongoMessageRepository(ctx),
    users: mongoUserRepository(ctx),
    groups: mongoGroupRepository(ctx),
    tokens: mongoTokenStore(ctx),
    rateLimits: mongoRateLimitCounter(ctx),
    ids: mongoIdSequence(ctx),
    health,
    ensureIndexes,
    close: () => client.close(),
    db,
  };
};
